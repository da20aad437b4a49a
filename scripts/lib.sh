# lib.sh is sourced by the scripts, from the repository's root: the
# rewardlens they run (use_bin) and, for those that drive the dashboard,
# a tmux server of their own (own_tmux), so that a script runs beside
# other tmux servers, another script's too, and ends its own only. POSIX
# sh, for the scripts in sh.

# need_tmux SCRIPT exits with status 2 and the way to install tmux when it
# is missing.
need_tmux() {
	if ! command -v tmux >/dev/null; then
		echo "$1 needs tmux: apt-get install -y tmux (or brew install tmux)" >&2
		exit 2
	fi
}

# use_bin DIR [BIN] sets bin to BIN, else to $BIN, else to a rewardlens it
# builds in DIR, as an absolute path.
use_bin() {
	bin=${2:-${BIN:-}}
	if [ -z "$bin" ]; then
		bin=$1/rewardlens
		go build -o "$bin" .
	fi
	bin=$(realpath "$bin")
}

# own_tmux NAME sends every later tmux command of the caller to a server
# of its own, named after NAME and the caller's process.
own_tmux() { socket=rewardlens-$1-$$; }

# tmux runs the tmux command given on the caller's own server.
tmux() { command tmux -L "$socket" "$@"; }

# end_tmux ends the caller's server and removes its socket, which a server
# that exited leaves behind.
end_tmux() {
	tmux kill-server 2>/dev/null || true
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
}

# demo_setup NAME [BIN], for the tmux demo scripts: checks that tmux is
# installed, makes the directory the screens go to (out), sets bin
# (use_bin, built in out) and the demo's own tmux server, and says how to
# watch it.
demo_setup() {
	need_tmux "$1.sh"
	out=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-$1.XXXXXX")
	use_bin "$out" "${2:-}"
	own_tmux "$1"
	echo "watch it: tmux -L $socket attach"
}
