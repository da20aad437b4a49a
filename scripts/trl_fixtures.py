#!/usr/bin/python3
"""Writes cmd/testdata/trl/fixtures.json: the rows TRL's GRPOTrainer writes
to OUTPUT_DIR/completions/completions_{step:05d}.parquet in the settings
people run, each with the advantage TRL computes, by TRL's own code.

TRL read at huggingface/trl f2cd57710ae345ea6428ae95363267fcf38a3dc8
(1.10.0.dev0). Copied verbatim from it, and run here under torch:
  - nanstd: trl/trainer/utils.py lines 857-885;
  - the advantage block of GRPOTrainer._generate_and_score_completions:
    trl/trainer/grpo_trainer.py lines 2676-2730 (unscorable_mask through
    nan_to_num), in Trainer.advantages below;
  - the advantage block of RLOOTrainer._generate_and_score_completions
    with beta 0 and no reward_clip_range: trl/trainer/rloo_trainer.py
    lines 1515-1519 and 1536-1561 (unscorable_mask, the weighted sum,
    then grouped_rewards through nan_to_num), in RLOO.advantages below;
  - None rewards become NaN as in GRPOTrainer._calculate_rewards (line 1663:
    `reward if reward is not None else torch.nan`, then a float32 tensor);
  - what log() writes (lines 3311-3326): step, prompt, completion, one
    column per reward function (self._logs["rewards"], in
    reward_func_names' order), the log_extra columns
    (self._logs["extra"], first seen order, keys sorted per flush: lines
    2759-2763) and advantage, each a deque of maxlen
    generation_batch_size (lines 1055-1061) that training and evaluation
    both extend (lines 2753-2763): evaluation logged at the step of a
    training log writes the same file with both kinds of rows.

Run with Debian's python and python3-torch (no other TRL import needed):
    /usr/bin/python3 scripts/trl_fixtures.py cmd/testdata/trl/fixtures.json
then write the Parquet files from it with
    go run ./sample_data/gentrainers -trl-fixtures cmd/testdata/trl/fixtures.json -out cmd/testdata/trl
"""

import json
import random
import sys
from collections import defaultdict, deque
from types import SimpleNamespace

import torch


# trl/trainer/utils.py lines 857-885, verbatim.
def nanstd(tensor: torch.Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> torch.Tensor:
    """
    Compute the standard deviation of a tensor, ignoring NaNs.

    Args:
        tensor (`torch.Tensor`):
            Input tensor.
        dim (`int` or `tuple[int, ...]`, *optional*):
            Dimension(s) to reduce. Defaults to all dimensions.
        keepdim (`bool`, *optional*, defaults to `False`):
            Whether to keep reduced dimensions.

    Returns:
        `torch.Tensor`:
            Standard deviation of the tensor, ignoring NaNs.
    """
    # Compute variance ignoring NaNs
    mean = torch.nanmean(tensor, dim=dim, keepdim=True)
    variance = torch.nanmean((tensor - mean) ** 2, dim=dim, keepdim=True)
    count = torch.sum(~torch.isnan(tensor), dim=dim, keepdim=True)  # count of non-NaN values
    correction = count / (count - 1)
    correction = torch.where(count > 1, correction, torch.full_like(correction, float("nan")))
    variance *= correction  # Bessel's correction
    std = torch.sqrt(variance)
    if keepdim:
        return std
    if dim is None:
        return std.squeeze()
    if isinstance(dim, int):
        return std.squeeze(dim)
    dims = [(d if d >= 0 else d + std.ndim) for d in dim]
    for d in sorted(dims, reverse=True):
        std = std.squeeze(d)
    return std


class Trainer:
    """The GRPOTrainer attributes the advantage block reads."""

    def __init__(self, num_reward_funcs, reward_weights=None, scale_rewards="group",
                 multi_objective_aggregation="sum_then_normalize"):
        self.reward_funcs = [None] * num_reward_funcs
        # GRPOTrainer.__init__, lines 528-536.
        if reward_weights is not None:
            self.reward_weights = torch.tensor(reward_weights, dtype=torch.float32)
        else:
            self.reward_weights = torch.ones(num_reward_funcs, dtype=torch.float32)
        self.scale_rewards = scale_rewards
        self.multi_objective_aggregation = multi_objective_aggregation

    def advantages(self, rewards_per_func, num_generations):
        device = rewards_per_func.device
        # trl/trainer/grpo_trainer.py lines 2676-2730, verbatim.
        # A completion for which every reward function returned None is unscorable. nansum would collapse it to 0,
        # which both biases the per-group baseline and hands the completion a spurious advantage. Mark these rows NaN
        # so they're excluded from the (nan-aware) baseline below; their advantage is forced to 0 afterwards.
        unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)

        if self.multi_objective_aggregation == "sum_then_normalize":
            # Apply weights to each reward function's output and sum
            rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)
            rewards[unscorable_mask] = torch.nan
            mean_grouped_rewards = torch.nanmean(rewards.view(-1, num_generations), dim=1)
            mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(num_generations, dim=0)
            if self.scale_rewards in ["group", "none"]:
                # If self.scale_rewards = "none", we'll only use std_rewards to check for zero std for logging
                if num_generations > 1:
                    std_rewards = nanstd(rewards.view(-1, num_generations), dim=1)
                    std_rewards = std_rewards.repeat_interleave(num_generations, dim=0)
                else:  # doesn't occur during training, but could occur in eval when num_generations_eval=1
                    std_rewards = torch.zeros_like(rewards)
            elif self.scale_rewards == "batch":
                # Compute global std
                if rewards.numel() > 1:
                    std_rewards = nanstd(rewards).expand_as(rewards)
                else:  # doesn't occur during training, but could occur in eval when num_generations_eval=batch_size=1
                    std_rewards = torch.zeros_like(rewards)
            else:
                raise ValueError(
                    f"Invalid value for scale_rewards: {self.scale_rewards}. Must be one of 'batch', 'group', or 'none'."
                )

            advantages = rewards - mean_grouped_rewards
            if self.scale_rewards != "none":
                advantages = advantages / (std_rewards + 1e-4)
            is_std_zero = torch.isclose(std_rewards, torch.zeros_like(std_rewards))  # for logging

        elif self.multi_objective_aggregation == "normalize_then_sum":
            grouped = rewards_per_func.view(-1, num_generations, len(self.reward_funcs))
            mean_k = torch.nanmean(grouped, dim=1, keepdim=True)
            std_k = nanstd(grouped, dim=1, keepdim=True) if num_generations > 1 else torch.zeros_like(mean_k)
            reward_k = (grouped - mean_k) / (std_k + 1e-4)
            reward_k = reward_k.view(-1, len(self.reward_funcs))
            rewards = (reward_k * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)
            rewards[unscorable_mask] = torch.nan
            std_rewards = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
            advantages = (rewards - torch.nanmean(rewards)) / (std_rewards + 1e-4)
            is_std_zero = torch.isclose(std_rewards, torch.zeros_like(std_rewards))  # for logging

        else:
            raise ValueError(
                f"Invalid multi_objective_aggregation: {self.multi_objective_aggregation}. Must be "
                "'sum_then_normalize' or 'normalize_then_sum'."
            )

        # Unscorable completions (every reward func returned None) carry no learning signal: their reward is NaN here,
        # so zero their advantage to keep them from moving the policy.
        advantages = torch.nan_to_num(advantages, nan=0.0)
        return advantages


