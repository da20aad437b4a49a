# verl reinforce_plus_plus_baseline as masked_whiten computes it, over tokens: responses of 1 to 5 tokens.
import json, math
groups = [[0.5, 0.5, 0.7, 0.9], [1.0, 1.0, 1.0, 1.0], [0.1, 0.4, 0.25, 0.6], [0.3,0.8,0.2,0.6]]
lengths = [1,3,2,4, 2,2,1,3, 4,1,2,3, 5,2,3,1]
rows=[]; c=[]
for p,g in enumerate(groups):
    m = sum(g)/len(g)
    for s in g:
        rows.append((p,s)); c.append(s-m)
# masked_whiten over tokens: each response's value repeated over its tokens
vals=[]; 
for ci,L in zip(c,lengths): vals += [ci]*L
N=len(vals); mean=sum(vals)/N
var=sum((v-mean)**2 for v in vals)/N * N/(N-1)
adv=[(ci-mean)/math.sqrt(var+1e-8) for ci in c]
with open("rpp_baseline_tokens.jsonl","w") as f:
    for (p,s),a in zip(rows,adv):
        f.write(json.dumps({"input":f"user\nQuestion {p}?\nassistant\n","output":"42","score":s,"step":1,"advantage":a})+"\n")
