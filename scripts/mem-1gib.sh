#!/usr/bin/env bash
# mem-1gib.sh measures the dashboard's memory on a large input (issue 5,
# "Large inputs stream"). It writes a JSONL file of N trajectories (1M by
# default, about 1 GiB: a response of about 900 bytes and six metadata
# keys each, batches of 1,024, groups of 8), then loads it REPEAT times
# per mode, each time in a process of its own, as the dashboard's loading
# screen does (ui's TestMemLoad), and prints each run's peak resident set
# size, the heap the session keeps once loaded, and the time:
#
#   load    Input.Load (loaders.Load: every trajectory whole), evaluation,
#           then the session keeps the trajectories lean
#   stream  Input.Stream (loaders.Stream): trajectories evaluated and made
#           lean as they are read
#   follow  Input.Follow (loaders.Follow, rewardlens -f): its first reading,
#           streamed as for stream
#
# With BEFORE=<commit>, it also measures the modes BEFORE_MODES ("load"
# by default) at that commit (extracted with git archive, which leaves the
# repository as it is), with that commit's TestMemLoad, or this one when
# it has none.
#
#   scripts/mem-1gib.sh                       1M trajectories, 3 runs each
#   BEFORE=6f27939 BEFORE_MODES="load stream" scripts/mem-1gib.sh
#                                             and the commit before follow
#                                             streamed
#   N=100000 REPEAT=1 scripts/mem-1gib.sh     a quick look
#   FILE=/tmp/big.jsonl KEEP=1 ...            keep or reuse the file
#
# Everything goes to a temporary directory, removed at the end unless
# KEEP=1; a FILE given that exists is used as it is.
set -euo pipefail

cd "$(dirname "$0")/.."
n=${N:-1000000}
repeat=${REPEAT:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/mem-1gib.XXXXXX")
if [[ ${KEEP:-0} != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
file=${FILE:-$dir/big.jsonl}

if [[ ! -s $file ]]; then
	awk -v n="$n" 'BEGIN {
		srand(5)
		s = "The model reasons step by step about the problem and checks each claim. "
		body = ""
		for (k = 0; k < 12; k++) body = body s
		for (i = 0; i < n; i++) {
			b = int(i / 1024); g = int(i / 8)
			printf "{\"id\":\"s%d-p%06d-c%d\",\"batch\":%d,\"group\":\"p%06d\",\"step_count\":%d,\"done\":true,\"response\":\"%sThe answer is %d.\",\"metadata\":{\"accuracy\":%d,\"safety\":%.3f,\"response_length\":%d,\"verify_cost\":%.4f,\"judge\":\"%s\",\"format_ok\":%s}}\n",
				b, g, i % 8, b, g, int(rand() * 12), body, int(rand() * 100),
				int(rand() * 2), rand(), 100 + int(rand() * 900), rand(),
				(rand() < 0.5 ? "pass" : "fail"), (rand() < 0.9 ? "true" : "false")
		}
	}' >"$file"
fi
echo "$file: $(wc -l <"$file") lines, $(($(stat -c %s "$file") >> 20)) MiB"

go test -c -o "$dir/after.test" ./ui
runs=("after.test load" "after.test stream" "after.test follow")
if [[ -n ${BEFORE:-} ]]; then
	mkdir "$dir/before"
	git archive "$BEFORE" | tar -x -C "$dir/before"
	if [[ ! -e $dir/before/ui/mem_test.go ]]; then
		cp ui/mem_test.go "$dir/before/ui/"
	fi
	(cd "$dir/before" && go test -c -o "$dir/before.test" ./ui)
	before=()
	for mode in ${BEFORE_MODES:-load}; do
		before+=("before.test $mode")
	done
	runs=("${before[@]}" "${runs[@]}")
fi

for ((i = 1; i <= repeat; i++)); do
	for run in "${runs[@]}"; do
		read -r bin mode <<<"$run"
		printf '%-12s' "${bin%.test}"
		REWARDLENS_MEM_FILE=$file REWARDLENS_MEM_MODE=$mode "$dir/$bin" -test.run '^TestMemLoad$' | grep '^mode='
	done
done
