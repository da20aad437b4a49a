#!/usr/bin/env bash
# bench-follow.sh measures how fast `stats --follow` digests a burst of
# lines, against `stats` reading the same lines, in one run: it starts
# `rewardlens stats --follow` on a file holding one batch, waits for that
# batch's line, then appends N lines (batches of BATCH, groups of 8, two
# objectives, from scripts/seed_pareto.py gen) in one write, and times
# from the append to the line of the burst's last step. So that this line
# is printed as soon as the burst is digested rather than after the quiet
# delay that ends the newest batch, one line of a later step follows the
# burst. Then it times `rewardlens stats` on the N lines (the whole
# process). Each binary given is measured ROUNDS times, the binaries
# interleaved round by round; it prints the medians, the throughput ratio
# (stats' time over the burst's: the bound of issue 26 is >= 0.67), and
# the peak RSS of both processes (VmHWM of the follower at the end of the
# burst; GNU time's maximum resident set size of stats).
#
#   scripts/bench-follow.sh [BIN...]     BIN: built rewardlens binaries (default: go build)
#   N=400000 BATCH=1024 ROUNDS=5 scripts/bench-follow.sh
#
# Needs /usr/bin/python3 (Debian's) and GNU time (/usr/bin/time).
set -euo pipefail

cd "$(dirname "$0")/.."
N=${N:-400000}
BATCH=${BATCH:-1024}
ROUNDS=${ROUNDS:-5}
py=/usr/bin/python3
for tool in "$py" /usr/bin/time; do
	if [[ ! -x $tool ]]; then
		echo "bench-follow.sh needs $tool" >&2
		exit 2
	fi
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/rewardlens-bench-follow.XXXXXX")
# The follower's output goes to a directory it does not watch: written
# next to the followed file, every line printed would be an event.
mkdir "$dir/out"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"' EXIT

bins=("$@")
if [[ ${#bins[@]} -eq 0 ]]; then
	go build -o "$dir/rewardlens" .
	bins=("$dir/rewardlens")
fi

# The data: the first batch (step 0, already in the followed file), the
# burst (steps 1 to K) and the line of step K+1 that closes step K.
"$py" scripts/seed_pareto.py gen --n $((N + BATCH + 1)) --m 2 --group-size 8 "$dir/raw.jsonl" >/dev/null
"$py" - "$dir" "$N" "$BATCH" <<'EOF'
import sys
d, n, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first, burst, closing = (open(f"{d}/{name}.jsonl", "w") for name in ("first", "burst", "closing"))
for i, line in enumerate(open(f"{d}/raw.jsonl")):
    if i < batch:
        out, step = first, 0
    elif i < batch + n:
        out, step = burst, (i - batch) // batch + 1
    else:
        out, step = closing, (n + batch - 1) // batch + 1
    out.write(line.replace('"batch": 0,', f'"batch": {step},', 1))
EOF
last=$(((N + BATCH - 1) / BATCH))
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "burst: $N lines ($(du -h "$dir/burst.jsonl" | cut -f1)), steps 1 to $last of $BATCH lines; $ROUNDS rounds"

now() { date +%s%N; }

# await FILE PATTERN: polls FILE until a line matches PATTERN.
await() {
	local deadline=$(($(now) + 600000000000))
	until grep -q "$2" "$1"; do
		if (($(now) > deadline)); then
			echo "bench-follow.sh: no line $2 in $1 after 600 s" >&2
			exit 1
		fi
		sleep 0.005
	done
}

# cpu PID: prints the CPU time of process PID so far in ms (user and
# system, in clock ticks).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"; }

# burst BIN: prints the burst's time in ms, the follower's peak RSS in kB
# and its CPU time over the burst in ms.
burst() {
	cp "$dir/first.jsonl" "$dir/run.jsonl"
	: >"$dir/out/out.txt"
	"$1" stats --follow "$dir/run.jsonl" >"$dir/out/out.txt" 2>"$dir/out/err.txt" &
	local pid=$!
	pids+=("$pid")
	await "$dir/out/out.txt" '^step 0 '
	local t0 t1 c0 c1
	c0=$(cpu "$pid")
	t0=$(now)
	cat "$dir/burst.jsonl" "$dir/closing.jsonl" >>"$dir/run.jsonl"
	await "$dir/out/out.txt" "^step $last "
	t1=$(now)
	c1=$(cpu "$pid")
	local rss
	rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
	kill "$pid"
	wait "$pid" || true
	echo "$(((t1 - t0) / 1000000)) $rss $((c1 - c0))"
}

# stats BIN: prints stats' time in ms, its peak RSS in kB and its CPU
# time in ms.
stats() {
	/usr/bin/time -f '%e %M %U %S' -o "$dir/time.txt" "$1" stats "$dir/burst.jsonl" >/dev/null
	awk '{printf "%d %d %d\n", $1 * 1000, $2, ($3 + $4) * 1000}' "$dir/time.txt"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for r in $(seq "$ROUNDS"); do
	for i in "${!bins[@]}"; do
		read -r ms rss cpums < <(burst "${bins[$i]}")
		echo "$ms $rss $cpums" >>"$dir/burst.$i"
		read -r ms rss cpums < <(stats "${bins[$i]}")
		echo "$ms $rss $cpums" >>"$dir/stats.$i"
		echo "round $r ${bins[$i]}: burst $(tail -1 "$dir/burst.$i" | cut -d' ' -f1) ms, stats $ms ms" >&2
	done
done

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-40s %10s %10s %8s %12s %12s %9s %14s %14s\n' binary "burst ms" "stats ms" ratio "burst CPU ms" "stats CPU ms" "CPU ratio" "burst RSS MiB" "stats RSS MiB"
for i in "${!bins[@]}"; do
	b=$(cut -d' ' -f1 "$dir/burst.$i" | median)
	s=$(cut -d' ' -f1 "$dir/stats.$i" | median)
	br=$(cut -d' ' -f2 "$dir/burst.$i" | median)
	sr=$(cut -d' ' -f2 "$dir/stats.$i" | median)
	bc=$(cut -d' ' -f3 "$dir/burst.$i" | median)
	sc=$(cut -d' ' -f3 "$dir/stats.$i" | median)
	awk -v n="${bins[$i]}" -v b="$b" -v s="$s" -v br="$br" -v sr="$sr" -v bc="$bc" -v sc="$sc" \
		'BEGIN {printf "%-40s %10d %10d %8.2f %12d %12d %9.2f %14d %14d\n", n, b, s, s / b, bc, sc, sc / bc, br / 1024, sr / 1024}'
done
