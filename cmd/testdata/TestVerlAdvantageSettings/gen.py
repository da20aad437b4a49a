"""Writes this directory's fixtures: one step of a verl rollout dump per
verl advantage estimator, each row with the advantage verl's own code
computes for it (a field that verl's dump does not have, read with
--logged-advantage advantage).

The advantages are computed by compute_grpo_outcome_advantage (epsilon
1e-6, norm_adv_by_std_in_grpo True and False) and
compute_rloo_outcome_advantage of verl/trainer/ppo/core_algos.py, read from
verl's source at commit b178a3cd56f58b2d502255daba591e92833930a7 and run as
they are, under torch, on float32 scores of one token each.

    /usr/bin/python3 gen.py PATH/TO/verl

PATH/TO/verl is a checkout of volcengine/verl at that commit.
"""

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Optional

import numpy as np
import torch


def function(source, name):
    """The top-level function name of source: its def line and the
    indented, closing or blank lines after it."""
    lines = source.splitlines()
    first = lines.index(next(line for line in lines if line.startswith(f"def {name}(")))
    last = first + 1
    while last < len(lines) and (not lines[last].strip() or lines[last][0] in " )"):
        last += 1
    return "\n".join(lines[first:last])


def core_algos_functions(verl, names, **names_they_use):
    """A namespace holding the functions of verl/trainer/ppo/core_algos.py
    (in the checkout verl) named in names, run from verl's source, with the
    names they use: torch, np and typing's, plus names_they_use."""
    core_algos = (verl / "verl/trainer/ppo/core_algos.py").read_text()
    namespace = {"torch": torch, "np": np, "defaultdict": defaultdict, "Optional": Optional, "AlgoConfig": object,
                 **names_they_use}
    for name in names:
        exec(function(core_algos, name), namespace)
    return namespace


if __name__ == "__main__":
    namespace = core_algos_functions(Path(sys.argv[1]), ("compute_grpo_outcome_advantage",
                                                         "compute_rloo_outcome_advantage"))

    # Three prompts of four rollouts and one of a single rollout (verl's group
    # of one: mean 0, std 1), scores of small spread so that epsilon 1e-6 and
    # 1e-4 give different advantages.
    prompts = [f"user\nQuestion {p}?\nassistant\n" for p in range(4)]
    rows = [(p, 0.5 + 0.01 * ((p * 5 + g * 3) % 7)) for p in range(3) for g in range(4)] + [(3, 0.8)]
    scores = torch.tensor([[s] for _, s in rows], dtype=torch.float32)
    mask = torch.ones_like(scores)
    index = np.array([prompts[p] for p, _ in rows], dtype=object)

    estimators = {
        "grpo": lambda: namespace["compute_grpo_outcome_advantage"](scores.clone(), mask, index),
        "grpo_no_std": lambda: namespace["compute_grpo_outcome_advantage"](scores.clone(), mask, index, norm_adv_by_std_in_grpo=False),
        "rloo": lambda: namespace["compute_rloo_outcome_advantage"](scores.clone(), mask, index),
    }
    out = Path(__file__).parent
    for name, estimate in estimators.items():
        advantages, _ = estimate()
        with open(out / f"{name}.jsonl", "w") as f:
            for (p, _), score, advantage in zip(rows, scores[:, 0].tolist(), advantages[:, 0].tolist()):
                f.write(json.dumps({"input": prompts[p], "output": "42", "score": score, "step": 1, "advantage": advantage}) + "\n")
