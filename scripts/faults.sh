#!/usr/bin/env bash
# faults.sh replays issue 27's faults (a long ID, layout recognition
# without bounds, a corrupt Parquet file, a Parquet row bomb, many inferred
# objectives, blank lines, the record bound's memory) against the
# rewardlens binary of this tree, and prints for each run its exit status,
# peak resident set size (/usr/bin/time -v) and time, beside a reference
# run in the same conditions (a plain run, wc -l, or a smaller case), and
# their ratio. A run is stopped after LIMIT seconds (60) and at CAP MiB of
# memory (4096, ulimit -v of twice that: Go reserves address space), so
# that the machine survives the bombs.
#
#   scripts/faults.sh                      this tree
#   BIN=/tmp/rewardlens scripts/faults.sh  that binary in its place
#   BEFORE=f10365a scripts/faults.sh       and that commit, for comparison
#   ONLY="blank bomb" scripts/faults.sh    some cases (see the list below)
#
# Cases: longid peekline blank parquetbomb corrupt objectives bound.
# Files go to a temporary directory, removed at the end unless KEEP=1.
set -euo pipefail

cd "$(dirname "$0")/.."
limit=${LIMIT:-60}
cap=${CAP:-4096}
dir=$(mktemp -d "${TMPDIR:-/tmp}/faults.XXXXXX")
if [[ ${KEEP:-0} != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
only=${ONLY:-longid peekline blank parquetbomb corrupt objectives bound}
python=/usr/bin/python3

if [[ -n ${BIN:-} ]]; then
	ln -s "$(realpath "$BIN")" "$dir/after"
else
	go build -o "$dir/after" .
fi
go build -o "$dir/faultfiles" ./scripts/faultfiles
bins=(after)
if [[ -n ${BEFORE:-} ]]; then
	mkdir "$dir/before-src"
	git archive "$BEFORE" | tar -x -C "$dir/before-src"
	(cd "$dir/before-src" && go build -o "$dir/before" .)
	bins=(before after)
fi

# measure NAME CMD...: runs CMD under the limits and prints NAME, the
# exit status, the peak RSS in MiB and the seconds; sets rss and secs.
measure() {
	local name=$1
	shift
	local out="$dir/time.out" status
	set +e
	(ulimit -v $((cap * 2048)) && /usr/bin/time -v -o "$out" timeout -k 5 "$limit" "$@" >"$dir/stdout" 2>"$dir/stderr")
	status=$?
	set -e
	rss=$(awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$out" 2>/dev/null || echo 0)
	secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$out" 2>/dev/null || echo 0)
	[[ -n $rss ]] || rss=0
	[[ -n $secs ]] || secs=0
	if [[ $status == 124 ]]; then
		secs=">$limit"
	fi
	printf '  %-44s status %3s  %6s MiB  %7s s  %s\n' "$name" "$status" "$rss" "$secs" "$(head -c 110 "$dir/stderr" | tr '\n' ' ' | tr -d '\033')"
}

# ratio A B: A/B with two decimals, "-" when either is not a number.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'
}

has() { [[ " $only " == *" $1 "* ]]; }

if has longid; then
	echo "== 1. a 4 MB ID on the second of two lines (compute), against a 4 MB response"
	$python -c "print('{\"id\":\"a\",\"metadata\":{\"a\":1}}'); print('{\"id\":\"'+'x'*(4<<20)+'\",\"metadata\":{\"a\":2}}')" >"$dir/longid.jsonl"
	$python -c "print('{\"id\":\"a\",\"metadata\":{\"a\":1}}'); print('{\"id\":\"b\",\"response\":\"'+'x'*(4<<20)+'\",\"metadata\":{\"a\":2}}')" >"$dir/longresp.jsonl"
	for b in "${bins[@]}"; do
		measure "$b: compute, long response (reference)" "$dir/$b" compute "$dir/longresp.jsonl"
		ref=$rss
		measure "$b: compute, long ID" "$dir/$b" compute "$dir/longid.jsonl"
		echo "    RSS ratio to the reference: $(ratio "$rss" "$ref")"
	done
fi

if has peekline; then
	echo "== 2. a 300 MiB first line, --max-record-bytes 1MiB: recognition (auto) against --from plain"
	$python -c "
import sys
sys.stdout.write('{\"id\":\"'+'x'*(300<<20)+'\",\"metadata\":{\"a\":1}}\n{\"id\":\"b\",\"metadata\":{\"a\":2}}\n')" >"$dir/longline.jsonl"
	for b in "${bins[@]}"; do
		measure "$b: stats --from plain" "$dir/$b" stats --from plain --max-record-bytes 1MiB "$dir/longline.jsonl"
		ref=$rss
		measure "$b: stats (auto)" "$dir/$b" stats --max-record-bytes 1MiB "$dir/longline.jsonl"
		echo "    RSS ratio to --from plain: $(ratio "$rss" "$ref")"
	done
fi

if has blank; then
	echo "== 2, 8. 1 GiB of blank lines, then a record: plain and gzipped, against wc -l and zcat | wc -l"
	head -c $((1 << 30)) /dev/zero | tr '\0' '\n' >"$dir/blank.jsonl"
	echo '{"id":"a","metadata":{"a":1}}' >>"$dir/blank.jsonl"
	gzip -1 -c "$dir/blank.jsonl" >"$dir/blank.jsonl.gz"
	measure "wc -l (reference)" wc -l "$dir/blank.jsonl"
	ref=$secs
	measure "zcat | wc -l (reference)" sh -c "zcat '$dir/blank.jsonl.gz' | wc -l"
	zref=$secs
	for b in "${bins[@]}"; do
		measure "$b: stats (auto)" "$dir/$b" stats "$dir/blank.jsonl"
		echo "    time ratio to wc -l: $(ratio "$secs" "$ref")"
		measure "$b: stats --from plain" "$dir/$b" stats --from plain "$dir/blank.jsonl"
		echo "    time ratio to wc -l: $(ratio "$secs" "$ref")"
		measure "$b: stats, gzipped (auto)" "$dir/$b" stats "$dir/blank.jsonl.gz"
		echo "    time ratio to zcat | wc -l: $(ratio "$secs" "$zref")"
	done
fi

if has parquetbomb; then
	echo "== 2, 4. Parquet row bombs: 5M and 50M rows in a file of kilobytes, --max-rows 100, against a 100-row file"
	"$dir/faultfiles" bomb 100 "$dir/rows100.parquet"
	"$dir/faultfiles" bomb 5000000 "$dir/rows5m.parquet"
	"$dir/faultfiles" bomb 50000000 "$dir/rows50m.parquet"
	ls -l "$dir"/rows*.parquet | awk '{print "    " $5 " bytes  " $NF}'
	for b in "${bins[@]}"; do
		measure "$b: stats, 100 rows (reference)" "$dir/$b" stats "$dir/rows100.parquet"
		ref=$rss
		for f in rows5m rows50m; do
			measure "$b: stats --max-rows 100 $f" "$dir/$b" stats --max-rows 100 "$dir/$f.parquet"
			echo "    RSS ratio to the reference: $(ratio "$rss" "$ref")"
			measure "$b: stats --max-rows 100 --from plain $f" "$dir/$b" stats --max-rows 100 --from plain "$dir/$f.parquet"
			echo "    RSS ratio to the reference: $(ratio "$rss" "$ref")"
		done
	done
fi

if has corrupt; then
	echo "== 3. corrupt Parquet files (the fuzz corpus's), read and followed"
	mkdir -p "$dir/corrupt" "$dir/followed"
	"$dir/faultfiles" corpus "$dir/corrupt" loaders/testdata/fuzz/FuzzParquet/corrupt-*
	for b in "${bins[@]}"; do
		for f in "$dir"/corrupt/*.parquet; do
			measure "$b: stats $(basename "$f")" "$dir/$b" stats "$f"
		done
		rm -f "$dir/followed"/*
		cp sample_data/trl/completions/completions_00001.parquet "$dir/followed/"
		(sleep 2 && cp "$(ls "$dir"/corrupt/*.parquet | head -1)" "$dir/followed/completions_00002.parquet") &
		measure "$b: stats --follow, a corrupt file appears (INT at 5 s)" timeout --preserve-status -s INT 5 "$dir/$b" stats --follow "$dir/followed"
		wait
		grep -o 'corrupt Parquet file[^(]*' "$dir/stderr" | head -1 | sed 's/^/    /' || true
	done
fi

if has objectives; then
	echo "== 7. objectives inferred from 8 rows of N numeric keys: 100k against 20k (linear: 5)"
	for n in 20000 100000; do
		$python -c "
import json, sys
n = int(sys.argv[1])
for r in range(8):
    print(json.dumps({'id': str(r), 'group': 'g', 'metadata': {'k%d' % i: (r + i) % 7 for i in range(n)}}))" "$n" >"$dir/objectives$n.jsonl"
	done
	for b in "${bins[@]}"; do
		measure "$b: stats, 20k objectives" "$dir/$b" stats "$dir/objectives20000.jsonl"
		ref=$secs
		measure "$b: stats, 100k objectives" "$dir/$b" stats "$dir/objectives100000.jsonl"
		echo "    time ratio 100k / 20k: $(ratio "$secs" "$ref")"
	done
fi

if has bound; then
	echo "== minor. one record of 250 MiB under the default 256 MiB bound: peak RSS over the bound"
	$python -c "
import sys
sys.stdout.write('{\"id\":\"a\",\"metadata\":{\"a\":1}}\n{\"id\":\"b\",\"response\":\"'+'x'*(250<<20)+'\",\"metadata\":{\"a\":2}}\n')" >"$dir/bound.jsonl"
	for b in "${bins[@]}"; do
		measure "$b: stats" "$dir/$b" stats "$dir/bound.jsonl"
		echo "    RSS over 256 MiB: $(ratio "$rss" 256)"
		measure "$b: compute" "$dir/$b" compute "$dir/bound.jsonl"
		echo "    RSS over 256 MiB: $(ratio "$rss" 256)"
	done
fi