class RLOO:
    """The RLOOTrainer attributes its advantage block reads (beta 0, no
    reward_clip_range: no KL term, no clamp)."""

    def __init__(self, num_reward_funcs, normalize_advantages=False, reward_weights=None):
        # RLOOTrainer.__init__, lines 448-456.
        if reward_weights is not None:
            self.reward_weights = torch.tensor(reward_weights, dtype=torch.float32)
        else:
            self.reward_weights = torch.ones(num_reward_funcs, dtype=torch.float32)
        self.normalize_advantages = normalize_advantages

    def advantages(self, rewards_per_func, num_generations):
        device = rewards_per_func.device
        # trl/trainer/rloo_trainer.py lines 1515-1519, verbatim.
        unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)

        # Apply weights to each reward function's output and sum
        rewards = (rewards_per_func * self.reward_weights.to(device).unsqueeze(0)).nansum(dim=1)
        rewards[unscorable_mask] = torch.nan

        # lines 1536-1561, verbatim.
        grouped_rewards = rewards.view(-1, num_generations)
        mean_grouped_rewards = torch.nanmean(grouped_rewards, dim=1)
        if num_generations > 1:
            std_rewards = nanstd(grouped_rewards, dim=1)
        else:  # doesn't occur during training, but could occur in eval when num_generations_eval=1
            std_rewards = torch.zeros_like(mean_grouped_rewards)

        # RLOO advantages computation. The leave-one-out baseline averages over scorable siblings only: nansum drops
        # unscorable rewards and the divisor is (scorable count − 1). A group with a single scorable completion yields
        # 0/0 = NaN, and unscorable rows stay NaN; both are zeroed by nan_to_num below.
        scorable_counts = (~torch.isnan(grouped_rewards)).sum(dim=1, keepdim=True)  # (num_prompts, 1)
        grouped_sum = torch.nansum(grouped_rewards, dim=1, keepdim=True)  # (num_prompts, 1)
        if num_generations > 1:
            baselines = (grouped_sum - grouped_rewards) / (scorable_counts - 1)  # (num_prompts, num_generations)
            baselines = baselines.view(-1)  # Flatten back to match rewards shape
            advantages = rewards - baselines
        else:  # this case doesn't occur during training, but could in eval when num_generations_eval=1
            advantages = torch.zeros_like(rewards)

        # Normalize advantages over the scorable subset only (unscorable advantages are still NaN here).
        if self.normalize_advantages:
            advantages = (advantages - torch.nanmean(advantages)) / (nanstd(advantages) + 1e-4)

        # Unscorable completions carry no learning signal: zero their advantage to keep them from moving the policy.
        advantages = torch.nan_to_num(advantages, nan=0.0)
        return advantages


