#!/usr/bin/env python3
"""The seed design's Pareto ranking in plain numpy, and the benchmark inputs.

    seed_pareto.py gen --n N --m M [--group-size G] [--seed S] OUT
        writes N trajectories as JSONL: metadata holds M uniform objectives
        o1..oM (what rewardlens infers with no --objective), a short
        response, groups of G (0: every trajectory in the group ""), one
        batch.

    seed_pareto.py rank [--repeat R] [--check REWARDS.jsonl] FILE
        ranks every comparison group of FILE (batch, group) with the seed's
        algorithm, R times, and prints the median time of the ranking alone
        (reading the file is not timed). With --check, compares the ranks
        with the pareto_rank column of `rewardlens compute` output.

    seed_pareto.py time [--repeat R] -- CMD...
        runs CMD R times and prints the median wall time of the process.

The seed's algorithm is numpy's classic `is_pareto_efficient` (the mask of
the non-dominated points, dropping every point a kept one dominates as it
goes), applied front by front: the non-dominated points of what remains are
the next front. It reproduces the anchors of issue 4 on the 2-core test
machine (100k x 3 in about 15 s, 20k x 3 in about 1.1 s). Like the seed, it
treats an exact duplicate as dominated, so `rank --check` is only exact on
inputs without duplicate vectors (uniform floats have none); it says so when
there are some.

Needs numpy (Debian: apt-get install python3-numpy, then /usr/bin/python3).
"""

import argparse
import json
import statistics
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("seed_pareto.py needs numpy: apt-get install -y python3-numpy, then run it with /usr/bin/python3")


def is_pareto_efficient(values):
    """Indices of the non-dominated rows of values (larger is better): the
    classic numpy loop of the seed design."""
    idx = np.arange(values.shape[0])
    nxt = 0
    while nxt < len(values):
        keep = np.any(values > values[nxt], axis=1)
        keep[nxt] = True
        idx = idx[keep]
        values = values[keep]
        nxt = int(np.sum(keep[:nxt])) + 1
    return idx


def peel(values):
    """0-based Pareto rank of every row: the seed's is_pareto_efficient,
    front after front on what remains."""
    ranks = np.full(len(values), -1, dtype=np.int64)
    remaining = np.arange(len(values))
    front = 0
    while len(remaining):
        eff = remaining[is_pareto_efficient(values[remaining])]
        ranks[eff] = front
        mask = np.ones(len(remaining), dtype=bool)
        mask[np.searchsorted(remaining, eff)] = False
        remaining = remaining[mask]
        front += 1
    return ranks


def gen(args):
    rng = np.random.default_rng(args.seed)
    values = rng.random((args.n, args.m))
    steps = rng.integers(1, 16, args.n)
    names = ["o%d" % (k + 1) for k in range(args.m)]
    with open(args.out, "w") as f:
        for i in range(args.n):
            rec = {"id": "t%d" % i, "batch": 0}
            if args.group_size > 0:
                rec["group"] = "g%d" % (i // args.group_size)
            rec["step_count"] = int(steps[i])
            rec["response"] = "The answer is %d." % (i % 97)
            rec["metadata"] = {names[k]: float(values[i, k]) for k in range(args.m)}
            f.write(json.dumps(rec) + "\n")


def read_groups(path):
    """The objective values of path, in input order, and the comparison
    groups (lists of row indices) in order of first appearance."""
    rows, groups, keys = [], {}, None
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            md = t.get("metadata") or {}
            if keys is None:  # rewardlens' inference: numeric keys of the first, sorted
                keys = sorted(k for k, v in md.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
            groups.setdefault((t.get("batch", 0), t.get("group", "")), []).append(len(rows))
            rows.append([float(md[k]) for k in keys])
    return np.array(rows), [np.array(g) for g in groups.values()], keys


def rank(args):
    values, groups, keys = read_groups(args.file)
    times, ranks = [], None
    for _ in range(args.repeat):
        ranks = np.full(len(values), -1, dtype=np.int64)
        start = time.perf_counter()
        for g in groups:
            ranks[g] = peel(values[g])
        times.append(time.perf_counter() - start)
    dups = len(values) - len(np.unique(values, axis=0))
    print("seed ranking: %d x %d (%s), %d groups, %d fronts in the largest, median of %d: %.3f s (runs: %s)" % (
        len(values), len(keys), ",".join(keys), len(groups), int(ranks.max()) + 1, args.repeat,
        statistics.median(times), " ".join("%.3f" % t for t in times)))
    if dups:
        print("note: %d duplicate vectors: the seed's algorithm splits them over fronts" % dups)
    if args.check:
        with open(args.check) as f:
            theirs = np.array([json.loads(line)["pareto_rank"] for line in f if line.strip()])
        if len(theirs) != len(ranks):
            sys.exit("check: %d records in %s, %d trajectories" % (len(theirs), args.check, len(ranks)))
        differ = int(np.sum(theirs != ranks))
        print("check: %s ranks differ from %s" % (differ, args.check))
        if differ and not dups:
            sys.exit(1)
    print("SEED_SECONDS=%.6f" % statistics.median(times))


def time_cmd(args):
    if args.cmd and args.cmd[0] == "--":
        args.cmd = args.cmd[1:]
    if not args.cmd:
        sys.exit("time: no command")
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run(args.cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    print("process: median of %d: %.3f s (runs: %s)" % (
        args.repeat, statistics.median(times), " ".join("%.3f" % t for t in times)))
    print("PROCESS_SECONDS=%.6f" % statistics.median(times))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd_name", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--n", type=int, required=True)
    g.add_argument("--m", type=int, required=True)
    g.add_argument("--group-size", type=int, default=0)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("out")
    g.set_defaults(run=gen)
    r = sub.add_parser("rank")
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--check")
    r.add_argument("file")
    r.set_defaults(run=rank)
    t = sub.add_parser("time")
    t.add_argument("--repeat", type=int, default=3)
    t.add_argument("cmd", nargs=argparse.REMAINDER)
    t.set_defaults(run=time_cmd)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
