#!/usr/bin/env bash
# screenshots.sh makes the README's pictures of the dashboard: it builds
# the binary, runs it on the embedded sample in a detached tmux session of
# 120x40 (truecolor), walks the tabs (and a group opened, and the help),
# captures each screen with its colours (tmux capture-pane -e) and renders
# it to docs/images/NAME.png with scripts/screenshot, a small Go renderer
# (its own module, so that the program does not depend on golang.org/x/image).
#
#   scripts/screenshots.sh [OUTDIR]     (default docs/images; needs tmux and
#                                        DejaVu Sans Mono: apt-get install -y
#                                        tmux fonts-dejavu-core)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
outdir=${1:-docs/images}
if ! command -v tmux >/dev/null; then
	echo "screenshots.sh needs tmux: apt-get install -y tmux" >&2
	exit 2
fi
font=${SCREENSHOT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf}
if [[ ! -f $font ]]; then
	echo "screenshots.sh needs DejaVu Sans Mono ($font): apt-get install -y fonts-dejavu-core, or set SCREENSHOT_FONT" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-shots.XXXXXX")
go build -o "$work/rewardlens" .
(cd scripts/screenshot && go build -o "$work/screenshot" .)
mkdir -p "$outdir"

cols=120 rows=40
session="rewardlens-shots-$$"
tmux new-session -d -s "$session" -x "$cols" -y "$rows" -e COLORTERM=truecolor "$work/rewardlens"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

# shot NAME KEY TEXT: sends KEY (a tmux key name, none when empty), waits
# up to 5 s for TEXT on the screen, and renders the screen to NAME.png.
shot() {
	local name=$1 key=$2 text=$3 screen=$work/$1.txt
	[[ -n $key ]] && tmux send-keys -t "$session" "$key"
	for _ in $(seq 50); do
		tmux capture-pane -e -p -t "$session" >"$screen"
		grep -qF -- "$text" <(tmux capture-pane -p -t "$session") && break
		sleep 0.1
	done
	if ! grep -qF -- "$text" <(tmux capture-pane -p -t "$session"); then
		echo "screenshots.sh: $name: the screen never showed \"$text\"" >&2
		exit 1
	fi
	sleep 0.3 # the last frame after the text appears
	tmux capture-pane -e -p -t "$session" >"$screen"
	"$work/screenshot" -cols "$cols" -rows "$rows" -font "$font" <"$screen" >"$outdir/$name.png"
	echo "$outdir/$name.png"
}

shot rewards "" "frac_zero_std_groups"
shot groups 2 "of zero spread (no GRPO signal)"
tmux send-keys -t "$session" Down
shot group Enter "prompt  p01"
tmux send-keys -t "$session" Escape && sleep 0.5 # not read as alt+ with the next key
shot objectives 3 "Pearson correlation"
shot pareto 4 "[4 Pareto]"
shot trajectories 5 "[5 Trajectories]"
shot steps 6 "[6 Steps]"
shot compare 7 "[7 Compare]"
tmux send-keys -t "$session" 2
shot help ? "Help: Groups"
tmux send-keys -t "$session" Escape q
