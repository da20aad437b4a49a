import json, os, random, math, sys
sys.argv=["x"]; _t=open("/tmp/walk8/gen_trl.py").read(); exec(_t.split("rng = random.Random(7)")[0]); exec("def write_table"+_t.split("def write_table")[1].split("def run")[0])
def rloo_adv(rpf, weights, G, normalize, beta=0.0, kl=None):
    rewards_per_func = torch.tensor(rpf, dtype=torch.float32)
    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * torch.tensor(weights).unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    if beta != 0.0: rewards = rewards - beta * torch.tensor(kl, dtype=torch.float32)
    grouped_rewards = rewards.view(-1, G)
    scorable_counts = (~torch.isnan(grouped_rewards)).sum(dim=1, keepdim=True)
    grouped_sum = torch.nansum(grouped_rewards, dim=1, keepdim=True)
    baselines = ((grouped_sum - grouped_rewards) / (scorable_counts - 1)).view(-1)
    advantages = rewards - baselines
    if normalize: advantages = (advantages - torch.nanmean(advantages)) / (nanstd(advantages) + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0).tolist()
NAMES = ["accuracy_reward", "format_reward", "len_reward"]
rng = random.Random(11)
def run(name, weights, normalize, beta=0.0, G=4, nprompts=3, steps=3):
    d = f"/tmp/walk8/{name}"; os.makedirs(d, exist_ok=True); exp = open(d + ".expected", "w")
    for step in range(1, steps+1):
        prompts, comps, rpf, extra, kl = [], [], [], [], []
        for p in range(nprompts):
            pr = f"<|im_start|>user\nRLOO {step}.{p}: 2+{p}?<|im_end|>\n<|im_start|>assistant\n"
            for k in range(G):
                acc = float(rng.random() < 0.5); fmt = rng.choice([0.0, 0.5, 1.0]); ln = round(-rng.random()*0.3, 3)
                if p == 1 and k == 1: acc = fmt = ln = float('nan')
                if p == 2 and k == 0: fmt = float('nan')
                prompts.append(pr); comps.append(f"answer {k}"); rpf.append([acc, fmt, ln]); extra.append(rng.randint(10,300)); kl.append(rng.random()*3)
        adv = rloo_adv(rpf, weights, G, normalize, beta, kl)
        write_table(f"{d}/completions_{step}_000.table.json", step, (prompts, comps, rpf, extra, adv))
        for i, a in enumerate(adv): exp.write(f"{step} {i} {a!r}\n")
run("rloo_plain", [1.0, 1.0, 1.0], False)
run("rloo_norm", [1.0, 1.0, 1.0], True)
run("rloo_beta", [1.0, 1.0, 1.0], False, beta=0.05)