class Logs:
    """GRPOTrainer._logs (lines 1055-1061) and what log() writes of it."""

    def __init__(self, generation_batch_size):
        n = generation_batch_size
        self.prompt = deque(maxlen=n)
        self.completion = deque(maxlen=n)
        self.rewards = defaultdict(lambda: deque(maxlen=n))
        self.advantages = deque(maxlen=n)
        self.extra = defaultdict(lambda: deque(maxlen=n))

    def score(self, trainer, names, prompts, rewards, num_generations, extra=None):
        """One _generate_and_score_completions: rewards[i][k] is reward
        function k's output for completion i (None allowed)."""
        # _calculate_rewards, line 1663: None becomes NaN, in float32.
        columns = [[r if r is not None else torch.nan for r in col] for col in zip(*rewards)]
        rewards_per_func = torch.stack([torch.tensor(c, dtype=torch.float32) for c in columns], dim=1)
        advantages = trainer.advantages(rewards_per_func, num_generations)
        # lines 2753-2763
        self.prompt.extend(prompts)
        self.completion.extend(f"<think>Attempt {i % num_generations + 1}.</think> The answer is {i}." for i in range(len(prompts)))
        for i, name in enumerate(names):
            self.rewards[name].extend(rewards_per_func[:, i].tolist())
        self.advantages.extend(advantages.tolist())
        for column in sorted(extra or {}):
            self.extra[column].extend(extra[column])

    def table(self, step):
        """log(), lines 3311-3318: the DataFrame's columns, in order, and
        the Parquet type to_parquet gives each (pandas' dtype of the
        values: int64, object of str, float64)."""
        table = {
            "step": [step] * len(self.prompt),
            "prompt": list(self.prompt),
            "completion": list(self.completion),
            **{k: list(v) for k, v in self.rewards.items()},
            **{k: list(v) for k, v in self.extra.items()},
            "advantage": list(self.advantages),
        }
        columns = []
        for name, values in table.items():
            kind = "string" if isinstance(values[0], str) else "int64" if isinstance(values[0], int) else "double"
            columns.append({"name": name, "type": kind, "values": [None if isinstance(v, float) and v != v else v for v in values]})
        return columns


def prompt(q):
    return "<|im_start|>user\n" + q + "<|im_end|>\n<|im_start|>assistant\n"


QUESTIONS = ["Solve x + 3 = 5.", "Factor x^2 - 1.", "What is 15% of 80?", "Is 91 prime?", "Sum 1..10?", "Derive x^3."]

# Rewards of 4 prompts x 4 generations, two reward functions
# (accuracy_reward, None where the gold answer cannot be parsed, and a
# graded format reward).
ACC = [1, 0, 1, 1, 0, 0, None, 1, 1, 1, 1, 0, 0, 1, 0, None]
FMT = [0.5, 1, 0.25, 1, 1, 0.75, 1, 0.5, 0, 1, 1, 0.5, 0.25, 0.25, 1, 0.75]
G = 4


def train(trainer, logs, names=("accuracy_reward", "format_reward"), questions=QUESTIONS[:4], acc=ACC, fmt=FMT, extra=None):
    prompts = [prompt(q) for q in questions for _ in range(G)]
    logs.score(trainer, list(names), prompts, list(zip(acc, fmt)), G, extra)


def fixture(name, what, trainer, step=1, build=None, generation_batch_size=16):
    logs = Logs(generation_batch_size)
    (build or train)(trainer, logs)
    return {"name": name, "setting": what, "step": step, "columns": logs.table(step)}


def with_extra(trainer, logs):
    # A reward function's log_extra calls (lines 1587-1596): the completion
    # length (float), the parsed answer (text) and a similarity (float).
    extra = {
        "length": [float(37 + 5 * i) for i in range(16)],
        "parsed_answer": [str(i % 5) for i in range(16)],
        "similarity": [round(0.05 * ((7 * i) % 20), 2) for i in range(16)],
    }
    train(trainer, logs, extra=extra)


def eval_same_step(trainer, logs):
    # A training step, then evaluation at the same global step with
    # num_generations_eval 2 and 3 eval prompts (6 rows): the deques keep
    # the last 16 rows, and log() in eval mode writes them to the same file.
    train(trainer, logs)
    eval_trainer = Trainer(2)
    eval_prompts = [prompt(q) for q in ["Eval: 2 + 2?", "Eval: 3 * 3?", "Eval: 10 / 4?"] for _ in range(2)]
    logs.score(eval_trainer, ["accuracy_reward", "format_reward"], eval_prompts,
               [(1, 1), (0, 0.5), (1, 0.25), (1, 1), (0, 1), (1, 0.5)], 2)


