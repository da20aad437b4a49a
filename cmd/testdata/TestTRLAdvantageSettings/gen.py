"""Writes this directory's fixtures: one batch of completions per TRL
setting, with the advantage TRL's own code computes for it.

The advantage is computed by the advantage block of
GRPOTrainer._generate_and_score_completions (from `unscorable_mask = ...`
to `advantages = torch.nan_to_num(advantages, nan=0.0)`) and
trl.trainer.utils.nanstd, read from TRL's source at commit
f2cd57710ae345ea6428ae95363267fcf38a3dc8 and run as they are, under torch,
on float32 rewards, as TRL runs them.

    /usr/bin/python3 gen.py PATH/TO/trl

PATH/TO/trl is a checkout of huggingface/trl at that commit.
"""

import json
import random
import sys
import textwrap
import types
from pathlib import Path

import torch


def block(source, start, end):
    """The lines of source from the first holding start to the next that is
    end, spaces around it aside."""
    lines = source.splitlines()
    first = next(i for i, line in enumerate(lines) if start in line)
    last = next(i for i, line in enumerate(lines) if i >= first and line.strip() == end)
    return textwrap.dedent("\n".join(lines[first : last + 1]))


def function(source, name):
    """The top-level function name of source: its def line and the
    indented or blank lines after it."""
    lines = source.splitlines()
    first = lines.index(next(line for line in lines if line.startswith(f"def {name}(")))
    last = first + 1
    while last < len(lines) and (not lines[last].strip() or lines[last].startswith(" ")):
        last += 1
    return "\n".join(lines[first:last])


def advantage_code(trl, trainer_file):
    """TRL's advantage block of trl/trainer/trainer_file in the checkout
    trl, and the namespace to run it in, holding torch and TRL's nanstd."""
    trainer = (trl / "trl/trainer" / trainer_file).read_text()
    utils = (trl / "trl/trainer/utils.py").read_text()
    namespace = {"torch": torch}
    exec(function(utils, "nanstd"), namespace)
    advantage_block = block(trainer, "unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)",
                            "advantages = torch.nan_to_num(advantages, nan=0.0)")
    return advantage_block, namespace


def trl_advantages(advantage_block, namespace, rewards_per_func, num_generations, scale_rewards, aggregation,
                   reward_weights):
    """GRPOTrainer's advantage block (as advantage_code gives it, with its
    namespace) on rewards_per_func (rows x reward functions)."""
    trainer_self = types.SimpleNamespace(
        scale_rewards=scale_rewards,
        multi_objective_aggregation=aggregation,
        reward_weights=torch.tensor(reward_weights, dtype=torch.float32),
        reward_funcs=[None] * rewards_per_func.shape[1],
    )
    scope = dict(namespace, self=trainer_self, rewards_per_func=rewards_per_func,
                 num_generations=num_generations, device="cpu")
    exec(advantage_block, scope)
    return scope["advantages"]


if __name__ == "__main__":
    advantage_block, namespace = advantage_code(Path(sys.argv[1]), "grpo_trainer.py")
    random.seed(21)
    prompts, num_generations = 4, 8
    rows = []
    for p in range(prompts):
        for g in range(num_generations):
            rows.append([float(random.random() < 0.5), round(random.random(), 3)])
    rows_with_none = [list(r) for r in rows]
    rows_with_none[5][0] = float("nan")  # a reward function that returned None

    settings = {
        # name: (scale_rewards, multi_objective_aggregation, reward_weights, rows)
        "scale_group": ("group", "sum_then_normalize", [1.0, 1.0], rows_with_none),
        "scale_batch": ("batch", "sum_then_normalize", [1.0, 1.0], rows_with_none),
        "scale_none": ("none", "sum_then_normalize", [1.0, 1.0], rows_with_none),
        "normalize_then_sum": ("group", "normalize_then_sum", [1.0, 1.0], rows),
        "weights_half_scale_none": ("none", "sum_then_normalize", [0.5, 0.5], rows),
    }
    out = Path(__file__).parent
    for name, (scale, aggregation, weights, data) in settings.items():
        rewards = torch.tensor(data, dtype=torch.float32)
        advantages = trl_advantages(advantage_block, namespace, rewards, num_generations, scale, aggregation, weights)
        with open(out / f"{name}.jsonl", "w") as f:
            for i, (row, advantage) in enumerate(zip(rewards.tolist(), advantages.tolist())):
                record = {"prompt": f"prompt {i // num_generations}", "step": 1,
                          "accuracy": None if row[0] != row[0] else row[0], "format": row[1],
                          "advantage": advantage}
                f.write(json.dumps(record) + "\n")
