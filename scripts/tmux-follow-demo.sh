#!/usr/bin/env bash
# tmux-follow-demo.sh drives rewardlens --follow as a person would: it runs
# the dashboard with -f on a JSONL file in a detached tmux session of
# 120x40, writes to the file as training would (a batch in parts with a
# partial last line, more batches, log rotation, the file rewritten, cut
# short, deleted and back, emptied as logrotate's copytruncate and create
# do), presses [ ] F and tabs, and saves what the screen shows after each
# step in a directory it prints; then it runs stats --follow on a directory
# that grows. It exits non-zero when a screen lacks what the step should
# have brought (LIVE and batch K/N advanced, the reload notice...), shows
# what it must not (a partial line, LIVE while paused), or shows a panic or
# raw escape codes; the checks of a program that exited are then skipped.
# Every wait is a poll with a timeout. tmux-demo.sh runs it too. The
# sample's config is given (--config), as opening the sample does: the
# status line then has no note of objectives inferred, and the header has
# room for the batch's word beside the goals. Its tmux server is its own
# (tmux -L), which it prints.
#
#   scripts/tmux-follow-demo.sh [BIN]   BIN: a built rewardlens (else $BIN, else go build)
#   tmux -L <socket> attach             (while it runs) to watch
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
demo_setup tmux-follow-demo "${1:-}"
sample=$PWD/sample_data/experiment.jsonl
config=$PWD/sample_data/experiment.toml
data=$out/data
mkdir -p "$data"

session="rewardlens-follow-$$"
trap end_tmux EXIT

# start NAME CMD...: runs CMD in $data (file names are given relative to it,
# so that the status line has room for them) in a new tmux session
# $session-NAME of 120x40, the current target; the pane then prints
# "[exited STATUS]" and stays, so that a quit, a status or a panic's trace
# can be read.
target=
start() {
	local name=$1 cmd
	shift
	target=$session-$name
	printf -v cmd '%q ' "$@"
	tmux new-session -d -s "$target" -x 120 -y 40 -c "$data" \
		bash -c "trap : INT; $cmd; echo \"[exited \$?]\"; sleep 3600"
}

# batch N [FROM [TO]]: the sample's lines of batch N (128), or lines FROM to
# TO of them (1-based). Batches 5, 17 and 30 hold an invalid trajectory:
# they are left out.
batch() {
	grep -F "\"batch\":$1," "$sample" | sed -n "${2:-1},${3:-\$}p"
}

# partial N K: line K of batch N up to its middle, without newline (a
# partial last line); rest N K: the rest, with the newline.
partial() { batch "$1" "$2" "$2" | head -c 100; }
rest() { batch "$1" "$2" "$2" | tail -c +101; }

step=0
checks=0
failed=0
skipped=0
# ended is the session whose program exited when it should not have: its
# next checks are skipped.
ended=

# matches FILE TEXT...: FILE holds every TEXT; one written !TEXT must be absent.
matches() {
	local file=$1 t
	shift
	for t; do
		case $t in
		!*) if grep -qF -- "${t#!}" "$file"; then return 1; fi ;;
		*) grep -qF -- "$t" "$file" || return 1 ;;
		esac
	done
}

# insane FILE: FILE shows a panic or raw escape codes (say which), which no
# screen may.
insane() {
	grep -m1 -E 'panic|goroutine [0-9]+ \[|'$'\e''|\[[0-9;?]+[A-Za-z$~]' "$1"
}

# capture NAME: saves the screen as NN-NAME.txt, named $file.
capture() {
	file=$(printf '%s/%02d-%s.txt' "$out" "$step" "$1")
	tmux capture-pane -p -t "$target" >"$file"
}

# begin NAME: starts a check; false when it is skipped, its program having
# exited.
begin() {
	step=$((step + 1))
	checks=$((checks + 1))
	if [[ $ended == "$target" ]]; then
		printf 'SKIP  %02d-%s: the program exited\n' "$step" "$1"
		skipped=$((skipped + 1))
		return 1
	fi
}

