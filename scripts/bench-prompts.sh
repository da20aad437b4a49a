#!/usr/bin/env bash
# bench-prompts.sh times `rewardlens prompts` against `rewardlens compute`
# on the same input (issue 24: prompts at most 1.5x compute on 1M
# trajectories over 500 steps). It writes N trajectories (1M by default)
# over STEPS steps (500), groups of 8, each step asking 1/8 of its rows'
# worth of prompts drawn from PROMPTS distinct ones (2,000), whose
# difficulty drifts over the steps, in two layouts:
#
#   plain  rewardlens records: group = the prompt, objectives accuracy and
#          length; prompts' defaults (the group, the first objective)
#          read nothing more of the records
#   verl   verl rollout dumps (input, output, score, step, acc): prompt =
#          input, task metric acc, an expression read from every record
#
# and runs, REPEAT times each (3), compute --out and prompts --out, then
# prints the median wall time and peak RSS of each and the ratio.
#
#   scripts/bench-prompts.sh
#   N=100000 REPEAT=1 scripts/bench-prompts.sh     a quick look
#   KEEP=1 scripts/bench-prompts.sh                keep the files
#   BIN=/tmp/rewardlens scripts/bench-prompts.sh   that binary (default: go build)
set -euo pipefail

cd "$(dirname "$0")/.."
n=${N:-1000000}
steps=${STEPS:-500}
prompts=${PROMPTS:-2000}
repeat=${REPEAT:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-prompts.XXXXXX")
if [[ ${KEEP:-0} != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
use_bin "$dir"

# gen LAYOUT FILE writes the input.
gen() {
	awk -v n="$n" -v steps="$steps" -v prompts="$prompts" -v layout="$1" 'BEGIN {
		srand(24)
		per = int(n / steps)
		for (i = 0; i < n; i++) {
			s = int(i / per); g = int(i / 8)
			p = (g * 7919) % prompts
			# a prompt gets easier as training goes, from its own start
			rate = (p % 10) / 10 + s / steps * 0.5
			acc = rand() < rate ? 1 : 0
			len = 100 + int(rand() * 900)
			if (layout == "plain")
				printf "{\"id\":\"%d\",\"batch\":%d,\"group\":\"prompt %05d\",\"metadata\":{\"accuracy\":%d,\"length\":%d}}\n", i, s, p, acc, len
			else
				printf "{\"input\":\"user: question %05d\\nassistant:\",\"output\":\"answer of %d tokens\",\"score\":%s,\"step\":%d,\"acc\":%s}\n", p, len, acc ? "1.0" : "-1.0", s, acc ? "true" : "false"
		}
	}' >"$2"
}

# measure NAME ARGS... runs the command REPEAT times, printing the median
# wall time and peak RSS.
measure() {
	local name=$1
	shift
	local times=() rss=()
	for _ in $(seq "$repeat"); do
		local out
		/usr/bin/time -o "$dir/time" -f '%e %M' "$@" >/dev/null 2>&1
		out=$(tail -1 "$dir/time")
		times+=("${out% *}")
		rss+=("${out#* }")
	done
	local t m
	t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((repeat + 1) / 2))p")
	m=$(printf '%s\n' "${rss[@]}" | sort -n | sed -n "$(((repeat + 1) / 2))p")
	echo "$name $t $m"
}

for layout in plain verl; do
	file=$dir/$layout.jsonl
	gen "$layout" "$file"
	echo "$layout: $(wc -l <"$file") lines, $(($(stat -c %s "$file") >> 20)) MiB"
	c=$(measure compute "$bin" compute --out "$dir/rewards.jsonl" "$file")
	p=$(measure prompts "$bin" prompts --out "$dir/prompts.jsonl" "$file")
	echo "  compute: ${c#compute } (s, KiB)"
	echo "  prompts: ${p#prompts } (s, KiB), $(wc -l <"$dir/prompts.jsonl") prompts"
	ct=$(echo "$c" | cut -d' ' -f2)
	pt=$(echo "$p" | cut -d' ' -f2)
	echo "  prompts / compute: $(awk -v a="$pt" -v b="$ct" 'BEGIN { printf "%.2f", a / b }')"
done
