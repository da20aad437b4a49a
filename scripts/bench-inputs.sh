#!/bin/sh
# bench-inputs.sh: `rewardlens compute --out FILE` on the same trajectories
# in each input format (issue 26's input bounds), against JSONL in the same
# run: the median wall time, CPU time (user and system) and peak RSS of
# RUNS runs of each, and their ratios to JSONL's. On a machine others
# share, CPU time moves less than wall time from run to run. The outputs must be the same file for every format.
#
#   scripts/bench-inputs.sh              1M x 2 in groups of 8, 5 runs
#   N=100000 RUNS=3 scripts/bench-inputs.sh
#   BIN=/tmp/rewardlens scripts/bench-inputs.sh   that binary (default: go build)
#   GENFLAGS='-parquet-flat -parquet-row-group 1048576' scripts/bench-inputs.sh
#
# GENFLAGS go to scripts/geninputs: the second line writes the Parquet
# file as pandas' to_parquet does through pyarrow (flat columns, one row
# group of up to 1Mi rows).
#
# Bounds: Parquet <= 1.5x JSONL's time and peak RSS, CSV <= 1.5x, a JSON
# array <= 2x. The data and binaries go to $DIR (default a temporary
# directory, removed at the end).
set -eu
N=${N:-1000000}
M=${M:-2}
RUNS=${RUNS:-5}
cd "$(dirname "$0")/.."
tmp=${DIR:-$(mktemp -d)}
[ -n "${DIR:-}" ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
use_bin "$tmp"
go build -o "$tmp/geninputs" ./scripts/geninputs
# shellcheck disable=SC2086 # GENFLAGS is a list of flags
"$tmp/geninputs" -n "$N" -m "$M" ${GENFLAGS:-} "$tmp"
gzip -c "$tmp/in.jsonl" >"$tmp/in.jsonl.gz"
ls -l "$tmp"/in.*

# median of the numbers on standard input
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
formats="jsonl csv json parquet jsonl.gz"
for f in $formats; do rm -f "$tmp/wall.$f" "$tmp/cpu.$f" "$tmp/rss.$f"; done
for i in $(seq "$RUNS"); do
	for f in $formats; do # interleaved: a slower minute weighs on every format
		# The output is JSONL from every format (--out refuses a Parquet
		# or compressed name).
		/usr/bin/time -v "$bin" compute --out "$tmp/out.$f.jsonl" "$tmp/in.$f" 2>"$tmp/time.$f" >/dev/null ||
			{ cat "$tmp/time.$f" >&2; exit 1; }
		awk -F': ' '/Elapsed/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$tmp/time.$f" >>"$tmp/wall.$f"
		awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$tmp/time.$f" >>"$tmp/cpu.$f"
		awk -F': ' '/Maximum resident/ { print $2 / 1024 }' "$tmp/time.$f" >>"$tmp/rss.$f"
	done
done
for f in $formats; do
	cmp -s "$tmp/out.jsonl.jsonl" "$tmp/out.$f.jsonl" || { echo "in.$f: its output differs from JSONL's" >&2; exit 1; }
done

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
base_wall=$(median <"$tmp/wall.jsonl")
base_cpu=$(median <"$tmp/cpu.jsonl")
base_rss=$(median <"$tmp/rss.jsonl")
printf '%-9s %9s %7s %9s %7s %9s %7s   (%s rows x %s, median of %s)\n' format wall ratio cpu ratio 'peak MB' ratio "$N" "$M" "$RUNS"
for f in $formats; do
	wall=$(median <"$tmp/wall.$f")
	cpu=$(median <"$tmp/cpu.$f")
	rss=$(median <"$tmp/rss.$f")
	printf '%-9s %8.2fs %6.2fx %8.2fs %6.2fx %9.0f %6.2fx\n' "$f" "$wall" "$(echo "$wall $base_wall" | awk '{ print $1 / $2 }')" \
		"$cpu" "$(echo "$cpu $base_cpu" | awk '{ print $1 / $2 }')" \
		"$rss" "$(echo "$rss $base_rss" | awk '{ print $1 / $2 }')"
done
