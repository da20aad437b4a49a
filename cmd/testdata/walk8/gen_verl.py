import ast, json, os, sys, random, textwrap, uuid, subprocess
from collections import defaultdict
import numpy as np, torch
SRC = "/tmp/walk8/verlsrc/verl"
def funcs(path, names):
    text = open(path).read(); tree = ast.parse(text); lines = text.splitlines(keepends=True); out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            out[node.name] = textwrap.dedent("".join(lines[node.lineno-1:node.end_lineno]))
    return out
ns = {"torch": torch, "np": np, "defaultdict": defaultdict, "Optional": __import__("typing").Optional, "AlgoConfig": dict}
tf = funcs(f"{SRC}/utils/torch_functional.py", ["masked_mean", "masked_var", "masked_whiten", "masked_sum"])
vf = {"torch": torch}
for s in tf.values(): exec(s, vf)
ns["verl_F"] = type("F", (), {k: staticmethod(vf[k]) for k in tf})
ca = funcs(f"{SRC}/trainer/ppo/core_algos.py", ["compute_grpo_outcome_advantage","compute_grpo_passk_outcome_advantage","compute_reinforce_plus_plus_baseline_outcome_advantage","compute_rloo_outcome_advantage","compute_opo_outcome_advantage","compute_gpg_outcome_advantage"])
for s in ca.values(): exec(s, ns)
# _dump_generations, verbatim
rt = subprocess.check_output(["git","--git-dir","/work/.mirror/volcengine+verl/repo","show","HEAD:verl/trainer/ppo/ray_trainer.py"], text=True)
tree = ast.parse(rt); lines = rt.splitlines(keepends=True)
for node in ast.walk(tree):
    if isinstance(node, ast.FunctionDef) and node.name == "_dump_generations":
        dsrc = textwrap.dedent("".join(lines[node.lineno-1:node.end_lineno]))
dns = {"os": os, "json": json}; exec(dsrc, dns); dump = dns["_dump_generations"]
class T: pass

EST = {
 "grpo": lambda r,m,i: ns["compute_grpo_outcome_advantage"](r,m,i,norm_adv_by_std_in_grpo=True),
 "grpo_nostd": lambda r,m,i: ns["compute_grpo_outcome_advantage"](r,m,i,norm_adv_by_std_in_grpo=False),
 "rloo": lambda r,m,i: ns["compute_rloo_outcome_advantage"](r,m,i,config={}),
 "rpp": lambda r,m,i: ns["compute_reinforce_plus_plus_baseline_outcome_advantage"](r,m,i,config={}),
 "passk": lambda r,m,i: ns["compute_grpo_passk_outcome_advantage"](r,m,i,config={"norm_adv_by_std_in_grpo": True}),
 "gpg": lambda r,m,i: ns["compute_gpg_outcome_advantage"](r,m,i,config={}),
 "opo": lambda r,m,i: ns["compute_opo_outcome_advantage"](r,m,i,config={}),
}
rng = random.Random(int(sys.argv[1]) if len(sys.argv)>1 else 0)
N_PROMPTS, N = 4, 5
L = 16
batches = []
for step in (1, 2, 3):
    rows = []
    for p in range(N_PROMPTS):
        uid = str(uuid.UUID(int=rng.getrandbits(128)))
        prompt = f"system\nYou are helpful.\nuser\nStep {step} problem {p}: what is {p+step} * 7? Let's think step by step.\nassistant\n"
        for k in range(N):
            acc = 1.0 if rng.random() < 0.3 + 0.15*p else 0.0
            if p == 0 and step == 2: acc = 0.0   # all-wrong group
            fmt = 1.0 if rng.random() < 0.7 else 0.0
            score = acc + 0.1*fmt
            if p == 3 and step == 3: score = 0.0 if k < 4 else 0.0  # zero group for gpg
            ln = rng.randint(1, L)
            rows.append(dict(uid=uid, input=prompt, output=f"The answer is {(p+step)*7 if acc else 3}. <think>k={k}</think>", gts=str((p+step)*7), score=score, acc=acc, fmt=fmt, len=ln, pred=str(k)))
    # verl balance_batch may reorder: shuffle within step
    rng.shuffle(rows)
    batches.append((step, rows))
for est, fn in EST.items():
    out = f"/tmp/walk8/verl_{est}"; os.makedirs(out, exist_ok=True)
    exp = open(f"{out}.expected", "w")
    for step, rows in batches:
        scores = torch.tensor([r["score"] for r in rows], dtype=torch.float32)
        mask = torch.zeros(len(rows), L)
        for i, r in enumerate(rows): mask[i, :r["len"]] = 1
        tlr = torch.zeros(len(rows), L)
        for i, r in enumerate(rows): tlr[i, r["len"]-1] = scores[i]
        idx = np.array([r["uid"] for r in rows], dtype=object)
        adv, _ = fn(tlr, mask, idx)
        # per-response advantage: first token (outcome estimators are constant over tokens)
        a = [float(adv[i, 0]) for i in range(len(rows))]
        t = T(); t.global_steps = step
        dump(t, [r["input"] for r in rows], [r["output"] for r in rows], [r["gts"] for r in rows], scores.tolist(),
             {"acc": [r["acc"] for r in rows], "fmt": [r["fmt"] for r in rows], "pred": [r["pred"] for r in rows]}, out)
        for i, x in enumerate(a): exp.write(f"{step} {i} {x!r}\n")
    exp.close()
