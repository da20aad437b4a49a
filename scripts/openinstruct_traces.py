#!/usr/bin/python3
"""Writes cmd/testdata/openinstruct/{standard,centered}: rollout traces as
open-instruct's --save_traces writes them, by open-instruct's own code.

The code is allenai/open-instruct at COMMIT below, read with `git show`
from a clone given as the first argument (a bare mirror will do):

- open_instruct/rl_utils.py is imported whole (its own imports of
  open_instruct's data_types, logger_utils, model_utils and utils
  stubbed): save_rollout_metadata writes {run_name}_metadata.jsonl,
  save_rollouts_to_disk / _save_rollouts write the shards
  {run_name}_rollouts_{shard_idx:06d}.jsonl, one RolloutRecord a line.
- the advantage is the block of
  DataPreparationActor._data_preparation_loop in open_instruct/data_loader.py
  from `scores = np.array(batch.scores)` to its `raise ValueError`,
  executed as it is written (numpy's std: the population std, ddof 0),
  under advantage_normalization_type "standard" and "centered" (the
  default at COMMIT).

ROLLOUT_SHARD_SIZE is set to one step's samples (12) so that each step
goes to a shard of its own, as a long run's steps do past 10000 samples.

Run with Debian's python3 and python3-numpy, python3-torch:
    /usr/bin/python3 scripts/openinstruct_traces.py /work/.mirror/allenai+open-instruct/repo
"""

import os
import shutil
import subprocess
import sys
import textwrap
import types

import numpy as np

COMMIT = "e6c3044aa6201c8bfa4573c1b03142af599e730d"
RUN_NAME = "grpo_gsm8k__1__1764150000"
NUM_SAMPLES = 4  # StreamingDataLoaderConfig.num_samples_per_prompt_rollout's default
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cmd", "testdata", "openinstruct")

# Each step: 3 prompts of 4 samples, the scores of each, in order.
# open-instruct's verifiers score 10 for a right answer (the math
# verifier's default); the fractional ones stand for a judge's score.
STEPS = {
    1: [[10.0, 0.0, 0.0, 10.0], [1.5, 0.25, 3.0, 0.0], [10.0, 10.0, 0.0, 10.0]],
    # The second prompt scores the same four times: its std is 0, kept
    # as with filter_zero_std_samples=False.
    2: [[0.0, 0.0, 10.0, 0.0], [7.0, 7.0, 7.0, 7.0], [2.0, 9.5, 4.25, 0.125]],
}

# standard_equal_first: under "standard", a first step whose groups all
# score the same (early training, filter_zero_std_samples=False): the
# first shard cannot tell the normalisation, the second can.
STEPS_EQUAL_FIRST = {
    1: [[0.0, 0.0, 0.0, 0.0], [10.0, 10.0, 10.0, 10.0], [0.0, 0.0, 0.0, 0.0]],
    2: [[0.0, 10.0, 10.0, 0.0], [1.0, 2.0, 3.0, 10.0], [7.0, 7.0, 7.0, 7.0]],
}


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"{COMMIT}:{path}"], check=True, capture_output=True, text=True).stdout


def import_rl_utils(repo):
    """rl_utils.py as a module, open_instruct's other modules stubbed."""
    pkg = types.ModuleType("open_instruct")
    pkg.__path__ = []
    sys.modules["open_instruct"] = pkg
    for name in ("data_types", "model_utils"):
        mod = types.ModuleType(f"open_instruct.{name}")
        mod.__getattr__ = lambda attr: object  # only type hints read them
        sys.modules[f"open_instruct.{name}"] = mod
        setattr(pkg, name, mod)
    logger_utils = types.ModuleType("open_instruct.logger_utils")
    logger_utils.setup_logger = lambda name: __import__("logging").getLogger(name)
    utils = types.ModuleType("open_instruct.utils")
    utils.get_git_commit = lambda: os.environ.get("GIT_COMMIT", "unknown")  # utils.get_git_commit at COMMIT
    for name, mod in (("logger_utils", logger_utils), ("utils", utils)):
        sys.modules[f"open_instruct.{name}"] = mod
        setattr(pkg, name, mod)
    rl_utils = types.ModuleType("open_instruct.rl_utils")
    exec(compile(git_show(repo, "open_instruct/rl_utils.py"), "open_instruct/rl_utils.py", "exec"), rl_utils.__dict__)
    return rl_utils


def advantage_block(repo):
    """The advantage code of _data_preparation_loop, dedented."""
    lines = git_show(repo, "open_instruct/data_loader.py").splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip() == "scores = np.array(batch.scores)")
    end = next(i for i in range(start, len(lines)) if "Invalid advantage normalization type" in lines[i])
    return textwrap.dedent("\n".join(lines[start : end + 1]))


def main():
    repo = sys.argv[1]
    os.environ["GIT_COMMIT"] = COMMIT
    rl_utils = import_rl_utils(repo)
    rl_utils.ROLLOUT_SHARD_SIZE = 3 * NUM_SAMPLES
    block = advantage_block(repo)
    for name, mode, steps in (("standard", "standard", STEPS), ("centered", "centered", STEPS), ("standard_equal_first", "standard", STEPS_EQUAL_FIRST)):
        out = os.path.join(OUT, name)
        shutil.rmtree(out, ignore_errors=True)
        rl_utils.save_rollout_metadata(out, RUN_NAME, "allenai/Olmo-3-7B-Instruct-SFT")
        config = types.SimpleNamespace(num_samples_per_prompt_rollout=NUM_SAMPLES, advantage_normalization_type=mode)
        total = 0
        for step, groups in steps.items():
            scores = [s for g in groups for s in g]
            n = len(scores)
            batch = types.SimpleNamespace(
                queries=[[100 + p, 200 + p, 300 + step] for p in range(len(groups)) for _ in range(NUM_SAMPLES)],
                scores=scores,
                datasets=["ai2-adapt-dev/rlvr_gsm8k_zs"] * n,
                ground_truths=[str(7 * p + step) for p in range(len(groups)) for _ in range(NUM_SAMPLES)],
            )
            result = types.SimpleNamespace(
                responses=[[500 + i, 600 + i] for i in range(n)],
                finish_reasons=["length" if i % 5 == 4 else "stop" for i in range(n)],
                request_info=None,
                logprobs=[[-0.5 - i / 100, -1.25] for i in range(n)],
            )
            env = {"np": np, "batch": batch, "self": types.SimpleNamespace(config=config)}
            exec(block, env)
            rl_utils.save_rollouts_to_disk(out, RUN_NAME, step, batch, result, env["advantages"], NUM_SAMPLES, total)
            total += n
            rl_utils._rollout_executor.shutdown(wait=True)  # one step written before the next
            rl_utils._rollout_executor = rl_utils.ThreadPoolExecutor(max_workers=2)


if __name__ == "__main__":
    main()
