#!/usr/bin/python3
"""Writes cmd/testdata/verl/: verl rollout dumps in the settings people run,
each written by verl's own dump code, with verl's own advantage beside
it (GRPO's; v1_multi's and gdpo's below), for cmd/verl_settings_test.go and
cmd/verl_notreproduced_test.go.

verl's functions are read from a checkout of verl-project/verl at COMMIT
(`git show`), not copied: their source is compiled here with stubs for
verl's other imports (Ray, TransferQueue, the tokenizer, DataProto).

    /usr/bin/python3 scripts/gen_verl_fixtures.py /path/to/verl/git [out_dir]

Needs Debian's python3-torch and python3-numpy. The output is the same on
every run (the prompts' uuid4 come from a seeded generator).

What runs, per setting (dir under cmd/testdata/verl/):

- legacy_duplicate: the legacy trainer (trainer.use_v1=false). uid is one
  uuid4 per prompt, repeated rollout.n times with interleave=True
  (RayPPOTrainer.fit); the dump is RayPPOTrainer._log_rollout_data and
  _write_generations, which write no uid. Two prompts of step 1 have the
  same text (a duplicated dataset row): verl groups them apart, a dump
  cannot.
- v1_uid: the V1 trainer (trainer.use_v1=true, the default). Each output's
  key is f"{uid}_{session_id}_{i}" (AgentLoopWorkerTQ._agent_loop_postprocess),
  collected in completion order; the dump is PPOTrainer._log_rollout_data
  (trainer_base.py), sorted by key, with the key as uid. Same duplicate.
- dapo_overlong: the legacy trainer with the DAPO reward manager
  (verl/workers/reward_manager/dapo.py, DAPORewardManager.__call__),
  overlong_buffer enable and log, a reward function returning a dict as
  math_dapo's does: the dump's score is the function's (before the
  penalty), overlong_reward a 0-d tensor written "tensor(-0.1875)" or 0.
- dapo_overlong_number: the same with a reward function returning a number:
  the dump's score is the trained reward, acc the function's.
- dapo_overlong_dict_acc: the same with a reward function returning a
  dict of score and a float acc only: the dump's fields are those of
  dapo_overlong_number, its score the function's (before the penalty).
- dapo_overlong_rounded: dapo_overlong's with overlong_buffer.len 7, whose
  penalties (k/7) the dump's text rounds to four decimals.
- nan_score: the legacy trainer with one score NaN.
- v1_multi: the V1 trainer with agent loops returning several outputs for
  some sessions (keys f"{uid}_{session_id}_{i}", i from 0), each output
  given its session's final score (_agent_loop_postprocess). Its advantage
  is compute_advantage_for_multi_trajectories (verl/trainer/ppo/v1/utils.py)
  under GRPO, with compute_advantage (ray_trainer.py): only each session's
  final output enters the group's mean and std, and every output gets that
  output's advantage. rewardlens does not reproduce it (it warns).
- gdpo: the legacy trainer, a reward function returning a dict of score,
  accuracy_reward and format_reward, responses of 2 to 9 tokens, one prompt
  of one sample; its advantage is compute_gdpo_outcome_advantage
  (core_algos.py, gdpo_reward_keys accuracy_reward and format_reward), with
  masked_whiten (verl/utils/torch_functional.py) over the response tokens.
  rewardlens does not reproduce it (it warns).

Elsewhere the advantage is compute_grpo_outcome_advantage (core_algos.py) with
epsilon 1e-6 and the trainer's index (the prompt's uid). verl computes it on
its float32 reward tensor; here the same rewards (exact in float32) go in as
float64, so that the comparison is of the formula, to 1e-9, not of float32
rounding (about 1e-7).

expected_advantage.txt holds one line per dump line, in file order (steps
ascending, lines as written): "STEP LINE ADVANTAGE", ADVANTAGE as Python's
repr (nan included).
"""

import ast
import contextlib
import json
import os
import random
import subprocess
import sys
import textwrap
import types
import uuid
from collections import defaultdict

import numpy as np
import torch

