#!/usr/bin/env bash
# bench-vs-seed.sh runs the seed design's Pareto ranking (plain numpy, see
# scripts/seed_pareto.py) and the whole `rewardlens compute` process on the
# same generated file, and prints both times and their ratio.
#
#   scripts/bench-vs-seed.sh            100k x 3 (the issue's row), median of 3
#   scripts/bench-vs-seed.sh --quick    20k x 3, median of 3
#   REPEAT=5 N=50000 M=2 scripts/bench-vs-seed.sh
#   BIN=/tmp/rewardlens scripts/bench-vs-seed.sh   that binary (default: go build)
#
# It installs nothing. It needs Go and a python3 with numpy: Debian's
# python3-numpy (apt-get install -y python3-numpy), used through
# /usr/bin/python3; set PYTHON to use another interpreter. The files and
# the binary go to a temporary directory (BENCH_DIR to choose it), removed
# at the end unless KEEP=1.
#
# The seed times only its ranking (reading the file is not counted);
# rewardlens is timed as a whole process: start, read, parse, evaluate,
# rank, reward, write the output file. All points are one comparison group,
# so both rank the same N points. The ranks are compared: the script fails
# if they differ.
set -euo pipefail

cd "$(dirname "$0")/.."
n=${N:-100000}
m=${M:-3}
repeat=${REPEAT:-3}
if [[ ${1:-} == --quick ]]; then
	n=20000
fi

python=${PYTHON:-}
if [[ -z $python ]]; then
	for p in /usr/bin/python3 python3; do
		if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then
			python=$p
			break
		fi
	done
fi
if [[ -z $python ]] || ! "$python" -c 'import numpy' 2>/dev/null; then
	echo "bench-vs-seed: needs python3 with numpy: apt-get install -y python3-numpy (then /usr/bin/python3 has it), or set PYTHON" >&2
	exit 1
fi

dir=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-seed.XXXXXX")}
mkdir -p "$dir"
if [[ ${KEEP:-0} != 1 && -z ${BENCH_DIR:-} ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
use_bin "$dir"

data=$dir/seed-${n}x${m}.jsonl
out=$dir/rewards-${n}x${m}.jsonl
seed=scripts/seed_pareto.py
echo "machine: $(nproc) cores, $(uname -m), $(go version | cut -d' ' -f3), numpy $("$python" -c 'import numpy; print(numpy.__version__)')"
echo "data: $n trajectories x $m uniform objectives, one group ($data)"
"$python" "$seed" gen --n "$n" --m "$m" "$data"
# The file just written is still being written back to disk, and the first
# run of a new binary pays for loading it: one run, not timed, after a sync.
sync
"$bin" compute --out "$out" "$data"

"$python" "$seed" time --repeat "$repeat" -- "$bin" compute --out "$out" "$data" | tee "$dir/process.txt"
"$python" "$seed" rank --repeat "$repeat" --check "$out" "$data" | tee "$dir/seed.txt"

process=$(sed -n 's/^PROCESS_SECONDS=//p' "$dir/process.txt")
seedtime=$(sed -n 's/^SEED_SECONDS=//p' "$dir/seed.txt")
"$python" - "$seedtime" "$process" "$n" "$m" <<'EOF'
import sys
seed, proc, n, m = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
print(f"{n} x {m}: seed ranking alone {seed:.3f} s, rewardlens compute (whole process) {proc:.3f} s: {seed / proc:.1f}x faster")
EOF
