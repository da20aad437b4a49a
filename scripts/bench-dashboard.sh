#!/usr/bin/env bash
# bench-dashboard.sh measures the dashboard as a person meets it, against
# `rewardlens compute` on the same file in the same run (issue 15): the
# real binary in a detached tmux session of 140x45, keys sent with
# send-keys, the screen read with capture-pane.
#
# Each round runs, interleaved:
#   - `rewardlens compute --out FILE` on the input, timed (whole process);
#   - the dashboard on the input: the time from its start to the first full
#     frame (the header naming the method and the Rewards tab's statistics),
#     its VmRSS then (/proc/PID/status) and once the health badge stopped
#     updating; then SWITCHES presses of m, each timed from send-keys to
#     the header naming the next method (waiting for the badge to settle
#     between presses), and its VmRSS after the last.
# It prints every measurement, then the medians and the ratios to
# compute's median: first frame / compute, switch / compute, RSS after
# the switches / RSS at the first frame.
#
#   scripts/bench-dashboard.sh FILE [BIN]           (3 rounds, 14 switches)
#   ROUNDS=5 SWITCHES=14 BIN=/tmp/rewardlens scripts/bench-dashboard.sh FILE
#
# BIN is a built rewardlens (else $BIN, else go build). The next method is
# the one the header names after m, whichever the binary cycles to (the
# methods the input's options can compute): each round prints the cycle
# it saw. Its tmux server is its own (tmux -L), beside any other.
#   TAB=2 SHOWS='sorted by' scripts/bench-dashboard.sh FILE
#
# With TAB, the switches are pressed on that tab (its key), once the screen
# shows SHOWS (an extended regular expression): the Groups tab above, or
# TAB=4 SHOWS='Pareto ranks' (issue 13's bounds are on those two tabs).
#
# With VISITS (a list of tab keys, or "all" for 2..8), each round instead
# opens a fresh dashboard for every tab listed, and times, once the first
# frame's badge settled, the first visit of that tab (its key pressed, to
# its content shown: the tab's pattern below, with no "computing" left on
# screen), then SWITCHES (3 by default) presses of m on it, each to the
# header naming the next method and the tab's content shown again. A tab
# that fills some of its content in after (the Compare tab's rank
# statistics, "ranking…") is also timed to that: "complete". It prints
# the medians per tab and their ratios to compute's median:
#
#   VISITS=all ROUNDS=3 scripts/bench-dashboard.sh FILE
#   VISITS='5 7' SWITCHES=5 scripts/bench-dashboard.sh FILE
#
# With EARLY=1, the visit's key is pressed as soon as the first frame is
# drawn, before the badge settles (what the dashboard computes once idle,
# such as the Compare tab's prefetch, has not run yet); the switches still
# wait for it. With AFTER=SECONDS too, it is pressed that long after the
# first frame (EARLY=1 AFTER=0.3: while the first health and the
# prefetches run).
#
# Make FILE with: python3 scripts/seed_pareto.py gen --n 1000000 --m 3 \
#   --group-size 8 /tmp/big1m3.jsonl
# The machine should be otherwise idle (check top): these are wall times.
set -euo pipefail

cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: scripts/bench-dashboard.sh FILE [BIN]" >&2
	exit 2
