_t=open("/tmp/walk8/gen_trl.py").read(); exec(_t.split("rng = random.Random(7)")[0]); exec("def write_table"+_t.split("def write_table")[1].split("def run")[0])
NAMES = ["accuracy_reward", "format_reward", "len_reward"]
def nts_adv(rpf, weights, G):
    rewards_per_func = torch.tensor(rpf, dtype=torch.float32); reward_weights = torch.tensor(weights)
    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    grouped = rewards_per_func.view(-1, G, len(weights))
    mean_k = torch.nanmean(grouped, dim=1, keepdim=True)
    std_k = nanstd(grouped, dim=1, keepdim=True) if G > 1 else torch.zeros_like(mean_k)
    reward_k = ((grouped - mean_k) / (std_k + 1e-4)).view(-1, len(weights))
    rewards = (reward_k * reward_weights.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    std_rewards = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
    advantages = (rewards - torch.nanmean(rewards)) / (std_rewards + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0).tolist()
rng = random.Random(21)
d = "/tmp/walk8/trl_nts"; os.makedirs(d, exist_ok=True); exp = open(d + ".expected", "w")
W = [2.0, 0.5, 1.0]; G = 4
for step in (1, 2, 3):
    prompts, comps, rpf, extra = [], [], [], []
    for p in range(3):
        pr = f"user: NTS {step}.{p}\nassistant:"
        for k in range(G):
            acc = float(rng.random() < 0.5); fmt = rng.choice([0.0, 0.5, 1.0]); ln = round(-rng.random()*0.3, 3)
            if p == 1 and k == 2: fmt = float('nan')
            if p == 2 and k == 3: acc = fmt = ln = float('nan')
            prompts.append(pr); comps.append(f"c{k}"); rpf.append([acc, fmt, ln]); extra.append(rng.randint(10, 300))
    adv = nts_adv(rpf, W, G)
    write_table(f"{d}/completions_{step}_x.table.json", step, (prompts, comps, rpf, extra, adv))
    for i, a in enumerate(adv): exp.write(f"{step} {i} {a!r}\n")
