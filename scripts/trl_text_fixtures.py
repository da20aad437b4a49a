#!/usr/bin/python3
"""Writes cmd/testdata/trl/first_none: TRL completions tables whose first
row has a None reward, as text: the DataFrame log() builds (TRL's own
advantage, scripts/trl_fixtures.py) written by pandas' to_json as JSONL
(orient="records", lines=True) and as a JSON array (orient="records"),
NaN written null, and as a W&B run table ({"columns", "data"}) with null
in place of NaN.

With --log-extra, writes instead the table of reward functions that log
extra columns with log_extra (scripts/trl_fixtures.py's with_extra: a
float column, length, right after the rewards) as df.to_csv writes it
(the index column first, unnamed), as JSONL and as a JSON array: the
column order is all that tells length from a reward.

Run with Debian's python, python3-torch and python3-pandas:
    /usr/bin/python3 scripts/trl_text_fixtures.py cmd/testdata/trl/first_none
    /usr/bin/python3 scripts/trl_text_fixtures.py --log-extra cmd/testdata/trl/log_extra_text
"""

import json
import os
import sys

import pandas as pd

from trl_fixtures import ACC, FMT, G, QUESTIONS, Logs, Trainer, prompt, train, with_extra

# accuracy_reward None in the first row; format_reward None in the first
# row; a third reward function (code_reward) None for every completion.
CASES = {
    "accuracy_reward": dict(acc=[None] + ACC[1:]),
    "format_reward": dict(fmt=[None] + FMT[1:]),
}


def table(case):
    logs = Logs(generation_batch_size=16)
    if case == "all_none":
        prompts = [prompt(q) for q in QUESTIONS[:4] for _ in range(G)]
        logs.score(Trainer(3), ["accuracy_reward", "format_reward", "code_reward"], prompts,
                   [(a, f, None) for a, f in zip(ACC, FMT)], G)
    else:
        train(Trainer(2), logs, **CASES[case])
    return pd.DataFrame({c["name"]: c["values"] for c in logs.table(1)})


def main(out):
    os.makedirs(out, exist_ok=True)
    for case in [*CASES, "all_none"]:
        df = table(case)
        df.to_json(os.path.join(out, case + ".jsonl"), orient="records", lines=True)
        df.to_json(os.path.join(out, case + ".json"), orient="records")
        rows = [[None if isinstance(v, float) and v != v else v for v in row] for row in df.astype(object).values.tolist()]
        with open(os.path.join(out, case + ".table.json"), "w") as f:
            json.dump({"columns": list(df.columns), "data": rows}, f)


def main_log_extra(out):
    os.makedirs(out, exist_ok=True)
    logs = Logs(generation_batch_size=16)
    with_extra(Trainer(2), logs)
    df = pd.DataFrame({c["name"]: c["values"] for c in logs.table(1)})
    df.to_csv(os.path.join(out, "completions.csv"))
    df.to_json(os.path.join(out, "completions.jsonl"), orient="records", lines=True)
    df.to_json(os.path.join(out, "completions.json"), orient="records")


if __name__ == "__main__":
    if sys.argv[1] == "--log-extra":
        main_log_extra(sys.argv[2])
    else:
        main(sys.argv[1])
