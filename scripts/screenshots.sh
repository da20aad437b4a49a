#!/usr/bin/env bash
# screenshots.sh makes the README's pictures of the dashboard: it runs
# the binary ($BIN, else one it builds) on the embedded sample in a
# detached tmux session of 120x40 (truecolor), walks the screens
# docs/images/screens.tsv lists, captures each with its colours (tmux
# capture-pane -e) and renders it to docs/images/NAME.png with
# scripts/screenshot, a small Go renderer (its own module, so that the
# program does not depend on golang.org/x/image). It keeps each screen's
# text in docs/images/NAME.txt: ui's TestScreenshotsCurrent fails when the
# dashboard no longer draws it, that is when the pictures are stale. Its
# tmux server is its own (tmux -L), beside any other.
#
#   scripts/screenshots.sh [OUTDIR]     (default docs/images; needs tmux and
#                                        DejaVu Sans Mono: apt-get install -y
#                                        tmux fonts-dejavu-core)
#   BIN=/tmp/rewardlens scripts/screenshots.sh /tmp/shots
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
outdir=${1:-docs/images}
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
need_tmux screenshots.sh
font=${SCREENSHOT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf}
if [[ ! -f $font ]]; then
	echo "screenshots.sh needs DejaVu Sans Mono ($font): apt-get install -y fonts-dejavu-core, or set SCREENSHOT_FONT" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-shots.XXXXXX")
use_bin "$work"
(cd scripts/screenshot && go build -o "$work/screenshot" .)
mkdir -p "$outdir"

cols=120 rows=40
session="rewardlens-shots-$$"
own_tmux shots
tmux new-session -d -s "$session" -x "$cols" -y "$rows" -e COLORTERM=truecolor "$bin"
trap 'end_tmux; rm -rf "$work"' EXIT

# shot NAME TEXT: waits up to 5 s for TEXT on the screen, and renders the
# screen to NAME.png and its text to NAME.txt.
shot() {
	local name=$1 text=$2 screen=$work/$1.txt
	for _ in $(seq 50); do
		grep -qF -- "$text" <(tmux capture-pane -p -t "$session") && break
		sleep 0.1
	done
	if ! grep -qF -- "$text" <(tmux capture-pane -p -t "$session"); then
		echo "screenshots.sh: $name: the screen never showed \"$text\"" >&2
		exit 1
	fi
	sleep 0.3 # the last frame after the text appears
	tmux capture-pane -e -p -t "$session" >"$screen"
	tmux capture-pane -p -t "$session" >"$outdir/$name.txt"
	"$work/screenshot" -cols "$cols" -rows "$rows" -font "$font" <"$screen" >"$outdir/$name.png"
	echo "$outdir/$name.png"
}

# press KEY: sends a key named as screens.tsv names it (as the ui tests
# do) by its tmux name; after esc it waits, so that esc is not read as
# alt+ with the next key.
press() {
	case $1 in
	down) tmux send-keys -t "$session" Down ;;
	up) tmux send-keys -t "$session" Up ;;
	enter) tmux send-keys -t "$session" Enter ;;
	esc) tmux send-keys -t "$session" Escape && sleep 0.5 ;;
	*) tmux send-keys -t "$session" -l "$1" ;;
	esac
	sleep 0.1
}

while IFS=$'\t' read -r name keys text; do
	[[ -z $name || $name == \#* ]] && continue
	for key in $keys; do
		press "$key"
	done
	shot "$name" "$text"
done <docs/images/screens.tsv
tmux send-keys -t "$session" Escape q
