import json, os, random, math, subprocess, ast, textwrap
import torch
src = subprocess.check_output(["git","--git-dir","/work/.mirror/huggingface+trl/repo","show","HEAD:trl/trainer/utils.py"], text=True)
t = ast.parse(src); L = src.splitlines(keepends=True)
ns = {"torch": torch}
for n in t.body:
    if isinstance(n, ast.FunctionDef) and n.name == "nanstd": exec(textwrap.dedent("".join(L[n.lineno-1:n.end_lineno])), ns)
nanstd = ns["nanstd"]
def trl_adv(rpf, weights, G, scale):
    # verbatim logic of _generate_and_score_completions, sum_then_normalize
    rewards_per_func = torch.tensor(rpf, dtype=torch.float32)
    reward_weights = torch.tensor(weights, dtype=torch.float32)
    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * reward_weights.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    mean_grouped_rewards = torch.nanmean(rewards.view(-1, G), dim=1).repeat_interleave(G, dim=0)
    if scale in ["group", "none"]:
        std_rewards = nanstd(rewards.view(-1, G), dim=1).repeat_interleave(G, dim=0) if G > 1 else torch.zeros_like(rewards)
    else:
        std_rewards = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
    adv = rewards - mean_grouped_rewards
    if scale != "none": adv = adv / (std_rewards + 1e-4)
    return torch.nan_to_num(adv, nan=0.0).tolist()
rng = random.Random(7)
NAMES = ["accuracy_reward", "format_reward", "len_reward"]
def gen_batch(step, nprompts, G, weights, scale, none_rows=False):
    prompts, comps, rpf, extra = [], [], [], []
    for p in range(nprompts):
        pr = f"<|im_start|>user\nQuestion {step}.{p}: solve x + {p} = {step+p}.<|im_end|>\n<|im_start|>assistant\n"
        for k in range(G):
            acc = float(rng.random() < 0.5); fmt = rng.choice([0.0, 0.5, 1.0]); ln = round(-rng.random()*0.3, 3)
            if none_rows and p == 1 and k == 0: fmt = float('nan')
            if none_rows and p == 1 and k == 1: acc = fmt = ln = float('nan')
            prompts.append(pr); comps.append(f"<think>try {k}</think> x = {step if acc else 99}"); rpf.append([acc, fmt, ln]); extra.append(rng.randint(10, 300))
    adv = trl_adv(rpf, weights, G, scale)
    return prompts, comps, rpf, extra, adv
def write_table(path, step, b):
    prompts, comps, rpf, extra, adv = b
    cols = ["step", "prompt", "completion"] + NAMES + ["num_tokens", "advantage"]
    data = [[step, prompts[i], comps[i]] + [None if math.isnan(x) else x for x in rpf[i]] + [extra[i], adv[i]] for i in range(len(prompts))]
    json.dump({"columns": cols, "data": data}, open(path, "w"))
def run(name, weights, scale, G=4, nprompts=3, spg=1, steps=4, none_rows=False):
    d = f"/tmp/walk8/{name}"; os.makedirs(d, exist_ok=True); exp = open(d + ".expected", "w")
    b = None
    for step in range(1, steps+1):
        if (step-1) % spg == 0: b = gen_batch(step, nprompts, G, weights, scale, none_rows)
        write_table(f"{d}/completions_{step}_{abs(hash(name))%10**6:06d}.table.json", step, b)
        for i, a in enumerate(b[4]): exp.write(f"{step} {i} {a!r}\n")
run("trl_w_batch", [2.0, 0.5, 1.0], "batch")
run("trl_w_group", [2.0, 0.5, 1.0], "group", none_rows=True)
run("trl_none", [1.0, 1.0, 1.0], "none", G=8, nprompts=2)
run("trl_spg2", [1.0, 1.0, 1.0], "group", spg=2)
