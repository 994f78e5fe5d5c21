"""Appends one benchmark result to target/bench/results.jsonl, the benches' own records: bench/collect.py copies
them into docs/bench-records/ and builds docs/benchmarks.json (the notebook's figures) and the table at the top of
docs/benchmarks.md from those, never by hand.

usage: python3 bench/record.py BENCH ROUND VARIANT BASELINE ROWS REKEY_S BASELINE_S RATIO TARGET [warm-up]

RATIO is baseline / rekey (above 1: rekey is faster); TARGET the ratio aimed at, or "" for none; "warm-up" marks a
round that warms the JIT up (kept, left out of the figures). What names the run comes from the environment that
bench/lib/run-record.sh's bench_run_start sets in each bench/*/run.sh: BENCH_COMMAND, BENCH_STARTED, BENCH_COMMIT,
BENCH_LOAD_START; the load average at the end and the machine's cores and memory are read here.
"""
import datetime
import json
import os
import subprocess
import sys

if len(sys.argv) not in (10, 11):
    sys.exit(__doc__)
bench, rnd, variant, baseline, rows, rekey_s, baseline_s, ratio, target = sys.argv[1:10]
warm_up = len(sys.argv) == 11 and sys.argv[10] == "warm-up"
home = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def loadavg():
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def commit():
    try:
        return subprocess.run(["git", "-C", home, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip() + "+unchecked"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def memory_gib():
    with open("/proc/meminfo", encoding="ascii") as f:
        return round(int(f.readline().split()[1]) / 1024 / 1024)


result = dict(
    bench=bench, run=os.environ.get("BENCH_STARTED", now), round=int(rnd), warm_up=warm_up, variant=variant,
    baseline=baseline, rows=int(rows),
    rekey_seconds=round(float(rekey_s), 2) if rekey_s else None,
    baseline_seconds=round(float(baseline_s), 2) if baseline_s else None,
    ratio=round(float(ratio), 3), target=round(float(target), 3) if target else None,
    # "" when the bench was started some other way than its run.sh: such a record is not collected
    command=os.environ.get("BENCH_COMMAND", ""),
    commit=os.environ.get("BENCH_COMMIT") or commit(),
    recorded=now, load_start=os.environ.get("BENCH_LOAD_START"), load_end=loadavg(),
    cores=os.cpu_count(), memory_gib=memory_gib())
root = os.path.join(home, "target", "bench")
os.makedirs(root, exist_ok=True)
with open(os.path.join(root, "results.jsonl"), "a", encoding="utf-8") as f:
    f.write(json.dumps(result) + "\n")
