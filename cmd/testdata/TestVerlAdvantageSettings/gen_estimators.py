"""Writes rpp_baseline.jsonl, grpo_passk.jsonl, gpg.jsonl and opo.jsonl:
one step of a verl rollout dump per verl advantage estimator, each row with the
advantage verl's own code computes for it (a field that verl's dump does
not have, read with --logged-advantage advantage).

The advantages are computed by
compute_reinforce_plus_plus_baseline_outcome_advantage,
compute_grpo_passk_outcome_advantage (epsilon 1e-6,
norm_adv_by_std_in_grpo True, verl's default) and
compute_gpg_outcome_advantage (f_norm 1, its default) and
compute_opo_outcome_advantage of
verl/trainer/ppo/core_algos.py, with masked_sum, masked_mean, masked_var
and masked_whiten of verl/utils/torch_functional.py (its verl_F), read from
verl's source at commit b178a3cd56f58b2d502255daba591e92833930a7 and run
as they are, under torch, on float32 scores of one token each (a mask of
ones: masked_whiten then counts each response once), but for opo, whose
baseline weighs each response by its length: responses of 1 to 4
tokens, the score on the last.

    /usr/bin/python3 gen_estimators.py PATH/TO/verl

PATH/TO/verl is a checkout of volcengine/verl at that commit.
"""

import json
import sys
import types
from pathlib import Path

import numpy as np
import torch

# gen.py reads verl's source; importing it must leave no __pycache__ among
# the fixtures.
sys.dont_write_bytecode = True
from gen import core_algos_functions, function  # noqa: E402

verl = Path(sys.argv[1])
torch_functional = (verl / "verl/utils/torch_functional.py").read_text()
verl_F = {"torch": torch}
for name in ("masked_sum", "masked_mean", "masked_var", "masked_whiten"):
    exec(function(torch_functional, name), verl_F)
namespace = core_algos_functions(verl, ("compute_reinforce_plus_plus_baseline_outcome_advantage",
                                        "compute_grpo_passk_outcome_advantage", "compute_gpg_outcome_advantage",
                                        "compute_opo_outcome_advantage"),
                                 verl_F=types.SimpleNamespace(**verl_F))


def write(name, groups, estimate, lengths=None):
    """Writes name.jsonl: groups' scores, a prompt each, as float32
    scores on the last of each response's tokens (lengths, row by row; one
    each when None), with the advantages estimate gives them."""
    prompts = [f"user\nQuestion {p}?\nassistant\n" for p in range(len(groups))]
    rows = [(p, s) for p, scores in enumerate(groups) for s in scores]
    lengths = lengths or [1] * len(rows)
    scores = torch.zeros(len(rows), max(lengths), dtype=torch.float32)
    mask = torch.zeros_like(scores)
    for i, ((_, s), n) in enumerate(zip(rows, lengths)):
        scores[i, n - 1] = s
        mask[i, :n] = 1
    index = np.array([prompts[p] for p, _ in rows], dtype=object)
    advantages, _ = estimate(scores.clone(), mask, index)
    with open(Path(__file__).parent / f"{name}.jsonl", "w") as f:
        for (p, _), score, advantage in zip(rows, scores.sum(-1).tolist(), advantages[:, 0].tolist()):
            f.write(json.dumps({"input": prompts[p], "output": "42", "score": score, "step": 1, "advantage": advantage}) + "\n")


# A group with a tie, a group of one score throughout (zero spread), a
# group of distinct scores and a group of one rollout (verl's mean 0).
groups = [[0.5, 0.5, 0.7, 0.9], [1.0, 1.0, 1.0, 1.0], [0.1, 0.4, 0.25, 0.6], [0.8]]
write("rpp_baseline", groups, namespace["compute_reinforce_plus_plus_baseline_outcome_advantage"])
# gpg's alpha counts the batch's scores that are not 0: two of them are.
write("gpg", groups[:3] + [[0.0, 0.3, 0.0, 0.2], [0.8]], namespace["compute_gpg_outcome_advantage"])
# grpo_passk refuses a group of one; a tie for the best gives 0 to all.
write("grpo_passk", groups[:3] + [[0.3, 0.9, 0.9, 0.2]],
      lambda scores, mask, index: namespace["compute_grpo_passk_outcome_advantage"](
          scores, mask, index, config={"norm_adv_by_std_in_grpo": True}))
# opo's baseline weighs each response by its length, which the dump lacks.
write("opo", groups[:3], namespace["compute_opo_outcome_advantage"], lengths=[1, 3, 2, 4, 2, 2, 1, 3, 4, 1, 2, 3])