COMMIT = "1dda039b9c6311889a9c9a26040677e1254814f9"
EPSILON = 1e-6  # compute_grpo_outcome_advantage's default, the trainer's


def source(repo, path):
    return subprocess.check_output(["git", "--git-dir", repo, "show", f"{COMMIT}:{path}"], text=True)


def segment(text, node, with_decorators=False):
    lines = text.splitlines(keepends=True)
    start = node.lineno
    if with_decorators and node.decorator_list:
        start = min(d.lineno for d in node.decorator_list)
    return textwrap.dedent("".join(lines[start - 1 : node.end_lineno]))


def find(text, *names, with_decorators=False):
    """The source of names[-1], inside the classes names[:-1]."""
    body = ast.parse(text).body
    node = None
    for name in names:
        node = next(n for n in body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == name)
        body = node.body
    return segment(text, node, with_decorators)


def compile_in(code, ns):
    exec(compile(code, "<verl>", "exec"), ns)
    return ns


class Tokenizer:
    """A tokenizer whose token k decodes to VOCAB[k] (0 is the pad token):
    the prompts' pieces are what a chat template leaves once its special
    tokens are skipped (Qwen's: "system\n...\nuser\n...\nassistant\n"),
    the responses' are words."""

    eos_token = "</s>"
    pad_token_id = 0

    def decode(self, ids, skip_special_tokens=True):
        return "".join(VOCAB[int(i)] for i in ids if int(i) != 0)

    def batch_decode(self, rows, skip_special_tokens=True):
        return [self.decode(r) for r in rows]


RESPONSE_WORDS = "the answer is 42 so we get 7 then 6 times 7 a prime 2 3 5 and 1024 because 2 ** 10 check again wait".split()
VOCAB = ["<pad>"] + [w + " " for w in RESPONSE_WORDS]
SYSTEM = "system\nYou are a helpful assistant.\nuser\n"
GENERATION = "\nassistant\n"


def token(piece):
    if piece not in VOCAB:
        VOCAB.append(piece)
    return VOCAB.index(piece)


def prompt_ids(question):
    """The prompt's tokens: the system turn, the question, the generation
    prompt."""
    return [token(SYSTEM), token(question), token(GENERATION)]


class Item:
    def __init__(self, batch, non_tensor_batch):
        self.batch, self.non_tensor_batch = batch, non_tensor_batch


