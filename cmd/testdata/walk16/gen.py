import json, random
random.seed(7)
with open("run.jsonl","w") as f:
    for step in range(4):
        for p in range(6):
            for c in range(6):
                correct = 1 if random.random() < 0.3+0.1*step else 0
                fmt = 1 if random.random()<0.7 else 0
                safety = round(random.uniform(0.5,1.0),3)
                toks = random.randint(50,900)
                r = {"id":f"s{step}-p{p}-c{c}","batch":step,"group":f"prompt {p}: what is {p}*{p+3}?","step_count":toks//100,
                     "response":f"answer {c}", "metadata":{"correct":correct,"format":fmt,"safety":safety,"tokens":toks}}
                f.write(json.dumps(r)+"\n")
