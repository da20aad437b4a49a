# demo-setup.sh is sourced by the tmux demo scripts. demo_setup NAME [BIN]
# checks that tmux is installed, makes the directory the screens go to
# (out) and sets bin to BIN, else to $BIN, else to a rewardlens it builds
# there, as an absolute path. Every tmux command of the caller then goes
# to a tmux server of its own (tmux -L $socket), so that a demo runs
# beside other tmux servers, another demo's too, and ends its own only.
# The caller is at the repository's root.
demo_setup() {
	if ! command -v tmux >/dev/null; then
		echo "$1.sh needs tmux: apt-get install -y tmux (or brew install tmux)" >&2
		exit 2
	fi
	out=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-$1.XXXXXX")
	bin=${2:-${BIN:-}}
	if [[ -z $bin ]]; then
		bin=$out/rewardlens
		go build -o "$bin" .
	fi
	bin=$(realpath "$bin")
	socket=rewardlens-$1-$$
	echo "watch it: tmux -L $socket attach"
}

# tmux runs the tmux command given on the demo's own server.
tmux() { command tmux -L "$socket" "$@"; }

# end_tmux ends the demo's server and removes its socket, which a server
# that exited leaves behind.
end_tmux() {
	tmux kill-server 2>/dev/null || true
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
}