def duplicate_prompt(trainer, logs):
    # A dataset with a duplicated row: prompts 0 and 2 have the same text;
    # TRL groups by position (view(-1, num_generations)), so they are two
    # groups.
    train(trainer, logs, questions=[QUESTIONS[0], QUESTIONS[1], QUESTIONS[0], QUESTIONS[3]])


def eval_only(trainer, logs):
    # Evaluation with num_generations_eval 2 over 8 eval prompts (16 rows)
    # fills the deques: log() in eval mode writes evaluation rows only.
    eval_trainer = Trainer(2)
    eval_prompts = [prompt(f"Eval: {i} + {i}?") for i in range(8) for _ in range(2)]
    logs.score(eval_trainer, ["accuracy_reward", "format_reward"], eval_prompts, list(zip(ACC, FMT)), 2)


def with_prompt_extra(trainer, logs):
    # A reward function's log_extra of a value of the prompt (its ground
    # truth's length): a float column constant within each prompt, which
    # changes no group-normalised advantage.
    extra = {"gt_length": [float(len(q)) for q in QUESTIONS[:4] for _ in range(G)]}
    train(trainer, logs, extra=extra)


def with_token_count(trainer, logs):
    # A reward function's log_extra of each completion's token count, with
    # rewards where, weighted 1 and 0.5, three groups' sums have the shape
    # of accuracy's alone (format constant, or moving against accuracy):
    # accuracy alone reproduces more rows than the plain sum of both.
    extra = {"num_tokens": [float(20 + (37 * i) % 280) for i in range(16)]}
    acc = [0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0]
    fmt = [1, 1, 1, 1, 1, 0, 1, 1, 0.5, 1, 1, 0, 1, 1, 0.5, 1]
    train(trainer, logs, acc=acc, fmt=fmt, extra=extra)


def eval_pick(trainer, logs):
    # A training step, then evaluation at the same global step with
    # num_generations_eval 1 over 5 eval prompts (TRL's advantage 0 each):
    # the deques drop the first 5 training rows, the whole first group and
    # the first row of the second. The rewards are such that the training
    # rows' scale group reproduces every training row, while scale none
    # reproduces more rows of the table: the second group's 3 rows left
    # (the row dropped was at its mean, and its std plus 1e-4 is 1), the
    # rows at their group's mean, and the evaluation's 0s.
    spread = 2 ** 0.5 * (1 - 1e-4)  # the second group's std is 1 - 1e-4
    acc = [1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1]
    fmt = [0.5, 0.5, 0.5, 0.5,
           1, 2 - spread, 1 + spread / 2, 1 + spread / 2,
           0.5, 0.5, 0.5, 0.5,
           0.5, 0, 0, 0.5]
    train(trainer, logs, acc=acc, fmt=fmt)
    eval_trainer = Trainer(2)
    eval_prompts = [prompt(f"Eval: {i} * {i}?") for i in range(5)]
    logs.score(eval_trainer, ["accuracy_reward", "format_reward"], eval_prompts,
               [(1, 1), (0, 0.5), (1, 0.25), (0, 1), (1, 0.75)], 1)


def next_step(trainer, logs):
    # The run's next step: the other prompts, the rewards reversed.
    train(trainer, logs, questions=QUESTIONS[2:], acc=ACC[::-1], fmt=FMT[::-1])


def constant_format_8(trainer, logs):
    # num_generations=8 and a format reward of 0.2 for every completion
    # (TRL's default pair: accuracy in {0, 1} and a constant format): the
    # first prompt's sums are all 1.2, the second's all 0.2, whose float32
    # group mean is not exactly the float32 sum, so TRL logs a small equal
    # non-zero advantage for every member; the third's vary.
    acc = [1.0] * 8 + [0.0] * 8 + [1, 0, 0, 1, 1, 1, 0, 1]
    prompts = [prompt(q) for q in QUESTIONS[:3] for _ in range(8)]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, [(a, 0.2) for a in acc], 8)


def unscorable_tie_8(trainer, logs):
    # num_generations=8, a format reward of 0.2: the first prompt's
    # completions all right but its fourth, for which both reward
    # functions return None (unscorable: NaN, left out of the group's
    # nanmean and nanstd, its advantage 0); its seven sums tie at 1.2 and
    # carry TRL's float32 residue of them. The second's vary.
    acc = [1.0, 1.0, 1.0, None, 1.0, 1.0, 1.0, 1.0] + [1, 0, 0, 1, 1, 1, 0, 1]
    fmt = [0.2, 0.2, 0.2, None, 0.2, 0.2, 0.2, 0.2] + [0.2] * 8
    prompts = [prompt(q) for q in QUESTIONS[:2] for _ in range(8)]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, list(zip(acc, fmt)), 8)


