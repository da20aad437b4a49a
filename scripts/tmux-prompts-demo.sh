#!/usr/bin/env bash
# tmux-prompts-demo.sh checks, in a detached tmux session of 120x40, the
# dashboard's group filter and the Prompts tab while following (issue 24):
# it follows the sample's steps 0-19 with --filter-groups accuracy, checks
# that the status line gives the kept and dropped groups, presses f (off)
# and f (on), appends steps 20-29 and checks the filter's counts follow,
# looks at the dead signal's charts on Steps with the filter off, shows
# the Prompts tab and appends steps 30-39 under it; then runs stats
# --follow and checks each step's dead signal line against stats'. Each
# screen is saved in a directory it prints; it exits non-zero on the first
# screen that lacks what it should show. Last, --filter-groups naming no
# objective must stop the load with exit status 2. Every wait is a poll with a
# timeout. Its tmux server is its own (tmux -L), which it prints.
#
#   scripts/tmux-prompts-demo.sh [BIN]   BIN: a built rewardlens (else $BIN, else go build)
#   tmux -L <socket> attach              (while it runs) to watch
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
demo_setup tmux-prompts-demo "${1:-}"
sample=$PWD/sample_data/experiment.jsonl
config=$PWD/sample_data/experiment.toml
session="rewardlens-prompts-$$"
trap end_tmux EXIT

# steps FROM TO: the sample's lines of steps FROM to TO.
steps() {
	awk -v from="$1" -v to="$2" 'match($0, /"batch":[0-9]+,/) {
		b = substr($0, RSTART + 8, RLENGTH - 9) + 0
		if (b >= from && b <= to) print
	}' "$sample"
}

# shows FILE PATTERN [BELOW]: a line of FILE matches PATTERN (an extended
# regular expression) and, given BELOW, the line under it matches BELOW.
# The patterns go through the environment, where awk leaves their
# backslashes alone.
shows() {
	PATTERN=$2 BELOW=${3:-} awk '
		ENVIRON["BELOW"] == "" && $0 ~ ENVIRON["PATTERN"] { found = 1 }
		ENVIRON["BELOW"] != "" && above ~ ENVIRON["PATTERN"] && $0 ~ ENVIRON["BELOW"] { found = 1 }
		{ above = $0 }
		END { exit !found }' "$1"
}

# await TARGET NAME PATTERN [BELOW]: polls the screen until it shows
# PATTERN [BELOW] (shows), saving it as NAME; fails after 20 s.
await() {
	local target=$1 name=$2 pattern=$3 below=${4:-}
	for _ in $(seq 200); do
		tmux capture-pane -p -J -t "$target" >"$out/$name.txt"
		if shows "$out/$name.txt" "$pattern" "$below"; then
			echo "ok  $name"
			return
		fi
		sleep 0.1
	done
	echo "FAIL $name: no /$pattern/${below:+ over /$below/} on the screen:" >&2
	cat "$out/$name.txt" >&2
	exit 1
}

steps 0 19 >"$out/run.jsonl"
tmux new-session -d -s "$session" -x 120 -y 40 -c "$out" \
	"bash -c 'trap : INT; $bin -f --config $config --method grpo --filter-groups accuracy run.jsonl; echo [exited \$?]; sleep 600'"
await "$session" 1-filter-on 'filter-groups accuracy on: 232 kept, 88 dropped groups; this step 10 kept, 6 dropped'
grep -q 'f filter' "$out/1-filter-on.txt" || { echo "FAIL: the footer does not offer f" >&2; exit 1; }
tmux send-keys -t "$session" f
await "$session" 2-filter-off 'filter-groups accuracy off'
tmux send-keys -t "$session" f
await "$session" 3-filter-on-again 'filter-groups accuracy on: 232 kept'
steps 20 29 >>"$out/run.jsonl"
await "$session" 4-followed-filtered 'filter-groups accuracy on: 323 kept, 157 dropped groups'
tmux send-keys -t "$session" f 6
for _ in $(seq 12); do tmux send-keys -t "$session" Down; done
await "$session" 5-steps-dead-signal 'dead share · ◆ step 29: 0.5 '
tmux send-keys -t "$session" 8
# The heatmap's steps are labelled on the line under its title.
await "$session" 6-prompts 'mean +steps *$' '^ +0 +29 *$'
steps 30 39 >>"$out/run.jsonl"
await "$session" 7-prompts-followed 'mean +steps *$' '^ +0 +39 *$'
tmux send-keys -t "$session" q

steps 0 4 >"$out/follow.jsonl"
tmux new-session -d -s "$session-stats" -x 220 -y 40 -c "$out" \
	"bash -c 'trap : INT; $bin stats --follow --task-metric accuracy --config $config follow.jsonl; echo [exited \$?]; sleep 600'"
await "$session-stats" 8-stats-follow '^step 3 '
steps 5 7 >>"$out/follow.jsonl"
await "$session-stats" 9-stats-follow-grown '^step 6 '
"$bin" stats --task-metric accuracy --config "$config" <(steps 0 7) 2>/dev/null | grep '^dead signal' | head -7 >"$out/stats-dead.txt"
grep '^  dead signal' "$out/9-stats-follow-grown.txt" | sed 's/^  //' | head -7 >"$out/follow-dead.txt"
if ! diff "$out/stats-dead.txt" "$out/follow-dead.txt"; then
	echo "FAIL: stats --follow's dead signal lines differ from stats'" >&2
	exit 1
fi
echo "ok  stats --follow's dead signal lines are stats' (steps 0-6)"

# An objective that is none: the load says so, and the status is 2.
tmux new-session -d -s "$session-bad" -x 120 -y 30 -c "$out" \
	"bash -c '$bin --config $config --filter-groups acuracy run.jsonl; echo [exited \$?]; sleep 600'"
await "$session-bad" 10-bad-objective 'did you mean accuracy'
tmux send-keys -t "$session-bad" q
await "$session-bad" 11-bad-objective-status '^\[exited 2\]'
echo "screens in $out"
