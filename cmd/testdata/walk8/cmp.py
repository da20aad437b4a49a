import json, sys
exp = [float(l.split()[2]) for l in open(sys.argv[2])]
got = [json.loads(l) for l in open(sys.argv[1])]
assert len(exp) == len(got), (len(exp), len(got))
d = [abs((g["reward"] if g["reward"] is not None else float('nan')) - e) for g, e in zip(got, exp)]
bad = [(i, got[i]["batch"], got[i]["reward"], exp[i]) for i in range(len(d)) if not d[i] <= 1e-5]
print(sys.argv[1], "n", len(d), "max diff", max(d), "bad", len(bad)); [print("  ", b) for b in bad[:6]]