fi
input=$(realpath "$1")
rounds=${ROUNDS:-3}
switches=${SWITCHES:-14}
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
need_tmux bench-dashboard.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-bench.XXXXXX")
use_bin "$work" "${2:-}"
own_tmux bench
session="rewardlens-bench-$$"
trap 'end_tmux; rm -rf "$work"' EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }
screen() { tmux capture-pane -p -t "$session"; }
rss_mib() { awk '/^VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }

# wait_for PATTERN [TIMEOUT_S [ABSENT]]: polls the screen every 5 ms until
# a line matches the extended regular expression PATTERN (and, with
# ABSENT, no line matches that one); fails after TIMEOUT_S (60). The
# pause matters: polling without one keeps tmux and the shell busy on a
# core of their own, which a 2-core machine takes from the dashboard, not
# from compute.
wait_for() {
	local deadline=$(($(now_ms) + ${2:-60} * 1000))
	local shown
	while :; do
		shown=$(screen)
		if grep -qE -- "$1" <<<"$shown" && { [ -z "${3:-}" ] || ! grep -qE -- "$3" <<<"$shown"; }; then
			break
		fi
		if [ "$(now_ms)" -gt "$deadline" ]; then
			echo "timed out waiting for /$1/; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.005
	done
}

# settle waits until the header's health badge is no longer updating.
settle() {
	local deadline=$(($(now_ms) + 180000))
	while screen | head -1 | grep -q "updating"; do
		if [ "$(now_ms)" -gt "$deadline" ]; then
			echo "the badge kept updating for 180 s; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.02
	done
}

# header_method prints the method the header names ("method: NAME ").
header_method() { screen | head -1 | sed -nE 's/.*method: ([a-z-]+) .*/\1/p'; }

# wait_method_other_than NAME: polls the header as wait_for does until it
# names a method other than NAME, and prints that one; fails after 60 s.
wait_method_other_than() {
	local deadline=$(($(now_ms) + 60000))
	local shown
	while :; do
		shown=$(header_method)
		if [ -n "$shown" ] && [ "$shown" != "$1" ]; then
			echo "$shown"
			return
		fi
		if [ "$(now_ms)" -gt "$deadline" ]; then
			echo "timed out waiting for a method other than $1 after m; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.005
	done
}

# time_switches N [SHOWS [PENDING]]: presses m N times, from the method
# shown, each timed from send-keys to the header naming the next method
# (and, with SHOWS, to the tab's content shown with nothing computing;
# with PENDING, then to nothing pending), the badge settled between
# presses; the times go to round_switches and round_completes, the
# methods to round_methods.
time_switches() {
	local method
	method=$(header_method)
	round_switches=()
	round_completes=()
	round_methods=("$method")
	for _ in $(seq "$1"); do
		sleep 0.2
		start=$(now_ms)
		tmux send-keys -t "$session" m
		method=$(wait_method_other_than "$method")
		round_methods+=("$method")
		[ -z "${2:-}" ] || wait_for "$2" 60 "$computing"
		round_switches+=($(($(now_ms) - start)))
		if [ -n "${3:-}" ]; then
			wait_for "$2" 60 "$3"
			round_completes+=($(($(now_ms) - start)))
		fi
		settle
	done
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# What each tab shows once its content is drawn, by its key (VISITS).
declare -A shows=(
	[2]='groups · sorted by'
	[3]='Pearson correlation'
	[4]='Pareto ranks'
	[5]='trajectories · (sorted by|order (of|kept from))' # a switch keeps the order: "order kept from pareto ▼ (s sorts)"
	[6]='(reward|score) mean ·' # the score's when the reward mean is 0 (pareto)
	[7]='rank agreement'
	[8]='prompts .* · by'
)
computing='computing…'
# What a tab shows until its content is complete, by its key.
declare -A pending=(
	[7]='ranking…|counting…'
)

# start_dashboard starts the dashboard and waits for its first frame and,
# unless EARLY, its badge to settle.
start_dashboard() {
	tmux new-session -d -s "$session" -x 140 -y 45 "$bin $input"
	wait_for "method: pareto .*" 120
	wait_for "frac_zero_std_groups" 120
	[ -n "${EARLY:-}" ] || settle
}

stop_dashboard() {
	tmux send-keys -t "$session" q
	sleep 0.3
	tmux kill-session -t "$session" 2>/dev/null || true
}

if [ -n "${VISITS:-}" ]; then
	tabs=$VISITS
	[ "$tabs" = all ] && tabs="2 3 4 5 6 7 8"
	switches=${SWITCHES:-3}
	declare -a compute_ms
	declare -A visit_ms switch_ms complete_ms switch_complete_ms
	echo "input: $input ($(du -h "$input" | cut -f1)); binary: $bin; $rounds rounds; tabs $tabs, $switches switches on each${EARLY:+; each visit as soon as the first frame is drawn}"
	for r in $(seq "$rounds"); do
		start=$(now_ms)
		"$bin" compute --out "$work/rewards.jsonl" "$input" 2>/dev/null
		compute_ms+=($(($(now_ms) - start)))
		line="round $r: compute ${compute_ms[-1]} ms, load $(cut -d' ' -f1 /proc/loadavg);"
		for t in $tabs; do
			start_dashboard
			[ -n "${EARLY:-}" ] || sleep 0.2
			[ -z "${AFTER:-}" ] || sleep "$AFTER"
			start=$(now_ms)
			tmux send-keys -t "$session" "$t"
			wait_for "${shows[$t]}" 120 "$computing"
			v=$(($(now_ms) - start))
			visit_ms[$t]+="$v "
			cv=
			if [ -n "${pending[$t]:-}" ]; then
				wait_for "${shows[$t]}" 120 "${pending[$t]}"
				cv=$(($(now_ms) - start))
				complete_ms[$t]+="$cv "
			fi
			settle
			time_switches "$switches" "${shows[$t]}" "${pending[$t]:-}"
			switch_ms[$t]+="${round_switches[*]} "
			switch_complete_ms[$t]+="${round_completes[*]:-} "
			stop_dashboard
			line+=" tab $t: visit $v, switches ${round_switches[*]} (${round_methods[*]})"
			[ -z "${pending[$t]:-}" ] || line+=" (complete: visit $cv, switches ${round_completes[*]})"
			line+=";"
		done
		echo "$line ms"
	done
	c=$(printf '%s\n' "${compute_ms[@]}" | median)
	echo "median compute $c ms"
	echo "tab  first visit ms  /compute  switch ms  /compute  (bound 0.15)"
	for t in $tabs; do
		v=$(printf '%s\n' ${visit_ms[$t]} | median)
		s=$(printf '%s\n' ${switch_ms[$t]} | median)
		awk -v t="$t" -v c="$c" -v v="$v" -v s="$s" 'BEGIN { printf "%-4s %14d  %8.3f  %9d  %8.3f\n", t, v, v / c, s, s / c }'
	done
	for t in $tabs; do
		[ -n "${pending[$t]:-}" ] || continue
		v=$(printf '%s\n' ${complete_ms[$t]} | median)
		s=$(printf '%s\n' ${switch_complete_ms[$t]} | median)
		awk -v t="$t" -v c="$c" -v v="$v" -v s="$s" 'BEGIN { printf "%-4s complete: visit %d ms (%.3f), switch %d ms (%.3f)\n", t, v, v / c, s, s / c }'
	done
	exit 0
fi

declare -a compute_ms frame_ms frame_rss settled_rss switch_ms end_rss
echo "input: $input ($(du -h "$input" | cut -f1)); binary: $bin; $rounds rounds of $switches switches${TAB:+ on tab $TAB}"
for r in $(seq "$rounds"); do
	start=$(now_ms)
	"$bin" compute --out "$work/rewards.jsonl" "$input" 2>/dev/null
	compute_ms+=($(($(now_ms) - start)))

	start=$(now_ms)
	tmux new-session -d -s "$session" -x 140 -y 45 "$bin $input"
	wait_for "method: pareto .*" 120
	wait_for "frac_zero_std_groups" 120
	frame_ms+=($(($(now_ms) - start)))
	pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
	frame_rss+=("$(rss_mib "$pid")")
	settle
	settled_rss+=("$(rss_mib "$pid")")
	if [ -n "${TAB:-}" ]; then
		tmux send-keys -t "$session" "$TAB"
		wait_for "${SHOWS:?SHOWS: what tab $TAB shows}" 120
		settle
	fi

	time_switches "$switches"
	switch_ms+=("${round_switches[@]}")
	end_rss+=("$(rss_mib "$pid")")
	tmux send-keys -t "$session" q
	sleep 0.3
	tmux kill-session -t "$session" 2>/dev/null || true
	echo "round $r: compute ${compute_ms[-1]} ms; first frame ${frame_ms[-1]} ms at ${frame_rss[-1]} MiB" \
		"(${settled_rss[-1]} MiB settled); switches ${round_switches[*]} ms (${round_methods[*]}); ${end_rss[-1]} MiB after them"
done

c=$(printf '%s\n' "${compute_ms[@]}" | median)
f=$(printf '%s\n' "${frame_ms[@]}" | median)
s=$(printf '%s\n' "${switch_ms[@]}" | median)
fr=$(printf '%s\n' "${frame_rss[@]}" | median)
sr=$(printf '%s\n' "${settled_rss[@]}" | median)
er=$(printf '%s\n' "${end_rss[@]}" | median)
echo "medians: compute $c ms; first frame $f ms; switch $s ms (of ${#switch_ms[@]});" \
	"RSS $fr MiB at the first frame, $sr MiB settled, $er MiB after $switches switches"
awk -v c="$c" -v f="$f" -v s="$s" -v fr="$fr" -v er="$er" 'BEGIN {
	printf "first frame / compute = %.2f (bound 1.5); switch / compute = %.3f (bound 0.1); RSS after / at first frame = %.2f (bound 1.15)\n", f / c, s / c, er / fr
}'