# verdict OK TEXT: prints the check's result; a screen with a panic or raw
# escape codes fails it, and a panic's whole trace is saved next to it.
verdict() {
	local bad
	if bad=$(insane "$file"); then
		tmux capture-pane -p -J -S - -t "$target" >"${file%.txt}.history.txt"
		bad+=$(grep -m1 -E '^(runtime error|panic):' "${file%.txt}.history.txt" | sed 's/^/ | /')
		echo "FAIL  $file: $2; the screen shows: $bad"
	elif [[ $1 == ok ]]; then
		echo "PASS  $file: $2"
		return
	else
		echo "FAIL  $file: $2"
	fi
	failed=$((failed + 1))
	if grep -q '^\[exited [0-9]*\]' "$file"; then ended=$target; fi
}

# exited FILE TEXT...: the program of FILE's screen exited though TEXT does
# not say it should.
exited() {
	local file=$1
	shift
	[[ $* != *"[exited"* ]] && grep -q '^\[exited [0-9]*\]' "$file"
}

# expect NAME TEXT...: waits up to 8 s for a screen that shows every TEXT
# and none of those written !TEXT, then saves it as NN-NAME.txt; a screen
# that never does is a failure.
expect() {
	local name=$1
	shift
	begin "$name" || return 0
	for _ in $(seq 80); do
		capture "$name"
		if matches "$file" "$@"; then
			verdict ok "$*"
			return
		fi
		exited "$file" "$@" && break
		sleep 0.1
	done
	verdict fail "never: $*"
}

# steady NAME SECS TEXT...: watches the screen for SECS: it must show every
# TEXT and none of those written !TEXT all along (what should not happen
# is given the time to, the follower polling every second).
steady() {
	local name=$1 secs=$2
	shift 2
	begin "$name" || return 0
	for _ in $(seq $((secs * 10))); do
		capture "$name"
		if ! matches "$file" "$@"; then
			verdict fail "not all along: $*"
			return
		fi
		sleep 0.1
	done
	verdict ok "for ${secs}s: $*"
}

# press KEY NAME TEXT...: sends KEY (a tmux key name) and expects TEXT...
press() {
	local key=$1
	shift
	tmux send-keys -t "$target" "$key"
	expect "$@"
}

echo "captures in $out"

# --- The dashboard follows a growing file. ------------------------------
cd "$data"
f=run.jsonl
for b in 0 1 2; do batch $b; done >"$f"
start dash "$bin" --config "$config" -f "$f"
expect start "● LIVE batch 3/3 step 2" "128 valid"

# Batch 3 comes in parts; a partial last line waits for its newline.
partial 3 1 >>"$f"
steady partial-line 3 "● LIVE batch 3/3 step 2" "128 valid" "!batch 4/" "!following:"
{ rest 3 1; batch 3 2 64; partial 3 65; } >>"$f"
expect half-batch "● LIVE batch 4/4 step 3" "64 valid"
{ rest 3 65; batch 3 66; } >>"$f"
expect whole-batch "● LIVE batch 4/4 step 3" "128 valid" "no warnings"

# [ moves to another batch: following pauses, the view stays there.
press '[' paused "paused, F follows · batch 3/4 step 2" "!LIVE"
batch 4 >>"$f"
expect paused-stays "paused, F follows · batch 3/5 step 2" "128 valid" "!LIVE"
# F shows the newest batch and follows again.
press F follow-again "● LIVE batch 5/5 step 4" "128 valid"
# ] on the newest batch goes nowhere: following goes on.
tmux send-keys -t "$target" ']'
steady next-at-newest 1 "● LIVE batch 5/5 step 4"
# On the Steps tab, the new batch takes its point.
press 6 steps-tab "[6 Steps]" "mean · ◆ step 4:" # the score's when the reward mean is 0 (pareto)
batch 6 >>"$f"
expect follow-next "● LIVE batch 6/6 step 6" "128 valid" "mean · ◆ step 6:"
press 1 rewards-tab "[1 Rewards]" "Summary of step 6"

