#!/usr/bin/python3
"""Writes loaders/testdata/wandb: TRL's completions table as W&B stores it.

TRL's GRPOTrainer.log() (trl/trainer/grpo_trainer.py, huggingface/trl at
TRL_COMMIT) builds one DataFrame per logging step, {"step", "prompt",
"completion", one column per reward function, the logged extras,
"advantage"}, and logs it with wandb.log({"completions":
wandb.Table(dataframe=df)}). The advantage here is TRL's own: the block of
_generate_and_score_completions from `unscorable_mask = ...` to
`advantages = torch.nan_to_num(...)` and trl/trainer/utils.py's nanstd,
read from a clone (the first argument) and executed as they are written,
under torch, with scale_rewards "group", "sum_then_normalize" and reward
weights 1.

wandb serialises the table (wandb/sdk/data_types/table.py, wandb/wandb at
WANDB_COMMIT) in two forms, both written here:

- the run's file, media/table/{key}_{step}_{sha256[:20]}.table.json
  (Table.bind_to_run and Media.bind_to_run): {"columns": [...], "data":
  [[...]]}, Table._to_table_json, the rows being
  tuple(dataframe[col].values[row] for col in columns)
  (Table._init_from_dataframe), dumped by util.json_dump_safer (json.dump,
  numpy scalars by .item(), NaN as the bare token NaN);
- an artifact's entry, {name}.table.json (Table.to_json(artifact)):
  {"_type": "table", "columns", "data", "ncols", "nrows",
  "column_types"}; the column types are wandb's typedDict of optional
  numbers and strings.

and, in log_extra/, the run's file of the same step with a float and a
text log_extra column after the rewards.

Run with Debian's python3 (python3-torch, python3-pandas):
    /usr/bin/python3 scripts/wandb_table.py /work/.mirror/huggingface+trl/repo
"""

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pandas as pd
import torch

TRL_COMMIT = "f2cd57710ae345ea6428ae95363267fcf38a3dc8"
WANDB_COMMIT = "4304c4d3f4f6fd3af5c3ec4f43ac3a1a2ea37db4"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "loaders", "testdata", "wandb")
GLOBAL_STEP = 3
WANDB_STEP = 3  # the run's W&B step when log() logged it
NUM_GENERATIONS = 4
PROMPTS = ["What is 6 * 7?", "Name the capital of France."]
COMPLETIONS = [
    "<think>6 * 7 = 42</think>42", "42", "<think>six sevens</think>48", "<think>7+7+7+7+7+7</think>42",
    "<think>France's capital</think>Paris", "Lyon", "<think>hmm</think>", "Paris",
]
# accuracy_reward returns None (NaN) where the gold answer cannot be
# parsed; think_format_reward is 1 when the completion has a think block.
ACCURACY = [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, float("nan"), 1.0]
FORMAT = [1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0]


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"{TRL_COMMIT}:{path}"], check=True, capture_output=True, text=True).stdout


def block(text, first, last):
    """The lines of text from the one that starts with first to the one that starts with last, dedented."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().startswith(first))
    end = next(i for i in range(start, len(lines)) if lines[i].strip().startswith(last))
    return textwrap.dedent("\n".join(lines[start : end + 1]))


def trl_advantages(repo):
    env = {"torch": torch}
    utils = git_show(repo, "trl/trainer/utils.py")
    lines = utils.splitlines()
    start = lines.index(next(l for l in lines if l.startswith("def nanstd(")))
    end = lines.index("    return std", start)  # the function's last line
    exec("\n".join(lines[start : end + 1]), env)
    code = block(git_show(repo, "trl/trainer/grpo_trainer.py"), "unscorable_mask = torch.isnan(rewards_per_func)", "advantages = torch.nan_to_num(advantages, nan=0.0)")
    env.update(
        rewards_per_func=torch.tensor([ACCURACY, FORMAT], dtype=torch.float32).T.contiguous(),
        num_generations=NUM_GENERATIONS,
        device="cpu",
        self=types.SimpleNamespace(
            multi_objective_aggregation="sum_then_normalize", scale_rewards="group",
            reward_weights=torch.ones(2), reward_funcs=[None, None],
        ),
    )
    exec(code, env)
    return env["rewards_per_func"], env["advantages"]


def main():
    rewards_per_func, advantages = trl_advantages(sys.argv[1])
    prompts = [p for p in PROMPTS for _ in range(NUM_GENERATIONS)]
    # log()'s table: self._logs["rewards"][name] are rewards_per_func[:, i].tolist(),
    # self._logs["advantages"] all_process_advantages.tolist().
    table = {
        "step": [GLOBAL_STEP] * len(prompts),
        "prompt": prompts,
        "completion": COMPLETIONS,
        "accuracy_reward": rewards_per_func[:, 0].tolist(),
        "think_format_reward": rewards_per_func[:, 1].tolist(),
        "advantage": advantages.tolist(),
    }
    df = pd.DataFrame(table)
    columns = list(df.columns)
    data = [list(tuple(df[col].values[row] for col in columns)) for row in range(len(df))]

    def item(obj):  # WandBJSONEncoder: numpy scalars as Python's
        if isinstance(obj, np.generic):
            return obj.item()
        raise TypeError(type(obj))

    os.makedirs(os.path.join(OUT, "artifact"), exist_ok=True)
    text = json.dumps({"columns": columns, "data": data}, default=item)
    sha = hashlib.sha256(text.encode()).hexdigest()
    for name in os.listdir(OUT):
        if name.endswith(".table.json"):
            os.remove(os.path.join(OUT, name))
    with open(os.path.join(OUT, f"completions_{WANDB_STEP}_{sha[:20]}.table.json"), "w", encoding="utf-8") as f:
        f.write(text)

    def optional(wb_type):
        return {"params": {"allowed_types": [{"wb_type": "none"}, {"wb_type": wb_type}]}, "wb_type": "union"}

    kinds = {"step": "number", "prompt": "string", "completion": "string"}
    artifact = {
        "_type": "table",
        "columns": columns,
        "data": data,
        "ncols": len(columns),
        "nrows": len(data),
        "column_types": {"params": {"type_map": {c: optional(kinds.get(c, "number")) for c in columns}}, "wb_type": "typedDict"},
    }
    with open(os.path.join(OUT, "artifact", "completions.table.json"), "w", encoding="utf-8") as f:
        json.dump(artifact, f, default=item)

    # The same step with a reward function's log_extra calls (grpo_trainer.py,
    # log(): **rewards, then **extra, keys sorted): a float column right
    # after the rewards (length) and a text one (parsed_answer).
    extra = dict(table)
    advantage = extra.pop("advantage")
    extra["length"] = [float(len(c)) for c in COMPLETIONS]
    extra["parsed_answer"] = [c.split("</think>")[-1] for c in COMPLETIONS]
    extra["advantage"] = advantage
    df = pd.DataFrame(extra)
    columns = list(df.columns)
    data = [list(tuple(df[col].values[row] for col in columns)) for row in range(len(df))]
    text = json.dumps({"columns": columns, "data": data}, default=item)
    sha = hashlib.sha256(text.encode()).hexdigest()
    os.makedirs(os.path.join(OUT, "log_extra"), exist_ok=True)
    for name in os.listdir(os.path.join(OUT, "log_extra")):
        os.remove(os.path.join(OUT, "log_extra", name))
    with open(os.path.join(OUT, "log_extra", f"completions_{WANDB_STEP}_{sha[:20]}.table.json"), "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
