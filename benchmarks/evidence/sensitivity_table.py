# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/sensitivity_table.py. Writes to /tmp/j/."""
import json
from collections import defaultdict

rows = json.load(open("/tmp/j/sens.json"))
TH = {"ev": 0.6644144144144144, "noev": 0.6644144144144144, "ted": 0.4458064516129032}  # dev oracle thresholds
agg = defaultdict(lambda: defaultdict(list))
for r in rows:
    agg[(r["kind"], r["label"])][r["cfg"]].append(r)
print("| kind | label | n | refuted (ev) | proved (ev) | correct @dev-threshold: ted | transted no-ev | transted ev | mean score no-ev → ev |")
print("|---|---|---|---|---|---|---|---|---|")
tot = defaultdict(lambda: [0, 0])
for (kind, label), cfgs in agg.items():
    ev = cfgs["ev"]; n = len(ev)
    ref = sum(r["evidence"] == "refuted" for r in ev); prv = sum(r["evidence"] == "proved" for r in ev)
    def correct(cfg):
        rs = cfgs[cfg]; c = 0
        for r in rs:
            if r["score"] is None:
                pred = False
            elif r["evidence"] in ("proved", "refuted") and cfg == "ev":
                pred = r["evidence"] == "proved"
            else:
                pred = r["score"] >= TH[cfg]
            c += pred == label
        return c / len(rs)
    def ms(cfg):
        return sum(r["score"] or 0 for r in cfgs[cfg]) / len(cfgs[cfg])
    print(f"| {kind} | {'faithful' if label else 'change'} | {n} | {ref} | {prv} | {correct('ted'):.2f} | {correct('noev'):.2f} | {correct('ev'):.2f} | {ms('noev'):.3f} → {ms('ev'):.3f} |")
    for cfg in ("ted", "noev", "ev"):
        t = tot[(cfg, label)]; t[0] += correct(cfg) * n; t[1] += n
for (cfg, label), (c, n) in sorted(tot.items()):
    print(cfg, "faithful" if label else "change", f"{c/n:.3f}", n)
