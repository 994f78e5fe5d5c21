"""Appends one benchmark result to target/bench/results.jsonl, the machine-readable results file the benchmarks
notebook reads (notebooks-export/4-benchmarks.ipynb, with REKEY_BENCHMARKS=target/bench/results.jsonl). Same fields
as docs/benchmarks.json, which holds the figures recorded in docs/benchmarks.md.

usage: python3 bench/record.py BENCH ROUND VARIANT BASELINE ROWS REKEY_S BASELINE_S RATIO TARGET
"""
import datetime
import json
import os
import sys

if len(sys.argv) != 10:
    sys.exit(__doc__)
bench, rnd, variant, baseline, rows, rekey_s, baseline_s, ratio, target = sys.argv[1:]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "bench")
os.makedirs(root, exist_ok=True)
result = dict(bench=bench, run=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              round=int(rnd), variant=variant, baseline=baseline, rows=int(rows),
              rekey_seconds=round(float(rekey_s), 2) if rekey_s else None,
              baseline_seconds=round(float(baseline_s), 2) if baseline_s else None,
              ratio=round(float(ratio), 3), target=float(target))
with open(os.path.join(root, "results.jsonl"), "a", encoding="utf-8") as f:
    f.write(json.dumps(result) + "\n")
