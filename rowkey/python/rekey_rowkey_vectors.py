#!/usr/bin/env python3
"""Checks pinned vectors (rekey's rowkey/src/main/resources/vectors/*.json) with the Python reference.

Usage: rekey-rowkey-vectors [VECTORS_DIR_OR_FILE ...]          (installed: pip install ./rowkey/python)
       python3 rowkey/python/rekey_rowkey_vectors.py [...]     (in a rekey checkout)
With no argument it checks the vectors of the checkout it sits in; installed, give the vectors directory.
A vector file's layout path (conf/layouts/x.yaml) is found in the nearest folder above the file that has it.
Prints each failure and 'N passed, M failed'; exits 1 on any failure, 2 on a usage error.
"""
import json
import os
import sys

import rekey_rowkey as rk

USAGE = "usage: rekey-rowkey-vectors [VECTORS_DIR_OR_FILE ...]"


def checkout_vectors():
    """The vectors directory of the rekey checkout this file sits in (rowkey/python/), or None once installed."""
    here = os.path.dirname(os.path.abspath(__file__))
    vectors = os.path.join(here, os.pardir, "src", "main", "resources", "vectors")
    return os.path.normpath(vectors) if os.path.isdir(vectors) else None


def layout_path(vector_file, relative):
    """A layout path of a vector file (relative to the rekey root) in the nearest folder above the file."""
    d = os.path.dirname(os.path.abspath(vector_file))
    while True:
        candidate = os.path.join(d, relative)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(d)
        if parent == d:
            raise FileNotFoundError(
                "layout %s is in no folder above %s (check vectors inside a rekey checkout, or keep the "
                "layout file at that path above them)" % (relative, os.path.dirname(os.path.abspath(vector_file))))
        d = parent


def check_vector(layout, v):
    name = v.get("name")
    try:
        if "encodeError" in v:
            want = v["encodeError"]
            try:
                k = layout.encode(rk.parse_values(layout, v["fields"]))
                return "%s: encoded to %s, expected rejection containing '%s'" % (name, k.hex(), want)
            except rk.KeyEncodeError as e:
                return None if want in str(e) else "%s: rejection '%s' does not contain '%s'" % (name, e, want)
        if "decodeError" in v:
            want = v["decodeError"]
            try:
                d = layout.decode(bytes.fromhex(v["key"]))
                return "%s: decoded to %r, expected rejection containing '%s'" % (name, d, want)
            except rk.KeyDecodeError as e:
                return None if want in e.reason else "%s: rejection '%s' does not contain '%s'" % (name, e.reason, want)
        fields = v["fields"]
        key = layout.encode(rk.parse_values(layout, fields))
        if key.hex() != v["key"].lower():
            return "%s: key %s != expected %s" % (name, key.hex(), v["key"])
        if not layout.decodable():
            try:
                layout.decode(key)
                return "%s: full_hash key decoded, expected refusal" % name
            except rk.KeyDecodeError as e:
                return None if "not reversible" in e.reason else "%s: refusal without explanation: %s" % (name, e.reason)
        values, pre = layout.decode(key)
        for f in layout.fields:
            given = fields.get(f.name)
            if given is None and f.type == "sub_bucket":
                continue
            want = rk.format_value(f, rk.parse_value(f, given))
            got = rk.format_value(f, values[f.name])
            if got != want:
                return "%s: decode gave %s=%s, expected %s" % (name, f.name, got, given)
        if pre != key[:layout.prefix_bytes]:
            return "%s: decoded prefix differs" % name
        return None
    except Exception as e:  # noqa: BLE001 - report, don't crash
        return "%s: unexpected %s: %s" % (name, type(e).__name__, e)


def check_rejections(bad, base, what, build):
    """Each of bad ({name, error, ...}) must make build(b) raise a LayoutError containing its error."""
    passed, failures = 0, []
    for b in bad:
        try:
            build(b)
            failures.append("%s: %s: %s accepted, expected error containing '%s'" % (base, b["name"], what, b["error"]))
        except rk.LayoutError as e:
            if b["error"] in str(e):
                passed += 1
            else:
                failures.append("%s: %s: error '%s' does not contain '%s'" % (base, b["name"], e, b["error"]))
    return passed, failures


def yaml_layout(b):
    src = "inline:" + b["name"]
    return rk.Layout(rk.parse_yaml_subset(b["yaml"], src), src)


def check_yaml_texts(doc, base):
    """Layout YAML texts: each of badYaml must be rejected with its message, each of goodYaml accepted."""
    passed, failures = check_rejections(doc["badYaml"], base, "YAML", yaml_layout)
    for g in doc.get("goodYaml", []):
        try:
            yaml_layout(g)
            passed += 1
        except rk.LayoutError as e:
            failures.append("%s: %s: YAML rejected: %s" % (base, g["name"], e))
    return passed, failures


def check_file(path):
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    base = os.path.basename(path)
    passed, failures = 0, []
    if "badYaml" in doc:
        return check_yaml_texts(doc, base)
    if "badLayouts" in doc:
        return check_rejections(doc["badLayouts"], base, "layout", lambda b: rk.Layout(b["layout"], "inline:" + b["name"]))
    lay = doc["layout"]
    layout = rk.load_layout(layout_path(path, lay)) if isinstance(lay, str) else rk.Layout(lay, base + ":layout")
    for v in doc["vectors"]:
        f = check_vector(layout, v)
        if f is None:
            passed += 1
        else:
            failures.append(base + ": " + f)
    return passed, failures


def main(argv=None):
    """Console entry point: checks the vector files or directories in argv (default: sys.argv[1:])."""
    targets = sys.argv[1:] if argv is None else list(argv)
    if targets and targets[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if not targets:
        default = checkout_vectors()
        if default is None:
            print(USAGE + "\nCannot check vectors: none given and this is not a rekey checkout; give the vectors "
                  "directory (rowkey/src/main/resources/vectors in a rekey checkout)", file=sys.stderr)
            return 2
        targets = [default]
    files = []
    for t in targets:
        if os.path.isdir(t):
            files += sorted(os.path.join(t, n) for n in os.listdir(t) if n.endswith(".json"))
        else:
            files.append(t)
    total_pass, total_fail = 0, []
    if not files:
        total_fail.append("no vector files found in %s" % targets)
    for path in files:
        try:
            p, f = check_file(path)
        except Exception as e:  # noqa: BLE001
            p, f = 0, ["%s: cannot check: %s: %s" % (os.path.basename(path), type(e).__name__, e)]
        total_pass += p
        total_fail += f
    for f in total_fail:
        print("FAIL " + f)
    print("%d passed, %d failed" % (total_pass, len(total_fail)))
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