def zero_format_8(trainer, logs):
    # num_generations=8, a graded accuracy and a format reward 0 for every
    # completion: the first two prompts' sums are all 0.9 and all 0.7,
    # whose float32 group means are not exactly those (TRL logs a small
    # equal advantage for each), the third's vary.
    acc = [0.9] * 8 + [0.7] * 8 + [1, 0, 1, 0, 1, 0, 1, 0]
    prompts = [prompt(q) for q in QUESTIONS[:3] for _ in range(8)]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, [(a, 0.0) for a in acc], 8)


def tie_weighted_8(trainer, logs):
    # num_generations=8 with reward_weights: the first prompt's weighted
    # sums are all 2 * 1 + 0.5 * 0.3, whose float32 group mean is not
    # exactly that sum (TRL logs a small equal advantage for each), the
    # others' vary in both rewards.
    acc = [1.0] * 8 + [0, 0, 1, 0, 1, 0, 1, 0] + [1, 0, 0, 1, 1, 1, 0, 1]
    fmt = [0.3] * 8 + [0.5, 1, 0, 0.5, 1, 1, 0, 0] + [1, 0.5, 0, 0, 1, 0.5, 0.5, 1]
    prompts = [prompt(q) for q in QUESTIONS[:3] for _ in range(8)]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, list(zip(acc, fmt)), 8)


def gdpo_constant_format(n, fmt_value):
    """num_generations=n, normalize_then_sum: accuracy in {0, 1} varying
    in every prompt, a format reward constant at fmt_value in the first
    three prompts' completions and fmt_value or 0 in the fourth's. Each
    constant format is normalised within its group to TRL's float32
    residue (its group mean off by an ulp, over an std of about an ulp),
    which the batch's normalisation shifts by its mean: the fourth
    group's rows carry a shift too."""
    acc = ([1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 0] * 4)[:4 * n]
    fmt = [fmt_value] * (3 * n) + ([0.0, fmt_value] * n)[:n]

    def build(trainer, logs):
        prompts = [prompt(q) for q in QUESTIONS[:4] for _ in range(n)]
        logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, list(zip(acc, fmt)), n)
    return build


def rloo_tied(n, last=None):
    """num_generations=n, the first three prompts' completions tied (all
    right or all wrong, a format reward constant at 0.2), the fourth's too
    or graded as last: the leave-one-out baselines of a tie are off by
    TRL's float32 residue, which normalize_advantages divides by the
    batch's std: of the residue's size when every group ties, far above it
    otherwise."""
    acc = [1.0] * n + [0.0] * n + [1.0] * n + (last or [0.0] * n)

    def build(trainer, logs):
        prompts = [prompt(q) for q in QUESTIONS[:4] for _ in range(n)]
        logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, [(a, 0.2) for a in acc], n)
    return build


def reward_model(center, between):
    """A fixture's build of num_generations=8 and one reward model's score
    near center, with a spread of about 0.01 within each prompt's group
    and of about between from one prompt to the next. Near 20 (between
    0.03), TRL's float32 mean and std of such values lose about 20 / 0.01
    ulps of the advantage, which differs from its exact value by up to
    some 2e-4; near 200 (between 0.003), under scale_rewards batch or none
    TRL's float32 mean alone loses more than 1e-4 of it. RLOOTrainer's
    leave-one-out baseline, a float32 sum of the others, loses more than
    1e-4 near 2000; its normalize_advantages divides that loss, some 1e-5
    near 20, by the batch's std of about 0.01. normalize_then_sum's group
    z-score near 20 loses as much as grpo's."""
    def build(trainer, logs):
        rnd = random.Random(4)
        scores = []
        for _ in range(8):
            offset = rnd.gauss(0, between)
            scores += [center + offset + rnd.gauss(0, 0.01) for _ in range(8)]
        prompts = [prompt(f"Rate answer {p}.") for p in range(8) for _ in range(8)]
        logs.score(trainer, ["reward_model"], prompts, [(s,) for s in scores], 8)
    return build


def reward_models(center):
    """A fixture's build of num_generations=8 and two reward models: one
    near center as reward_model's (spread 0.03 between prompts, 0.01
    within), one near 3 with a spread of about 0.005; near 20 their sum's
    std within a group is about 0.011, and TRL's float32 rounding is as
    large."""
    def build(trainer, logs):
        rnd = random.Random(5)
        rewards = []
        for _ in range(8):
            offset = rnd.gauss(0, 0.03)
            rewards += [(center + offset + rnd.gauss(0, 0.01), 3.0 + rnd.gauss(0, 0.005)) for _ in range(8)]
        prompts = [prompt(f"Rate answer {p}.") for p in range(8) for _ in range(8)]
        logs.score(trainer, ["reward_model", "judge_model"], prompts, rewards, 8)
    return build


