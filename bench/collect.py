#!/usr/bin/env python3
"""Builds the committed benchmark figures from the benches' own result records, never by hand.

  bench/collect.py           add the records of target/bench/results.jsonl that docs/bench-records/ lacks, then
                             write docs/benchmarks.json and the table at the top of docs/benchmarks.md from the
                             committed records
  bench/collect.py --from F  the same with another results file (e.g. another checkout's target/bench/results.jsonl)
  bench/collect.py --check   write nothing; exit 1 if docs/benchmarks.json or the table differ from what the
                             committed records give

The benches append one record per result to target/bench/results.jsonl (bench/record.py), each naming its command,
commit, start, rounds and the machine's load. A figure is the latest run of its bench, variant and baseline: the
ratio's median and range over that run's rounds, warm-up rounds left out. Records written without a bench's run.sh
(no command) are not collected. Only runs started on a quiet machine (a load average of at most 0.75 per core, 1.5 on
2 cores, at the start) make a figure: a busier run's records are kept in docs/bench-records/ but left out of the
current table, which counts them per bench.
"""
import argparse
import json
import os
import statistics
import sys

HOME = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RECORDS = os.path.join(HOME, "docs", "bench-records")
JSON_OUT = os.path.join(HOME, "docs", "benchmarks.json")
MARKDOWN = os.path.join(HOME, "docs", "benchmarks.md")
BEGIN = "<!-- current results: written by bench/collect.py from docs/bench-records/, do not edit -->"
END = "<!-- end of current results -->"
# benches (or a bench's variants) whose ratios have no records yet: named in the table so that what is missing shows,
# until a record of that bench (and variant) is collected
NOT_RECORDED = [
    ("client", None, "bench/client/run.sh", "merged bucket reads, gets and dual writes against the HBase client"),
    ("scan floor", None, "bench/scan/floor.sh", "the snapshot read pass against the raw HFile pass"),
    ("scan pruning", None, "bench/scan/prune.sh", "one day of a 30-day table, pruned against a full read"),
    ("reconcile", "via-counts", "VARIANTS='via-counts via-digest' bench/reconcile/run.sh",
     "both live tables with --via-snapshot, against HBase HashTable"),
]


def key(r):
    return r["bench"], r["run"], r["round"], r["variant"], r["baseline"]


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def committed():
    out = []
    if os.path.isdir(RECORDS):
        for name in sorted(os.listdir(RECORDS)):
            if name.endswith(".jsonl"):
                out += read_jsonl(os.path.join(RECORDS, name))
    return out


