#!/usr/bin/env python3
"""One-off: merges the Java-computed keys (file TAB index TAB hex) into vectors whose key is "?"."""
import json
import os
import sys

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "main", "resources", "vectors")
docs = {}
for line in open(sys.argv[1], encoding="utf-8"):
    name, idx, hexkey = line.rstrip("\n").split("\t")
    if name not in docs:
        with open(os.path.join(DIR, name), encoding="utf-8") as fh:
            docs[name] = json.load(fh)
    v = docs[name]["vectors"][int(idx)]
    assert v["key"] == "?", (name, idx)
    v["key"] = hexkey
for name, doc in docs.items():
    with open(os.path.join(DIR, name), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, ensure_ascii=True)
        fh.write("\n")
print("filled", sum(1 for _ in open(sys.argv[1])), "keys in", len(docs), "files")