# Log rotation: a new file takes the name; it is read again from the start.
{ batch 10; batch 11; } >"$f.new"
mv "$f.new" "$f"
expect rotated "● LIVE batch 2/2 step 11" "128 valid" "read again from the start: $f"
# Rewritten in place (the same file, another start, in one write).
{ batch 20; batch 21; batch 22; } | dd of="$f" conv=notrunc bs=1M iflag=fullblock status=none
expect rewritten "● LIVE batch 3/3 step 22" "128 valid" "read again from the start: $f"
# Cut short, at a line end: what is left is read again.
truncate -s "$(batch 20 | wc -c)" "$f"
expect shrunk "● LIVE batch 1/1 step 20" "128 valid" "read again from the start: $f"

# Deleted: reported, and what was loaded stays on screen.
rm "$f"
expect gone "$f is gone; what was loaded from it stays" "● LIVE batch 1/1 step 20" \
	"128 valid" "trajectories 128"
# Back (written whole, then moved in place): read again, no longer gone.
batch 31 >"$f.new"
mv "$f.new" "$f"
expect back "● LIVE batch 1/1 step 31" "128 valid" "read again from the start: $f" "!is gone"

press q quit "[exited 0]"

# --- Rotation through an empty file, as logrotate does it. ---------------
# copytruncate: the file is emptied, then written again; create: the file
# is moved away, a new empty one takes its name, then is written. Each in
# its own session. The empty file leaves nothing to show: its old lines
# stay on screen, said to be stale, until new ones replace them.
for mode in copytruncate create; do
	f=$mode.jsonl
	{ batch 0; batch 1; } >"$f"
	start "$mode" "$bin" --config "$config" -f "$f"
	expect "$mode-start" "● LIVE batch 2/2 step 1" "128 valid"
	if [[ $mode == create ]]; then
		mv "$f" "$f.1"
	fi
	: >"$f"
	expect "$mode-emptied" "$f emptied; its old lines stay" "● LIVE batch 2/2 step 1" "128 valid"
	steady "$mode-runs" 2 "$f emptied; its old lines stay" "!exited"
	# In one write, as the rotated file came: lines in two reads would
	# clear the reload's notice at the second (ui's noticeReloads).
	batch 2 | dd of="$f" oflag=append conv=notrunc bs=1M iflag=fullblock status=none
	expect "$mode-written" "● LIVE batch 1/1 step 2" "128 valid" "read again from the start: $f" "!emptied"
	press q "$mode-quit" "[exited 0]"
done

# --- stats --follow on a directory: one line per batch. -----------------
dir=run
mkdir "$dir"
{ batch 0; batch 1; } >"$dir/a.jsonl"
start stats "$bin" stats --config "$config" --follow "$dir"
expect stats-start "step 0  trajectories 128 (0 invalid)" "step 1  trajectories 128 (0 invalid)"
batch 2 1 100 >>"$dir/a.jsonl"
# Within the quiet time (1.5 s), the rest of the batch comes.
sleep 0.2
batch 2 101 >>"$dir/a.jsonl"
expect stats-append "step 2  trajectories 128 (0 invalid)"
# A new file in the directory.
batch 3 >"$dir/b.jsonl"
expect stats-new-file "step 3  trajectories 128 (0 invalid)"
if begin stats-once; then
	capture stats-once
	printed=$(grep -cE '^step [0-9]+ ' "$file" || true)
	if [[ $(grep -cE '^step [0-3]  trajectories 128 ' "$file") == 4 && $printed == 4 ]] &&
		! grep -q 'updated\|rewardlens:' "$file"; then
		verdict ok "one line per batch, 4 lines"
	else
		verdict fail "one line per batch: $printed lines"
	fi
fi
# Emptied and written again (copytruncate), and a file deleted: told on
# stderr, the new batch printed.
: >"$dir/a.jsonl"
batch 7 >>"$dir/a.jsonl"
expect stats-reread "rewardlens: $dir/a.jsonl: read again from the start" "step 7  trajectories 128 (0 invalid)"
rm "$dir/b.jsonl"
expect stats-gone "rewardlens: $dir/b.jsonl: gone; what was read from it stays"
press C-c stats-interrupted "[exited 0]"

echo "$checks checks: $((checks - failed - skipped)) passed, $failed failed, $skipped skipped (captures in $out)"
[[ $failed == 0 ]]