def add(source):
    """Appends the records of source that the committed ones lack, per bench; returns how many."""
    have = {key(r) for r in committed()}
    new = [r for r in read_jsonl(source) if r.get("command") and key(r) not in have]
    os.makedirs(RECORDS, exist_ok=True)
    for r in new:
        with open(os.path.join(RECORDS, r["bench"] + ".jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps(r) + "\n")
    return len(new)


QUIET_LOAD_PER_CORE = 0.75


def quiet(r):
    """Whether a record's run started on a quiet machine: its 1-minute load at most 0.75 per core."""
    try:
        load = float((r.get("load_start") or "").split()[0])
    except (IndexError, ValueError):
        return False
    return load <= QUIET_LOAD_PER_CORE * (r.get("cores") or 1)


def figures(records):
    """Per bench, variant and baseline: its latest run's rounds summed up, in the order the records came."""
    latest = {}
    for r in records:
        k = (r["bench"], r["variant"], r["baseline"])
        latest[k] = max(latest.get(k, ""), r["run"])
    out = []
    for (bench, variant, baseline), run in latest.items():
        rounds = [r for r in records if (r["bench"], r["variant"], r["baseline"], r["run"]) ==
                  (bench, variant, baseline, run)]
        steady = [r for r in rounds if not r.get("warm_up")] or rounds
        ratios = [r["ratio"] for r in steady]
        last = max(rounds, key=lambda r: r["recorded"])
        target = rounds[0]["target"]
        median = round(statistics.median(ratios), 3)
        out.append(dict(
            bench=bench, variant=variant, baseline=baseline, rows=rounds[0]["rows"], run=run,
            rounds=len(steady), warm_up_rounds=len(rounds) - len(steady),
            ratio_median=median, ratio_min=min(ratios), ratio_max=max(ratios),
            rekey_seconds_median=statistics.median(r["rekey_seconds"] for r in steady),
            baseline_seconds_median=statistics.median(r["baseline_seconds"] for r in steady),
            target=target, met=None if target is None else median >= target,
            command=last["command"], commit=last["commit"], load_start=last["load_start"],
            load_end=last["load_end"], cores=last["cores"], memory_gib=last["memory_gib"]))
    return out


def document(records):
    figs = figures([r for r in records if quiet(r)])
    busy = {}
    for r in records:
        if not quiet(r):
            busy.setdefault(r["bench"], set()).add(r["run"])
    runs = {(f["bench"], f["run"]) for f in figs}
    return dict(
        description="Benchmark figures as ratios against a baseline measured in the same run (ratio = baseline "
                    "seconds / rekey seconds: above 1, rekey is faster; a floor's ratio is below 1). Each figure is "
                    "the median and range of its run's rounds, warm-up rounds left out; target is the ratio aimed "
                    "at (null: none).",
        source="Written by bench/collect.py from the benches' own records (docs/bench-records/*.jsonl, appended "
               "by bench/record.py as each bench runs): the latest run of each bench, variant and baseline. Not "
               "edited by hand.",
        quiet_load_per_core=QUIET_LOAD_PER_CORE,
        busy_runs_left_out={bench: len(runs) for bench, runs in sorted(busy.items())},
        figures=figs,
        results=[r for r in records if (r["bench"], r["run"]) in runs and
                 any((f["bench"], f["variant"], f["baseline"], f["run"]) ==
                     (r["bench"], r["variant"], r["baseline"], r["run"]) for f in figs)])


def ratio_text(f):
    text = f"**{f['ratio_median']:.2f}×**"
    if f["rounds"] > 1:
        text += f" ({f['ratio_min']:.2f}–{f['ratio_max']:.2f}×, {f['rounds']} rounds)"
    if f["ratio_median"] < 1:
        text += f"; rekey takes {1 / f['ratio_median']:.2f}× the baseline's time"
    return text


def target_text(f):
    if f["target"] is None:
        return "–"
    # a floor's target is a bound on rekey's time: rekey <= 1.4x the floor is recorded as floor/rekey >= 1/1.4
    aim = f"≥ {f['target']:g}×"
    if f["target"] < 1:
        aim = f"≥ {f['target']:.2f}× (rekey ≤ {1 / f['target']:.2g}× the baseline's time)"
    return f"{aim}, {'met' if f['met'] else '**missed**'}"


def load_text(f):
    start = (f["load_start"] or "?").split()[0]
    return f"load {start} → {f['load_end'].split()[0]}, {f['cores']} cores"


def table(doc):
    lines = [BEGIN, "",
             "| bench | rekey vs baseline | ratio (baseline / rekey) | target | rows | command | run (UTC), "
             "commit, machine |",
             "|---|---|---|---|---|---|---|"]
    for f in doc["figures"]:
        lines.append(
            f"| {f['bench']} | {f['variant']} vs {f['baseline']} | {ratio_text(f)} | {target_text(f)} | "
            f"{f['rows']:,} | `{f['command']}` | {f['run'].replace('T', ' ').rstrip('Z')}, `{f['commit']}`, "
            f"{load_text(f)} |")
    recorded = {(f["bench"], f["variant"]) for f in doc["figures"]}
    for bench, variant, command, what in NOT_RECORDED:
        if not any(b == bench and variant in (None, v) for b, v in recorded):
            lines.append(f"| {bench} | {what} | no record yet: not re-run since the benches began to write "
                         f"records (figures in the history) | | | `{command}` | |")
    left_out = doc.get("busy_runs_left_out") or {}
    if left_out:
        lines += ["", "Left out of this table, as started on a busy machine (load above "
                  f"{doc['quiet_load_per_core']:g} per core): " +
                  ", ".join(f"{bench} {n} run{'s' if n > 1 else ''}" for bench, n in left_out.items()) +
                  ". Their records stay in docs/bench-records/; the history tells their story."]
    lines += ["", END]
    return "\n".join(lines)


def with_table(markdown, doc):
    if BEGIN not in markdown or END not in markdown:
        sys.exit(f"Cannot collect: {MARKDOWN} has no {BEGIN} ... {END} markers (put them where the table goes)")
    head, rest = markdown.split(BEGIN, 1)
    return head + table(doc) + rest.split(END, 1)[1]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--from", dest="source", default=os.path.join(HOME, "target", "bench", "results.jsonl"))
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    if not args.check:
        print(f"collect: {add(args.source)} new records from {os.path.relpath(args.source, HOME)}")
    records = committed()
    doc = document(records)
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    with open(MARKDOWN, encoding="utf-8") as f:
        markdown = f.read()
    markdown_new = with_table(markdown, doc)
    old = open(JSON_OUT, encoding="utf-8").read() if os.path.exists(JSON_OUT) else ""
    if args.check:
        stale = [n for n, a, b in (("docs/benchmarks.json", old, text), ("docs/benchmarks.md", markdown,
                                                                          markdown_new)) if a != b]
        if stale:
            sys.exit(f"Cannot trust the figures: {' and '.join(stale)} {'is' if len(stale) == 1 else 'are'} not what "
                     "the records in docs/bench-records/ give (run bench/collect.py to write them from the records)")
        print(f"collect: docs/benchmarks.json and docs/benchmarks.md match {len(records)} records")
        return
    with open(JSON_OUT, "w", encoding="utf-8") as f:
        f.write(text)
    with open(MARKDOWN, "w", encoding="utf-8") as f:
        f.write(markdown_new)
    print(f"collect: {len(doc['figures'])} figures from {len(doc['results'])} records of "
          f"{len({(f['bench'], f['run']) for f in doc['figures']})} runs -> docs/benchmarks.json, docs/benchmarks.md")


if __name__ == "__main__":
    main()