def one_prompt_16(trainer, logs):
    # A dataset of one prompt, per_device_train_batch_size=16 and
    # num_generations=8: RepeatSampler gives the prompt both of the batch's
    # slots, so its 16 rows follow each other, and TRL normalises them as
    # two groups of 8 (view(-1, num_generations)).
    lengths = [0.0, -0.4, -0.9, -1.0, -1.5, -0.2, -2.0, -1.2, -0.6, -0.1, -1.8, -0.7, -1.1, -0.3, -1.4, -0.5]
    prompts = [prompt("Write a haiku about the sea.")] * 16
    logs.score(trainer, ["reward_len"], prompts, [(x,) for x in lengths], 8)


def duplicate_blocks_8(trainer, logs):
    # 4 prompts each drawn in two slots of the batch, num_generations=8:
    # the 4 prompts' blocks, then the same 4 again (64 rows, 8 groups).
    rnd = random.Random(6)
    prompts = [prompt(q) for _ in range(2) for q in QUESTIONS[:4] for _ in range(8)]
    rewards = [(float(rnd.random() < 0.5), float(rnd.random() < 0.8)) for _ in prompts]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, rewards, 8)


def cut_front_run_8(trainer, logs):
    # num_generations=8, 6 prompts, the first drawn in the batch's first
    # two slots (48 rows: its 16 in a row), then evaluation at the same
    # global step with num_generations_eval 2 over 3 eval prompts (6 rows):
    # the deques (maxlen 48) drop the first 6 training rows, so the table
    # opens with the first prompt's run of 10 rows, which TRL grouped 2 + 8
    # (the first group's last 2 rows, then the second group).
    rnd = random.Random(7)
    prompts = [prompt(q) for q in [QUESTIONS[0], *QUESTIONS[:5]] for _ in range(8)]
    rewards = [(float(rnd.random() < 0.5), float(rnd.choice([0, 0.25, 0.5, 1]))) for _ in prompts]
    logs.score(trainer, ["accuracy_reward", "format_reward"], prompts, rewards, 8)
    eval_trainer = Trainer(2)
    eval_prompts = [prompt(q) for q in ["Eval: 2 + 2?", "Eval: 3 * 3?", "Eval: 10 / 4?"] for _ in range(2)]
    logs.score(eval_trainer, ["accuracy_reward", "format_reward"], eval_prompts,
               [(1, 1), (0, 0.5), (1, 0.25), (1, 1), (0, 1), (1, 0.5)], 2)


def repeated_slots(trainer, logs):
    # The run's next step: two prompts, each drawn in two slots in a row
    # (a dataset of two prompts): runs of 8 rows, each two groups to TRL.
    train(trainer, logs, questions=[QUESTIONS[2], QUESTIONS[2], QUESTIONS[3], QUESTIONS[3]], acc=ACC[::-1], fmt=FMT[::-1])


def relogged(name, what):
    """num_iterations=2 (or steps_per_generation above
    gradient_accumulation_steps) with logging_steps=1: _prepare_inputs
    generates every steps_per_generation * num_iterations micro-steps, and
    log() at every step writes the deques, which nothing clears: steps 1
    and 2 write the rollouts of one generation, 3 and 4 of the next."""
    trainer, logs, tables = Trainer(2), Logs(generation_batch_size=16), []
    for step, build in ((1, train), (3, lambda trainer, logs: train(trainer, logs, questions=QUESTIONS[2:], acc=ACC[::-1], fmt=FMT[::-1]))):
        build(trainer, logs)
        for logged in (step, step + 1):
            tables.append({"name": name, "setting": what if logged == 1 else "", "step": logged, "columns": logs.table(logged)})
    return tables


