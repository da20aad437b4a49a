"""Writes rloo_normalized.jsonl: one batch of completions with the
advantage TRL's RLOOTrainer computes for it with
normalize_advantages=True.

The advantage is computed by the advantage block of
RLOOTrainer._generate_and_score_completions (from `unscorable_mask = ...`
to `advantages = torch.nan_to_num(advantages, nan=0.0)`, with beta 0 and
no reward_clip_range) and trl.trainer.utils.nanstd, read from TRL's source
at commit f2cd57710ae345ea6428ae95363267fcf38a3dc8 and run as they are,
under torch, on float32 rewards, as TRL runs them.

    /usr/bin/python3 gen_rloo.py PATH/TO/trl

PATH/TO/trl is a checkout of huggingface/trl at that commit.
"""

import json
import sys
import types
from pathlib import Path

import torch

# gen.py reads TRL's source; importing it must leave no __pycache__ among
# the fixtures.
sys.dont_write_bytecode = True
from gen import advantage_code  # noqa: E402

advantage_block, namespace = advantage_code(Path(sys.argv[1]), "rloo_trainer.py")

nan = float("nan")
num_generations = 4
# Rows of (accuracy, format), a prompt's num_generations in a row: a group
# with a tie, a group of one reward throughout (zero spread), a group
# with one unscorable completion (every reward None), a group with a
# single scorable one (TRL's baseline 0/0: left out, 0) and a group
# where a None reward adds nothing (nansum).
rows = [
    [1.0, 0.5], [1.0, 0.5], [0.0, 0.25], [1.0, 0.75],
    [1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0],
    [0.0, 0.5], [nan, nan], [1.0, 0.125], [0.0, 0.375],
    [nan, nan], [1.0, 0.5], [nan, nan], [nan, nan],
    [nan, 0.5], [1.0, 0.0], [0.0, 0.625], [1.0, 0.875],
]
rewards_per_func = torch.tensor(rows, dtype=torch.float32)
trainer_self = types.SimpleNamespace(reward_weights=torch.ones(2), reward_clip_range=None, beta=0.0,
                                     normalize_advantages=True)
scope = dict(namespace, self=trainer_self, rewards_per_func=rewards_per_func, num_generations=num_generations,
             device="cpu")
exec(advantage_block, scope)
with open(Path(__file__).parent / "rloo_normalized.jsonl", "w") as f:
    for i, (row, advantage) in enumerate(zip(rewards_per_func.tolist(), scope["advantages"].tolist())):
        record = {"prompt": f"prompt {i // num_generations}", "step": 1,
                  "accuracy": None if row[0] != row[0] else row[0],
                  "format": None if row[1] != row[1] else row[1], "advantage": advantage}
        f.write(json.dumps(record) + "\n")