class Data:
    """What verl's code reads of a DataProto."""

    def __init__(self, batch, non_tensor_batch):
        self.batch, self.non_tensor_batch, self.meta_info = batch, non_tensor_batch, {}

    def __len__(self):
        return len(next(iter(self.batch.values())))

    def select_idxs(self, idxs):
        return Data({k: v[idxs] for k, v in self.batch.items()}, {k: v[idxs] for k, v in self.non_tensor_batch.items()})

    def __getitem__(self, i):
        return Item({k: v[i] for k, v in self.batch.items()}, {k: v[i] for k, v in self.non_tensor_batch.items()})

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def seeded_uuid4(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def pad_rows(rows, left):
    width = max(len(r) for r in rows)
    out = torch.zeros(len(rows), width, dtype=torch.int64)
    mask = torch.zeros(len(rows), width, dtype=torch.int64)
    for i, r in enumerate(rows):
        if left:
            out[i, width - len(r) :] = torch.tensor(r)
            mask[i, width - len(r) :] = 1
        else:
            out[i, : len(r)] = torch.tensor(r)
            mask[i, : len(r)] = 1
    return out, mask


class Verl:
    def __init__(self, repo):
        algos = source(repo, "verl/trainer/ppo/core_algos.py")
        self.grpo = compile_in(
            find(algos, "compute_grpo_outcome_advantage"),
            {"torch": torch, "np": np, "defaultdict": defaultdict, "Optional": __import__("typing").Optional, "AlgoConfig": object},
        )["compute_grpo_outcome_advantage"]
        legacy = source(repo, "verl/trainer/ppo/ray_trainer.py")
        ns = {"os": os, "json": json, "np": np, "torch": torch, "marked_timer": lambda *a, **k: contextlib.nullcontext()}
        self.legacy_write = compile_in(find(legacy, "RayPPOTrainer", "_write_generations"), dict(ns))["_write_generations"]
        self.legacy_log = compile_in(find(legacy, "RayPPOTrainer", "_log_rollout_data"), dict(ns, DataProto=Data))["_log_rollout_data"]
        v1 = source(repo, "verl/trainer/ppo/v1/trainer_base.py")
        self.v1_tq = types.SimpleNamespace()
        self.v1_write = compile_in(find(v1, "PPOTrainer", "_write_generations"), dict(ns))["_write_generations"]
        self.v1_log = compile_in(
            find(v1, "PPOTrainer", "_log_rollout_data"), dict(ns, tq=self.v1_tq, KVBatchMeta=object)
        )["_log_rollout_data"]
        # compute_advantage_for_multi_trajectories on top of compute_advantage,
        # both under GRPO alone: only the names they read are given.
        estimators = types.SimpleNamespace(GAE="gae", GRPO="grpo", GDPO="gdpo")
        core = types.SimpleNamespace(AdvantageEstimator=estimators, compute_grpo_outcome_advantage=self.grpo)
        self.compute_advantage = compile_in(
            find(legacy, "compute_advantage"), {"core_algos": core, "AdvantageEstimator": estimators, "DataProto": Data, "AlgoConfig": object, "Optional": __import__("typing").Optional}
        )["compute_advantage"]
        self.multi = compile_in(
            find(source(repo, "verl/trainer/ppo/v1/utils.py"), "compute_advantage_for_multi_trajectories"),
            {"core_algos": core, "compute_advantage": self.compute_advantage, "DataProto": Data, "Any": object, "torch": torch},
        )["compute_advantage_for_multi_trajectories"]
        tf = source(repo, "verl/utils/torch_functional.py")
        functional = {"torch": torch}
        for name in ("masked_sum", "masked_mean", "masked_var", "masked_whiten"):
            compile_in(find(tf, name), functional)
        self.gdpo = compile_in(
            find(algos, "compute_gdpo_outcome_advantage"),
            {"torch": torch, "np": np, "Optional": __import__("typing").Optional, "AlgoConfig": object, "register_adv_est": lambda name: (lambda f: f),
             "AdvantageEstimator": estimators, "compute_grpo_outcome_advantage": self.grpo, "verl_F": types.SimpleNamespace(masked_whiten=functional["masked_whiten"])},
        )["compute_gdpo_outcome_advantage"]
        abstract = source(repo, "verl/workers/reward_manager/abstract.py")
        base = compile_in(
            "class AbstractRewardManager:\n" + textwrap.indent(find(abstract, "AbstractRewardManager", "_extract_reward_from_rm_scores"), "    "),
            {"torch": torch, "DataProto": Data, "Any": object},
        )["AbstractRewardManager"]
        dapo = source(repo, "verl/workers/reward_manager/dapo.py")
        self.dapo = compile_in(
            find(dapo, "DAPORewardManager", with_decorators=True),
            {"torch": torch, "defaultdict": defaultdict, "DataProto": Data, "register": lambda name: (lambda c: c), "AbstractRewardManager": base, "default_compute_score": None},
        )["DAPORewardManager"]

    def advantage(self, rewards, index):
        """verl's GRPO advantage per row (the first response token's)."""
        rewards = torch.tensor(rewards, dtype=torch.float64).unsqueeze(-1)
        adv, _ = self.grpo(token_level_rewards=rewards, response_mask=torch.ones_like(rewards), index=np.array(index, dtype=object), epsilon=EPSILON)
        return adv[:, 0].tolist()


def legacy_step(verl, out, step, batch, reward_tensor, reward_extra_infos_dict):
    """RayPPOTrainer._log_rollout_data on the step's batch."""
    trainer = types.SimpleNamespace(tokenizer=Tokenizer(), global_steps=step)
    trainer._dump_generations = lambda inputs, outputs, gts, scores, reward_extra_infos_dict, dump_path: verl.legacy_write(
        inputs, outputs, gts, scores, reward_extra_infos_dict, dump_path, step
    )
    batch.batch["token_level_scores"] = reward_tensor
    verl.legacy_log(trainer, batch, reward_extra_infos_dict, {}, out)


def legacy_batch(rng, prompts, n, responses):
    """The legacy trainer's batch: one uuid4 per prompt, repeated n times
    with interleave=True (each prompt's n rows together); responses[i] is
    row i's response ids."""
    uids = [seeded_uuid4(rng) for _ in prompts]
    rows = [(p, u) for p, u in zip(prompts, uids) for _ in range(n)]
    p_ids, p_mask = pad_rows([prompt_ids(p) for p, _ in rows], left=True)
    r_ids, r_mask = pad_rows(responses, left=False)
    batch = {"prompts": p_ids, "responses": r_ids, "attention_mask": torch.cat([p_mask, r_mask], dim=1)}
    non_tensor = {
        "uid": np.array([u for _, u in rows], dtype=object),
        "reward_model": np.array([{"ground_truth": "42"} for _ in rows], dtype=object),
        "data_source": np.array(["math_dapo"] * len(rows), dtype=object),
        "extra_info": np.array([{} for _ in rows], dtype=object),
    }
    return Data(batch, non_tensor), r_mask


def outcome_tensor(scores, r_mask):
    """A reward tensor with each row's score on its last response token,
    as the reward managers place it."""
    t = torch.zeros(r_mask.shape, dtype=torch.float32)
    for i, s in enumerate(scores):
        t[i, int(r_mask[i].sum()) - 1] = s
    return t


def expected_lines(step, advantages):
    return [f"{step} {i} {a!r}\n" for i, a in enumerate(advantages)]


def header(setting, how):
    return [
        f"# {setting}: verl's GRPO advantage of each dump line, compute_grpo_outcome_advantage\n",
        f"# (verl/trainer/ppo/core_algos.py) at verl-project/verl {COMMIT},\n",
        f"# epsilon {EPSILON}, index {how}; written by scripts/gen_verl_fixtures.py.\n",
        "# STEP LINE ADVANTAGE\n",
    ]


def responses_of(rng, lengths):
    return [[rng.randrange(1, len(RESPONSE_WORDS) + 1) for _ in range(k)] for k in lengths]


def gen_plain_legacy(verl, root, setting, steps):
    """A legacy run whose reward function returns a number (the naive
    reward manager: reward_extra_info acc = score). steps: (prompts, n,
    scores)."""
    rng = random.Random(setting)
    dump = os.path.join(root, setting, "dump")
    lines = header(setting, "the prompt's uid (uuid4 per prompt, repeat interleave=True)")
    for step, (prompts, n, scores) in enumerate(steps, start=1):
        batch, r_mask = legacy_batch(rng, prompts, n, responses_of(rng, [3] * (len(prompts) * n)))
        legacy_step(verl, dump, step, batch, outcome_tensor(scores, r_mask), {"acc": list(scores)})
        lines += expected_lines(step, verl.advantage(scores, batch.non_tensor_batch["uid"]))
    return lines


def v1_dump(verl, dump, step, keys, uids, p_rows, r_rows, rm_scores):
    """Writes step's V1 dump as PPOTrainer._log_rollout_data does, of the
    rows of keys (their uid, prompt and response tokens, rm_scores the
    outcome tensor), the transfer queue's batch answered from them; it
    returns the keys in the dump's line order (_log_rollout_data sorts
    them)."""

    class Nested(list):
        def to_padded_tensor(self, padding):
            return self

    data = {
        "uid": np.array(uids, dtype=object),
        "prompts": Nested(p_rows),
        "responses": Nested(r_rows),
        "rm_scores": rm_scores,
        "reward_model": np.array([{"ground_truth": "42"} for _ in uids], dtype=object),
    }
    verl.v1_tq.kv_batch_get = lambda keys, partition_id, select_fields: dict((f, data[f]) for f in select_fields)
    trainer = types.SimpleNamespace(tokenizer=Tokenizer())
    trainer._dump_generations = lambda inputs, outputs, gts, scores, reward_extra_infos_dict, dump_path: verl.v1_write(
        inputs, outputs, gts, scores, reward_extra_infos_dict, dump_path, step
    )
    verl.v1_log(trainer, types.SimpleNamespace(keys=keys, partition_id="train"), {}, dump)
    with open(os.path.join(dump, f"{step}.jsonl")) as f:
        return [json.loads(line)["uid"] for line in f]


def gen_v1(verl, root, setting, steps):
    """V1: keys f"{uid}_{session_id}_{i}" (one output per session: i = 0),
    in completion order; PPOTrainer._log_rollout_data sorts them."""
    rng = random.Random(setting)
    dump = os.path.join(root, setting, "dump")
    lines = header(setting, "the uid field (the prompt's uuid4), as compute_advantage_for_multi_trajectories passes it")
    for step, (prompts, n, scores) in enumerate(steps, start=1):
        uids = [seeded_uuid4(rng) for _ in prompts]
        rows = [(p, u, s) for p, u in zip(prompts, uids) for s in range(n)]
        order = list(range(len(rows)))
        rng.shuffle(order)  # completion order
        keys = [f"{rows[i][1]}_{rows[i][2]}_0" for i in order]
        responses = responses_of(rng, [3] * len(rows))
        p_rows = [prompt_ids(rows[i][0]) for i in order]
        r_rows = [responses[i] for i in order]
        row_scores = [scores[i] for i in order]
        r_ids, r_mask = pad_rows(r_rows, left=False)
        dumped = v1_dump(verl, dump, step, keys, [rows[i][1] for i in order], p_rows, r_rows, outcome_tensor(row_scores, r_mask))
        adv = verl.advantage(row_scores, [rows[i][1] for i in order])
        lines += expected_lines(step, [adv[keys.index(k)] for k in dumped])
    return lines


def gen_v1_multi(verl, root, setting, steps):
    """V1 with sessions of several outputs: steps are (prompts, n, outputs,
    scores), outputs[j] and scores[j] the number of outputs and the final
    score of session j (prompt j // n, session j % n). Every output of a
    session has the final's score (_agent_loop_postprocess sets
    output.reward_score = final_output.reward_score). Keys are
    f"{uid}_{session_id}_{i}" in completion order; PPOTrainer._log_rollout_data
    sorts them. The advantage is compute_advantage_for_multi_trajectories's."""
    rng = random.Random(setting)
    dump = os.path.join(root, setting, "dump")
    lines = header(setting, "the uid field, under compute_advantage_for_multi_trajectories (only each session's final output in the group's mean and std)")
    for step, (prompts, n, outputs, scores) in enumerate(steps, start=1):
        uids = [seeded_uuid4(rng) for _ in prompts]
        rows = [(prompts[j // n], uids[j // n], j % n, i, scores[j]) for j in range(len(prompts) * n) for i in range(outputs[j])]
        order = list(range(len(rows)))
        rng.shuffle(order)  # completion order
        rows = [rows[i] for i in order]
        keys = [f"{u}_{sess}_{i}" for _, u, sess, i, _ in rows]
        r_rows = responses_of(rng, [3] * len(rows))
        r_ids, r_mask = pad_rows(r_rows, left=False)
        row_scores = [s for *_, s in rows]
        rm_scores = outcome_tensor(row_scores, r_mask)
        dumped = v1_dump(verl, dump, step, keys, [u for _, u, *_ in rows], [prompt_ids(p) for p, *_ in rows], r_rows, rm_scores)
        # PPOTrainer._compute_advantage's data: uid the prompt's (the
        # field AgentLoopWorkerTQ puts), rm_scores as token_level_rewards.
        batch = Data(
            {"token_level_rewards": rm_scores.double(), "response_mask": r_mask.double()},
            {"uid": np.array([u for _, u, *_ in rows], dtype=object)},
        )
        adv = verl.multi(batch, batch_keys=keys, adv_estimator="grpo").batch["advantages"][:, 0].tolist()
        lines += expected_lines(step, [adv[keys.index(k)] for k in dumped])
    return lines


def gen_gdpo(verl, root, setting, steps):
    """The legacy trainer with a reward function returning {"score",
    "accuracy_reward", "format_reward"}, score their sum: steps are
    (prompts, n, lengths, accuracy, format), n samples a prompt but 1 for
    the first prompt when single. The advantage is
    compute_gdpo_outcome_advantage's, on gdpo_reward_keys accuracy_reward
    and format_reward (placed on the last response token as verl does),
    the first response token's."""
    rng = random.Random(setting)
    dump = os.path.join(root, setting, "dump")
    lines = [
        f"# {setting}: verl's GDPO advantage of each dump line, compute_gdpo_outcome_advantage\n",
        f"# (verl/trainer/ppo/core_algos.py) at verl-project/verl {COMMIT},\n",
        "# gdpo_reward_keys accuracy_reward, format_reward, masked_whiten over the response tokens;\n",
        "# written by scripts/gen_verl_fixtures.py.\n",
        "# STEP LINE ADVANTAGE\n",
    ]
    for step, (prompts, n, lengths, accuracy, fmt) in enumerate(steps, start=1):
        uids = [seeded_uuid4(rng) for _ in prompts]
        rows = [(p, u) for k, (p, u) in enumerate(zip(prompts, uids)) for _ in range(1 if k == 0 else n)]
        p_ids, p_mask = pad_rows([prompt_ids(p) for p, _ in rows], left=True)
        r_ids, r_mask = pad_rows(responses_of(rng, lengths), left=False)
        batch = Data(
            {"prompts": p_ids, "responses": r_ids, "attention_mask": torch.cat([p_mask, r_mask], dim=1)},
            {"uid": np.array([u for _, u in rows], dtype=object), "accuracy_reward": np.array(accuracy), "format_reward": np.array(fmt)},
        )
        scores = [a + f for a, f in zip(accuracy, fmt)]
        legacy_step(verl, dump, step, batch, outcome_tensor(scores, r_mask), {"accuracy_reward": list(accuracy), "format_reward": list(fmt)})
        adv, _ = verl.gdpo(
            outcome_tensor(scores, r_mask), r_mask.float(), batch.non_tensor_batch["uid"], epsilon=EPSILON,
            config={"gdpo_reward_keys": ["accuracy_reward", "format_reward"]}, non_tensor_batch=batch.non_tensor_batch, batch=batch.batch,
        )
        lines += expected_lines(step, adv[:, 0].tolist())
    return lines


def gen_dapo(verl, root, setting, steps, returns, buffer_len=16):
    """DAPORewardManager(overlong_buffer enable, log) on each step; the
    reward function returns (returns) {"score", "acc", "pred"} as
    math_dapo's does ("dict"), {"score", "acc"} with a float acc
    ("score_acc") or the score alone ("number"); overlong_buffer.len is
    buffer_len, max_resp_len 20."""
    rng = random.Random(setting)
    dump = os.path.join(root, setting, "dump")
    lines = header(setting, "the prompt's uid (uuid4 per prompt, repeat interleave=True)")
    overlong = types.SimpleNamespace(enable=True, len=buffer_len, penalty_factor=1.0, log=True)
    for step, (prompts, n, lengths, scores) in enumerate(steps, start=1):
        batch, r_mask = legacy_batch(rng, prompts, n, responses_of(rng, lengths))
        by_response = {}
        for i in range(len(batch)):
            by_response[Tokenizer().decode(batch.batch["responses"][i][: lengths[i]])] = scores[i]

        def compute_score(data_source, solution_str, ground_truth, extra_info):
            score = by_response[solution_str]
            if returns == "dict":
                return {"score": score, "acc": score > 0, "pred": "42" if score > 0 else "7"}
            if returns == "score_acc":
                return {"score": score, "acc": float(score > 0)}
            return score

        manager = verl.dapo(Tokenizer(), 0, compute_score, "data_source", max_resp_len=20, overlong_buffer_cfg=overlong)
        out = manager(batch, return_dict=True)
        reward_tensor = out["reward_tensor"]
        legacy_step(verl, dump, step, batch, reward_tensor, dict(out["reward_extra_info"]))
        lines += expected_lines(step, verl.advantage(reward_tensor.sum(-1).tolist(), batch.non_tensor_batch["uid"]))
    return lines


def main():
    repo = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "cmd", "testdata", "verl")
    verl = Verl(repo)
    same = "What is 6 * 7?"
    settings = {
        "legacy_duplicate": gen_plain_legacy(
            verl,
            root,
            "legacy_duplicate",
            [
                ([same, "Name a prime.", same], 4, [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0, 1.0]),
                (["Name a prime.", "What is 2 ** 10?"], 4, [1.0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0]),
            ],
        ),
        "v1_uid": gen_v1(
            verl,
            root,
            "v1_uid",
            [
                ([same, "Name a prime.", same], 4, [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0, 1.0]),
                (["Name a prime.", "What is 2 ** 10?"], 4, [1.0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0]),
            ],
        ),
        # max_resp_len 20, overlong_buffer.len 16: a response of k tokens
        # gets min(-(k - 4) / 16, 0): 0 up to 3 tokens, tensor(-0.) at 4,
        # tensor(-1.) at 20, multiples of 1/16 between (exact in four
        # decimals, as torch prints them).
        "dapo_overlong": gen_dapo(
            verl,
            root,
            "dapo_overlong",
            [
                (["What is 6 * 7?", "Name a prime."], 4, [2, 20, 7, 4, 12, 3, 20, 9], [1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0]),
                (["What is 2 ** 10?", "Name a prime."], 4, [5, 6, 20, 1, 16, 2, 11, 8], [1.0, -1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0]),
            ],
            returns="dict",
        ),
        "dapo_overlong_number": gen_dapo(
            verl,
            root,
            "dapo_overlong_number",
            [(["What is 6 * 7?", "Name a prime."], 4, [2, 20, 7, 4, 12, 3, 20, 9], [1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])],
            returns="number",
        ),
        # The fields of dapo_overlong_number, the score of dapo_overlong:
        # only the values tell whether the score holds the penalty.
        "dapo_overlong_dict_acc": gen_dapo(
            verl,
            root,
            "dapo_overlong_dict_acc",
            [(["What is 6 * 7?", "Name a prime."], 4, [2, 20, 7, 4, 12, 3, 20, 9], [1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])],
            returns="score_acc",
        ),
        # overlong_buffer.len 7: penalties k/7, which torch prints rounded
        # to four decimals ("tensor(-0.2857)").
        "dapo_overlong_rounded": gen_dapo(
            verl,
            root,
            "dapo_overlong_rounded",
            [(["What is 6 * 7?", "Name a prime."], 4, [2, 20, 15, 14, 12, 3, 17, 9], [1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])],
            returns="dict",
            buffer_len=7,
        ),
        "nan_score": gen_plain_legacy(
            verl,
            root,
            "nan_score",
            [(["What is 6 * 7?", "Name a prime."], 4, [1.0, float("nan"), 0.0, 1.0, 1.0, 0.0, 0.0, 0.5])],
        ),
    }
    settings["v1_multi"] = gen_v1_multi(
        verl,
        root,
        "v1_multi",
        [
            (["Find the file.", "List the tests.", "Fix the bug."], 4, [1, 3, 1, 2, 1, 1, 1, 1, 2, 1, 1, 3], [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
            (["Find the file.", "Run the build."], 4, [2, 1, 1, 1, 1, 1, 1, 1], [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]),
        ],
    )
    settings["gdpo"] = gen_gdpo(
        verl,
        root,
        "gdpo",
        [
            (
                ["What is 6 * 7?", "Name a prime.", "What is 2 ** 10?"],
                4,
                [4, 2, 9, 3, 7, 5, 2, 8, 6],
                [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
                [0.0, 0.5, 1.0, 0.0, 1.0, 0.5, 0.5, 1.0, 0.0],
            ),
        ],
    )
    for setting, lines in settings.items():
        with open(os.path.join(root, setting, "expected_advantage.txt"), "w") as f:
            f.writelines(lines)


if __name__ == "__main__":
    main()