FIXTURES = [
    fixture("group", "scale_rewards='group', sum_then_normalize, reward_weights None (TRL's defaults)", Trainer(2)),
    fixture("scale_batch", "scale_rewards='batch'", Trainer(2, scale_rewards="batch")),
    fixture("scale_none", "scale_rewards='none'", Trainer(2, scale_rewards="none")),
    fixture("reward_weights", "reward_weights=[1.0, 0.5]", Trainer(2, reward_weights=[1.0, 0.5])),
    fixture("normalize_then_sum", "multi_objective_aggregation='normalize_then_sum', accuracy_reward None twice",
            Trainer(2, multi_objective_aggregation="normalize_then_sum")),
    fixture("normalize_then_sum_weights", "normalize_then_sum with reward_weights=[1.0, 0.5], accuracy_reward None twice",
            Trainer(2, reward_weights=[1.0, 0.5], multi_objective_aggregation="normalize_then_sum")),
    fixture("log_extra", "reward functions logging extra columns with log_extra", Trainer(2), build=with_extra),
    fixture("scale_batch_weights_extra", "scale_rewards='batch', reward_weights=[1.0, 0.5], log_extra columns",
            Trainer(2, reward_weights=[1.0, 0.5], scale_rewards="batch"), build=with_extra),
    fixture("eval_same_step", "evaluation logged at the step of a training log (num_generations_eval=2)", Trainer(2),
            build=eval_same_step),
    # A run of three steps whose third table evaluation logging wrote over.
    fixture("eval_overwrite", "training steps 1 and 2, then evaluation logged at step 3", Trainer(2), step=1),
    fixture("eval_overwrite", "", Trainer(2), step=2,
            build=lambda trainer, logs: train(trainer, logs, questions=QUESTIONS[2:], acc=ACC[::-1], fmt=FMT[::-1])),
    fixture("eval_overwrite", "", Trainer(2), step=3, build=eval_only),
    fixture("duplicate_prompt", "one prompt twice in the batch (a duplicated dataset row)", Trainer(2),
            build=duplicate_prompt),
    fixture("log_extra_prompt_value", "a float log_extra column constant within each prompt (gt_length)", Trainer(2),
            build=with_prompt_extra),
    fixture("reward_weights_extra", "reward_weights=[1.0, 0.5] and a float log_extra column (num_tokens)",
            Trainer(2, reward_weights=[1.0, 0.5]), build=with_token_count),
    fixture("eval_pick", "evaluation logged at the step of a training log (num_generations_eval=1), where scale none "
            "reproduces more of the table's rows than the training's scale group", Trainer(2), build=eval_pick),
    # Two steps' tables, each of whose logs tells the weights' common factor
    # (epsilon beside a std near 1): of one run, or of two runs whose
    # weights have the same ratios but not the same factor.
    fixture("reward_weights_steps", "reward_weights=[2.0, 0.5], two steps", Trainer(2, reward_weights=[2.0, 0.5])),
    fixture("reward_weights_steps", "", Trainer(2, reward_weights=[2.0, 0.5]), step=2, build=next_step),
    fixture("reward_weights_changed", "reward_weights=[2.0, 0.5] at step 1, [4.0, 1.0] at step 2 (another run's table)",
            Trainer(2, reward_weights=[2.0, 0.5])),
    fixture("reward_weights_changed", "", Trainer(2, reward_weights=[4.0, 1.0]), step=2, build=next_step),
    fixture("constant_format_8", "num_generations=8, a format reward constant at 0.2 (TRL's defaults otherwise)",
            Trainer(2), build=constant_format_8, generation_batch_size=24),
    fixture("unscorable_tie_8", "num_generations=8, a format reward constant at 0.2, one completion of a prompt whose "
            "others tie unscorable (both rewards None)", Trainer(2), build=unscorable_tie_8),
    fixture("zero_format_8", "num_generations=8, a format reward 0 for every completion, two prompts whose sums tie",
            Trainer(2), build=zero_format_8, generation_batch_size=24),
    fixture("tie_weighted_8", "num_generations=8, reward_weights=[2.0, 0.5], a prompt whose weighted sums tie",
            Trainer(2, reward_weights=[2.0, 0.5]), build=tie_weighted_8, generation_batch_size=24),
    fixture("gdpo_constant_format_6", "num_generations=6, normalize_then_sum, a format reward constant at 0.9 in three "
            "prompts' completions", Trainer(2, multi_objective_aggregation="normalize_then_sum"),
            build=gdpo_constant_format(6, 0.9), generation_batch_size=24),
    fixture("gdpo_weighted_6", "num_generations=6, normalize_then_sum, reward_weights=[2.0, 0.5], a format reward "
            "constant at 0.9 in three prompts' completions",
            Trainer(2, reward_weights=[2.0, 0.5], multi_objective_aggregation="normalize_then_sum"),
            build=gdpo_constant_format(6, 0.9), generation_batch_size=24),
    fixture("gdpo_constant_format_8", "num_generations=8, normalize_then_sum, a format reward constant at 0.2 in three "
            "prompts' completions", Trainer(2, multi_objective_aggregation="normalize_then_sum"),
            build=gdpo_constant_format(8, 0.2), generation_batch_size=32),
    fixture("rloo_whitened_tied_7", "RLOOTrainer, num_generations=7, normalize_advantages=True, every prompt's "
            "completions tied", RLOO(2, normalize_advantages=True), build=rloo_tied(7), generation_batch_size=28),
    fixture("rloo_whitened_7", "RLOOTrainer, num_generations=7, normalize_advantages=True, three prompts' "
            "completions tied, the fourth's graded", RLOO(2, normalize_advantages=True),
            build=rloo_tied(7, last=[1, 0, 0, 1, 1, 0, 1]), generation_batch_size=28),
    fixture("reward_model_20", "num_generations=8, one reward model's score near 20 with a within-group std of "
            "about 0.01 (TRL's defaults otherwise)", Trainer(1), build=reward_model(20.0, 0.03), generation_batch_size=64),
    fixture("reward_model_200_batch", "scale_rewards='batch', num_generations=8, one reward model's score near 200 "
            "with a within-group std of about 0.01", Trainer(1, scale_rewards="batch"), build=reward_model(200.0, 0.003),
            generation_batch_size=64),
    fixture("reward_model_200_none", "scale_rewards='none', num_generations=8, one reward model's score near 200 "
            "with a within-group std of about 0.01", Trainer(1, scale_rewards="none"), build=reward_model(200.0, 0.003),
            generation_batch_size=64),
    fixture("reward_models_20", "num_generations=8, two reward models' scores near 20 and 3, their sum's within-group "
            "std about 0.011 (TRL's defaults otherwise)", Trainer(2), build=reward_models(20.0), generation_batch_size=64),
    fixture("reward_models_20_weights", "reward_models_20 with reward_weights=[1.0, 0.5]",
            Trainer(2, reward_weights=[1.0, 0.5]), build=reward_models(20.0), generation_batch_size=64),
    fixture("rloo_model_2000", "RLOOTrainer, num_generations=8, one reward model's score near 2000 with a within-group std "
            "of about 0.01 (TRL's defaults otherwise)", RLOO(1), build=reward_model(2000.0, 0.003), generation_batch_size=64),
    fixture("rloo_whitened_model_20", "RLOOTrainer, num_generations=8, normalize_advantages=True, one reward model's score "
            "near 20 with a within-group std of about 0.01", RLOO(1, normalize_advantages=True),
            build=reward_model(20.0, 0.03), generation_batch_size=64),
    fixture("gdpo_model_20", "num_generations=8, normalize_then_sum, one reward model's score near 20 with a "
            "within-group std of about 0.01", Trainer(1, multi_objective_aggregation="normalize_then_sum"),
            build=reward_model(20.0, 0.03), generation_batch_size=64),
    fixture("rloo_models_2000_weights", "RLOOTrainer, num_generations=8, reward_weights=[1.0, 0.5], two reward models "
            "near 2000 and 3", RLOO(2, reward_weights=[1.0, 0.5]), build=reward_models(2000.0), generation_batch_size=64),
    fixture("gdpo_models_40_weights", "num_generations=8, normalize_then_sum, reward_weights=[1.0, 0.5], two reward "
            "models near 40 and 3", Trainer(2, reward_weights=[1.0, 0.5], multi_objective_aggregation="normalize_then_sum"),
            build=reward_models(40.0), generation_batch_size=64),
    # Far from 0 the float32 errors of what is whitened pass 1% of its
    # std: the bound that says so is coarse, once switched off.
    *[fixture(f"rloo_whitened_models_{c}_weights", f"RLOOTrainer, num_generations=8, normalize_advantages=True, "
              f"reward_weights=[1.0, 0.5], two reward models near {c} and 3", RLOO(2, normalize_advantages=True,
              reward_weights=[1.0, 0.5]), build=reward_models(float(c)), generation_batch_size=64) for c in (100, 200, 2000)],
    *[fixture(f"gdpo_models_{c}_weights", f"num_generations=8, normalize_then_sum, reward_weights=[1.0, 0.5], two "
              f"reward models near {c} and 3", Trainer(2, reward_weights=[1.0, 0.5],
              multi_objective_aggregation="normalize_then_sum"), build=reward_models(float(c)), generation_batch_size=64)
      for c in (100, 200, 2000)],
    fixture("one_prompt_16", "a dataset of one prompt, per_device_train_batch_size=16, num_generations=8: one run of "
            "16 rows, two groups to TRL", Trainer(1), build=one_prompt_16),
    fixture("duplicate_blocks_8", "num_generations=8, 4 prompts each drawn in two slots of the batch: 8 groups of 8, "
            "each prompt's two apart", Trainer(2), build=duplicate_blocks_8, generation_batch_size=64),
    fixture("cut_front_run_8", "num_generations=8, a prompt in the batch's first two slots, evaluation logged at the step "
            "(num_generations_eval=2, 6 rows): the deques drop the first group's first 6 rows, the table opens with a "
            "run of 10 rows that TRL grouped 2 + 8", Trainer(2), build=cut_front_run_8, generation_batch_size=48),
    # Two steps of one run with reward_weights, the second's prompts each
    # drawn in two slots in a row: its runs of 8 rows are two groups each.
    fixture("reward_weights_runs", "reward_weights=[2.0, 0.5], two steps, the second's two prompts each in two slots in a "
            "row", Trainer(2, reward_weights=[2.0, 0.5])),
    fixture("reward_weights_runs", "", Trainer(2, reward_weights=[2.0, 0.5]), step=2, build=repeated_slots),
    *relogged("num_iterations_2", "num_iterations=2, logging_steps=1: each generation logged at two steps"),
]

if __name__ == "__main__":
    with open(sys.argv[1], "w") as f:
        json.dump({"trl_commit": "f2cd57710ae345ea6428ae95363267fcf38a3dc8", "fixtures": FIXTURES}, f, indent=1)
        f.write("\n")
