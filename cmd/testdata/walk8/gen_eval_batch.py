import random, os
_t=open("/tmp/walk8/gen_trl.py").read(); exec(_t.split("run(\"trl_w_batch\"")[0])
rng.seed(3)
d="/tmp/walk8/trl_eval_batch"; os.makedirs(d, exist_ok=True); exp=open(d+".expected","w")
W=[1.0,1.0,1.0]
b1 = gen_batch(1, 3, 4, W, "batch"); write_table(f"{d}/completions_1_aaa.table.json", 1, b1)
for i,a in enumerate(b1[4]): exp.write(f"1 {i} {a!r}\n")
b2 = gen_batch(2, 3, 4, W, "batch"); ev = gen_batch(99, 4, 2, W, "batch")
mix = tuple(list(x[-4:]) + list(y) for x, y in zip(b2, ev))
write_table(f"{d}/completions_2_aaa.table.json", 2, mix)
for i,a in enumerate(mix[4]): exp.write(f"2 {i} {a!r}\n")
