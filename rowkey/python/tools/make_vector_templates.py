#!/usr/bin/env python3
"""One-off: writes the vector templates (inputs, expected rejections) with key "?" where the expected
key is still to be computed. The keys were then filled ONCE by the Java library
(VectorKeyFillerTest, -Drekey.fillVectors=...) and fill_vector_keys.py, and are pinned from then on.
Inputs for hashes equal to Integer.MIN_VALUE / -1 are constructed here (linear algebra / inversion).
"""
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rekey_rowkey as rk  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "main", "resources", "vectors")
MIN = -(2**31)
M32 = 0xFFFFFFFF


def inv(x):
    return pow(x, -1, 2**32)


def arrays_hash_preimage(prefix, target, free=7):
    """bytes = prefix + `free` bytes (values 0..30) whose Arrays.hashCode == target."""
    h = rk.java_arrays_hashcode(prefix) & M32
    r = (target - h * pow(31, free, 2**32)) % 2**32
    digits = []
    for _ in range(free):
        digits.append(r % 31)
        r //= 31
    assert r == 0
    out = bytes(prefix) + bytes(reversed(digits))
    assert rk.java_arrays_hashcode(out) == target, (out.hex(), target)
    return out


def crc_preimage(fn, prefix, target):
    """prefix + 4 bytes whose crc (fn, unsigned) as signed int == target (GF(2) linear solve)."""
    base = bytes(prefix) + b"\0\0\0\0"
    c0 = fn(base)
    cols = []
    for j in range(32):
        x = bytearray(base)
        x[len(prefix) + j // 8] ^= 1 << (j % 8)
        cols.append(fn(bytes(x)) ^ c0)
    want = (target & M32) ^ c0
    # solve sum(sel_j * cols[j]) = want over GF(2)
    rows = [(cols[j], 1 << j) for j in range(32)]
    basis = {}
    for v, m in rows:
        for bit in reversed(range(32)):
            if not (v >> bit) & 1:
                continue
            if bit in basis:
                v ^= basis[bit][0]
                m ^= basis[bit][1]
            else:
                basis[bit] = (v, m)
                break
    sel, v = 0, want
    for bit in reversed(range(32)):
        if (v >> bit) & 1:
            v ^= basis[bit][0]
            sel ^= basis[bit][1]
    assert v == 0
    x = bytearray(base)
    for j in range(32):
        if (sel >> j) & 1:
            x[len(prefix) + j // 8] ^= 1 << (j % 8)
    out = bytes(x)
    assert rk._s32(fn(out)) == target
    return out


def murmur_preimage(prefix4, target):
    """prefix4 (4 bytes) + 4 bytes whose murmur3_32 (seed 0) == target."""
    c1, c2 = 0xCC9E2D51, 0x1B873593
    rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & M32  # noqa: E731
    rotr = lambda x, r: ((x >> r) | (x << (32 - r))) & M32  # noqa: E731

    def mixk(k):
        return (rotl((k * c1) & M32, 15) * c2) & M32

    def unmixk(k):
        return (rotr((k * inv(c2)) & M32, 15) * inv(c1)) & M32

    h = 0
    k1 = int.from_bytes(prefix4, "little")
    h ^= mixk(k1)
    h = (rotl(h, 13) * 5 + 0xE6546B64) & M32
    h1 = h
    # invert fmix
    x = target & M32
    x ^= x >> 16
    x = (x * inv(0xC2B2AE35)) & M32
    x ^= (x >> 13) ^ (x >> 26)
    x = (x * inv(0x85EBCA6B)) & M32
    x ^= x >> 16
    x ^= 8  # length
    x = ((x - 0xE6546B64) * inv(5)) & M32
    x = rotr(x, 13)
    k2 = unmixk(x ^ h1)
    out = bytes(prefix4) + k2.to_bytes(4, "little")
    assert rk.murmur3_32(out) == target, (out.hex(), rk.murmur3_32(out), target)
    return out


def preimage(hash_name, prefix, target):
    if hash_name in ("java_arrays_hashcode", "phoenix"):
        return arrays_hash_preimage(prefix[:len(prefix) - 7 + 0] if len(prefix) > 1 else prefix, target)
    if hash_name == "crc32":
        import zlib
        return crc_preimage(zlib.crc32, prefix, target)
    if hash_name == "crc32c":
        return crc_preimage(rk.crc32c, prefix, target)
    if hash_name == "murmur3_32":
        return murmur_preimage(prefix, target)
    raise ValueError(hash_name)


def write(name, doc):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=2, ensure_ascii=True)
        fh.write("\n")


def ok(name, fields):
    return {"name": name, "fields": fields, "key": "?"}


def enc_err(name, fields, err):
    return {"name": name, "fields": fields, "encodeError": err}


def dec_err(name, key, err):
    return {"name": name, "key": key, "decodeError": err}


LMAX, LMIN = str(2**63 - 1), str(-(2**63))


def main():
    os.makedirs(OUT, exist_ok=True)
    rnd = random.Random(20261130)

    # ---- shipped layouts
    ev = [ok("ascii", {"userId": "alice", "ts": "1700000000000"}),
          ok("prefix sibling ab", {"userId": "ab", "ts": "1700000000000"}),
          ok("prefix sibling abc", {"userId": "abc", "ts": "1700000000000"}),
          ok("empty user id", {"userId": "", "ts": "0"}),
          ok("ts Long.MAX_VALUE", {"userId": "bob", "ts": LMAX}),
          ok("ts 0", {"userId": "bob", "ts": "0"}),
          ok("non-ASCII 2-byte", {"userId": "zoë", "ts": "1"}),
          ok("non-ASCII 3-byte", {"userId": "日本語", "ts": "1700000000001"}),
          ok("non-ASCII 4-byte (surrogate pair)", {"userId": "😀user", "ts": "1700000000002"}),
          ok("spaces kept", {"userId": " alice ", "ts": "5"}),
          enc_err("embedded 0x00 rejected", {"userId": "a\u0000b", "ts": "1"}, "0x00"),
          enc_err("negative reversed ts", {"userId": "a", "ts": "-1"}, "must be >= 0"),
          enc_err("Long.MIN reversed ts", {"userId": "a", "ts": LMIN}, "must be >= 0"),
          enc_err("missing ts", {"userId": "a"}, "missing field 'ts'"),
          enc_err("unknown field", {"userId": "a", "ts": "1", "tz": "x"}, "unknown field 'tz'"),
          enc_err("ts not a number", {"userId": "a", "ts": "12x"}, "not a decimal long"),
          enc_err("ts beyond long", {"userId": "a", "ts": "9223372036854775808"}, "not a decimal long"),
          enc_err("unpaired surrogate", {"userId": "a\ud800", "ts": "1"}, "unpaired surrogate")]
    lay = rk.load_layout(os.path.join(OUT, "..", "..", "..", "..", "..", "conf", "layouts", "events-v2.yaml"))
    good = lay.encode({"userId": "alice", "ts": 1700000000000})
    bad_prefix = bytes([good[0] ^ 1]) + good[1:]
    ev += [dec_err("hash prefix mismatch", bad_prefix.hex(), "hash prefix 0x%s does not match the fields" % bad_prefix[:2].hex()),
           dec_err("no terminator", good[:7].hex(), "no 0x00 terminator"),
           dec_err("short ts", good[:-1].hex(), "key too short"),
           dec_err("trailing byte", (good + b"\x00").hex(), "1 trailing bytes"),
           dec_err("empty key", "", "key too short"),
           dec_err("one byte", "63", "key too short"),
           dec_err("invalid UTF-8", (lay._prefix({"userId": "x"}, b"")[:0] + b"").hex() or "0000ff00" + "7fffffffffffffff", "does not match"),
           dec_err("reversed top bit set", (good[:8] + b"\x80" + good[9:]).hex(), "top bit set")]
    # invalid UTF-8 whose prefix matches the md5 of the raw bytes is impossible to decode first: check UTF-8 error
    bad_utf8 = bytes.fromhex("c3") + b""
    pre = rk.digest("md5", bad_utf8)[:2]
    ev[-2] = dec_err("invalid UTF-8", (pre + bad_utf8 + b"\x00" + struct.pack(">q", 5)).hex(), "invalid UTF-8")
    write("events-v2.json", {"description": "seed 000 EventKeys shape", "layout": "conf/layouts/events-v2.yaml", "vectors": ev})

    dev = "00112233445566778899aabbccddeeff"
    t1 = [ok("typical", {"ts": "1700000000000", "deviceId": dev}),
          ok("ts 0", {"ts": "0", "deviceId": "00" * 16}),
          ok("ts Long.MAX_VALUE", {"ts": LMAX, "deviceId": "ff" * 16}),
          ok("ts Long.MIN_VALUE (no sign flip)", {"ts": LMIN, "deviceId": dev}),
          ok("ts -1 (no sign flip)", {"ts": "-1", "deviceId": dev}),
          ok("upper-case hex accepted", {"ts": "1", "deviceId": dev.upper()}),
          enc_err("deviceId 15 bytes", {"ts": "1", "deviceId": dev[:30]}, "wrong length: expected exactly 16 bytes, got 15"),
          enc_err("deviceId 17 bytes", {"ts": "1", "deviceId": dev + "00"}, "wrong length"),
          enc_err("deviceId not hex", {"ts": "1", "deviceId": "zz" * 16}, "not valid hex"),
          enc_err("deviceId odd hex", {"ts": "1", "deviceId": dev[:31]}, "not valid hex"),
          dec_err("23 bytes", "00" * 23, "key too short"),
          dec_err("25 bytes", "00" * 25, "1 trailing bytes"),
          dec_err("empty", "", "key too short")]
    write("telemetry-v1.json", {"description": "legacy ts|deviceId", "layout": "conf/layouts/telemetry-v1.yaml", "vectors": t1})

    ts_b = struct.pack(">q", 1700000000000)
    nat_min = arrays_hash_preimage(ts_b + bytes.fromhex("a1b2c3d4e5f60718") + b"\x09", MIN)
    nat_m1 = arrays_hash_preimage(ts_b + bytes.fromhex("a1b2c3d4e5f60718") + b"\x09", -1)
    t2 = [ok("typical", {"ts": "1700000000000", "deviceId": dev}),
          ok("Arrays.hashCode == Integer.MIN_VALUE", {"ts": "1700000000000", "deviceId": nat_min[8:].hex()}),
          ok("Arrays.hashCode == -1", {"ts": "1700000000000", "deviceId": nat_m1[8:].hex()}),
          ok("ts 0 zero device", {"ts": "0", "deviceId": "00" * 16}),
          ok("ts Long.MAX_VALUE", {"ts": LMAX, "deviceId": "ff" * 16}),
          ok("ts Long.MIN_VALUE", {"ts": LMIN, "deviceId": "80" * 16})]
    for i in range(6):
        t2.append(ok("random %d" % i, {"ts": str(rnd.randrange(1_500_000_000_000, 1_900_000_000_000)), "deviceId": rnd.randbytes(16).hex()}))
    l2 = rk.load_layout(os.path.join(OUT, "..", "..", "..", "..", "..", "conf", "layouts", "telemetry-v2.yaml"))
    g2 = l2.encode({"ts": 1700000000000, "deviceId": bytes.fromhex(dev)})
    t2 += [enc_err("deviceId 15 bytes", {"ts": "1", "deviceId": dev[:30]}, "wrong length"),
           dec_err("salt mismatch", (bytes([(g2[0] + 1) % 16]) + g2[1:]).hex(), "salt byte 0x%02x does not match the fields (expected 0x%02x)" % ((g2[0] + 1) % 16, g2[0])),
           dec_err("salt out of range", ("10" + g2[1:].hex()), "salt byte 0x10 out of range [0, 16)"),
           dec_err("salt 0xff", ("ff" + g2[1:].hex()), "out of range"),
           dec_err("short", g2[:-1].hex(), "key too short"),
           dec_err("trailing", (g2 + b"\x01\x02").hex(), "2 trailing bytes")]
    write("telemetry-v2.json", {"description": "seed 002 TelemetryKey shape", "layout": "conf/layouts/telemetry-v2.yaml", "vectors": t2})

    # ---- salt per hash, over an 8-byte id, N = 10 (not a power of two: floorMod vs % matters) and 256
    for h in rk.HASHES:
        for n in (10, 256):
            layout = {"name": "salt-%s-%d" % (h, n), "prefix": {"kind": "salt", "buckets": n, "hash": h},
                      "fields": [{"name": "id", "type": "bytes", "length": 8}]}
            vs = [ok("zero", {"id": "00" * 8}), ok("ones", {"id": "ff" * 8}), ok("ascii", {"id": b"rekey-01".hex()})]
            if h != "md5":
                pre = bytes.fromhex("01020304") if h in ("murmur3_32", "crc32", "crc32c") else b"\x01"
                for tgt, label in ((MIN, "Integer.MIN_VALUE"), (-1, "-1"), (2**31 - 1, "Integer.MAX_VALUE")):
                    x = preimage(h, pre, tgt)
                    assert len(x) == 8, x
                    vs.append(ok("hash == %s" % label, {"id": x.hex()}))
            negs = 0
            while negs < 3:
                x = rnd.randbytes(8)
                if rk.hash32(h, x) < 0:
                    negs += 1
                    vs.append(ok("negative hash %d" % negs, {"id": x.hex()}))
            vs.append(enc_err("id 7 bytes", {"id": "00" * 7}, "wrong length"))
            k = rk.Layout(layout, "t").encode({"id": b"rekey-01"})
            vs.append(dec_err("salt mismatch", (bytes([(k[0] + 1) % n]) + k[1:]).hex(), "does not match the fields"))
            if n < 256:
                vs.append(dec_err("salt out of range", (bytes([n]) + k[1:]).hex(), "out of range [0, %d)" % n))
            write("salt-%s-%d.json" % (h, n), {"layout": layout, "vectors": vs})
    layout = {"name": "salt-n1", "time": "ts", "prefix": {"kind": "salt", "buckets": 1, "hash": "crc32"},
              "fields": [{"name": "ts", "type": "long", "signed": True}, {"name": "s", "type": "string", "terminated": False}]}
    vs = [ok("N=1 always bucket 0", {"ts": "1", "s": "x"}), ok("N=1 negative", {"ts": "-5", "s": ""}),
          ok("Long.MIN signed", {"ts": LMIN, "s": "é"}), ok("Long.MAX signed", {"ts": LMAX, "s": "tail"}),
          dec_err("bucket 1 with N=1", "01" + "80" + "00" * 7, "salt byte 0x01 out of range [0, 1)"),
          dec_err("0x00 in unterminated last string", "00" + "80" + "00" * 7 + "610062", "contains a 0x00 byte")]
    write("salt-n1.json", {"layout": layout, "vectors": vs})
    # salt over named fields only
    layout = {"name": "salt-named", "prefix": {"kind": "salt", "buckets": 64, "hash": "murmur3_32", "fields": ["device"]},
              "fields": [{"name": "device", "type": "string"}, {"name": "seq", "type": "int", "signed": True}]}
    vs = [ok("a", {"device": "d1", "seq": "1"}), ok("same device same salt", {"device": "d1", "seq": "-2147483648"}),
          ok("empty device", {"device": "", "seq": "2147483647"}), ok("negative int", {"device": "d2", "seq": "-1"}),
          enc_err("int overflow", {"device": "d", "seq": "2147483648"}, "not a decimal int")]
    write("salt-named.json", {"layout": layout, "vectors": vs})

    # ---- hash prefixes
    for h, k in (("md5", 16), ("murmur3_32", 4), ("crc32", 3), ("crc32c", 1), ("java_arrays_hashcode", 2)):
        layout = {"name": "hp-%s-%d" % (h, k), "prefix": {"kind": "hash_prefix", "hash": h, "bytes": k, "fields": ["user", "region"]},
                  "fields": [{"name": "user", "type": "string"}, {"name": "region", "type": "int", "signed": False},
                             {"name": "ts", "type": "reversed_long"}]}
        vs = [ok("typical", {"user": "alice", "region": "7", "ts": "1700000000000"}),
              ok("empty user", {"user": "", "region": "0", "ts": "0"}),
              ok("negative int unflipped", {"user": "ü", "region": "-1", "ts": LMAX}),
              ok("Integer.MIN", {"user": "x", "region": "-2147483648", "ts": "1"})]
        key = rk.Layout(layout, "t").encode({"user": "alice", "region": 7, "ts": 1700000000000})
        vs.append(dec_err("prefix mismatch", (bytes([key[0] ^ 0x80]) + key[1:]).hex(), "hash prefix 0x"))
        vs.append(dec_err("short", key[:k].hex(), "key too short"))
        write("hash-prefix-%s.json" % h, {"layout": layout, "vectors": vs})
    layout = {"name": "hp-default", "prefix": {"kind": "hash_prefix", "hash": "md5"},
              "fields": [{"name": "id", "type": "string", "terminated": False}]}
    write("hash-prefix-default.json", {"layout": layout, "vectors": [
        ok("default 2 bytes, whole key as input", {"id": "alice"}), ok("empty", {"id": ""})]})

    # ---- full hash
    layout = {"name": "full-md5", "prefix": {"kind": "full_hash", "hash": "md5"},
              "fields": [{"name": "email", "type": "string"}, {"name": "tenant", "type": "int", "signed": True}]}
    write("full-hash-md5.json", {"layout": layout, "vectors": [
        ok("md5 of the natural key", {"email": "a@example.com", "tenant": "1"}),
        ok("terminator keeps fields apart", {"email": "", "tenant": "0"}),
        ok("non-ASCII", {"email": "δ@example.com", "tenant": "-1"}),
        dec_err("decode refused", "00" * 16, "not reversible")]})

    # ---- every codec, no prefix
    layout = {"name": "codecs", "prefix": {"kind": "none"},
              "fields": [{"name": "s", "type": "string"}, {"name": "i", "type": "int", "signed": True},
                         {"name": "u", "type": "int", "signed": False}, {"name": "l", "type": "long", "signed": True},
                         {"name": "b", "type": "bytes", "length": 3}, {"name": "r", "type": "reversed_long"},
                         {"name": "t", "type": "string", "terminated": False}]}
    IMIN, IMAX = str(-(2**31)), str(2**31 - 1)
    vs = [ok("zeros", {"s": "", "i": "0", "u": "0", "l": "0", "b": "000000", "r": "0", "t": ""}),
          ok("minimums", {"s": "a", "i": IMIN, "u": IMIN, "l": LMIN, "b": "000000", "r": "0", "t": "z"}),
          ok("maximums", {"s": "\U0010ffff", "i": IMAX, "u": IMAX, "l": LMAX, "b": "ffffff", "r": LMAX, "t": "\uffff"}),
          ok("negatives", {"s": "-", "i": "-1", "u": "-1", "l": "-1", "b": "800001", "r": "1", "t": "日本"}),
          ok("mixed", {"s": "Grüße", "i": "42", "u": "42", "l": "1700000000000", "b": "abcdef", "r": "1700000000000", "t": "end/with spaces "}),
          enc_err("0x00 in s", {"s": "\u0000", "i": "0", "u": "0", "l": "0", "b": "000000", "r": "0", "t": ""}, "0x00"),
          enc_err("0x00 in unterminated t", {"s": "", "i": "0", "u": "0", "l": "0", "b": "000000", "r": "0", "t": "x\u0000"}, "0x00"),
          enc_err("bytes too long", {"s": "", "i": "0", "u": "0", "l": "0", "b": "00000000", "r": "0", "t": ""}, "wrong length"),
          enc_err("int too big", {"s": "", "i": "2147483648", "u": "0", "l": "0", "b": "000000", "r": "0", "t": ""}, "field 'i'"),
          enc_err("reversed negative", {"s": "", "i": "0", "u": "0", "l": "0", "b": "000000", "r": "-1", "t": ""}, "field 'r'"),
          dec_err("invalid UTF-8 in t", "00" + "80000000" + "00000000" + "8000000000000000" + "000000" + "7fffffffffffffff" + "ff", "invalid UTF-8"),
          dec_err("overlong UTF-8 in s", "c0af00", "invalid UTF-8"),
          dec_err("truncated int", "0080", "key too short"),
          dec_err("reversed top bit", "00" + "80000000" + "00000000" + "8000000000000000" + "000000" + "8000000000000000", "top bit set")]
    write("codecs.json", {"layout": layout, "vectors": vs})

    # ---- sub-bucket for a hot entity
    layout = {"name": "sub-bucket", "time": "ts",
              "prefix": {"kind": "hash_prefix", "hash": "murmur3_32", "bytes": 2, "fields": ["device", "sb"]},
              "fields": [{"name": "device", "type": "string"},
                         {"name": "sb", "type": "sub_bucket", "from": "ts", "buckets": 8, "hash": "crc32"},
                         {"name": "ts", "type": "reversed_long"}]}
    vs = [ok("hot device t%d" % t, {"device": "hot", "ts": str(1700000000000 + t)}) for t in range(6)]
    vs += [ok("sub-bucket given and right", {"device": "d", "ts": "0", "sb": str(rk.bucket("crc32", struct.pack(">q", 0), 8))}),
           enc_err("sub-bucket given and wrong", {"device": "d", "ts": "0", "sb": str((rk.bucket("crc32", struct.pack(">q", 0), 8) + 1) % 8)}, "does not match its time field 'ts'")]
    sl = rk.Layout(layout, "t")
    kk = sl.encode({"device": "hot", "ts": 1700000000000})
    wrong = bytearray(kk)
    wrong[6] = (wrong[6] + 1) % 8
    vs += [dec_err("sub-bucket mismatch", bytes(wrong).hex(), "sub-bucket"),
           dec_err("sub-bucket out of range", (kk[:6] + b"\x09" + kk[7:]).hex(), "out of range [0, 8)")]
    write("sub-bucket.json", {"layout": layout, "vectors": vs})

    # ---- layouts that must be rejected
    f1 = [{"name": "id", "type": "bytes", "length": 4}]
    bad = [
        ("unknown top key", {"name": "x", "prefix": {"kind": "none"}, "fields": f1, "colour": "red"}, "unknown key 'colour'"),
        ("unknown prefix key", {"name": "x", "prefix": {"kind": "salt", "buckets": 4, "hash": "crc32", "buckts": 3}, "fields": f1}, "unknown key 'buckts'"),
        ("unknown field key", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "id", "type": "bytes", "length": 4, "lenght": 4}]}, "unknown key 'lenght'"),
        ("salt N=0", {"name": "x", "prefix": {"kind": "salt", "buckets": 0, "hash": "crc32"}, "fields": f1}, "1 <= N <= 256"),
        ("salt N=257", {"name": "x", "prefix": {"kind": "salt", "buckets": 257, "hash": "crc32"}, "fields": f1}, "1 <= N <= 256"),
        ("salt without N", {"name": "x", "prefix": {"kind": "salt", "hash": "crc32"}, "fields": f1}, "1 <= N <= 256"),
        ("unknown hash", {"name": "x", "prefix": {"kind": "salt", "buckets": 4, "hash": "sha1"}, "fields": f1}, "unknown hash 'sha1'"),
        ("full hash crc32", {"name": "x", "prefix": {"kind": "full_hash", "hash": "crc32"}, "fields": f1}, "77,000 keys"),
        ("full hash murmur", {"name": "x", "prefix": {"kind": "full_hash", "hash": "murmur3_32"}, "fields": f1}, "77,000 keys"),
        ("full hash truncated md5", {"name": "x", "prefix": {"kind": "full_hash", "hash": "md5", "bytes": 4}, "fields": f1}, "refuses truncation"),
        ("hash prefix too long", {"name": "x", "prefix": {"kind": "hash_prefix", "hash": "crc32", "bytes": 5}, "fields": f1}, "'bytes' must be in 1..4"),
        ("hash prefix 0 bytes", {"name": "x", "prefix": {"kind": "hash_prefix", "hash": "md5", "bytes": 0}, "fields": f1}, "'bytes' must be in 1..16"),
        ("phoenix hash prefix", {"name": "x", "prefix": {"kind": "hash_prefix", "hash": "phoenix"}, "fields": f1}, "only defined for kind salt"),
        ("phoenix named fields", {"name": "x", "prefix": {"kind": "salt", "buckets": 4, "hash": "phoenix", "fields": ["id"]}, "fields": f1}, "remove 'fields'"),
        ("prefix unknown field", {"name": "x", "prefix": {"kind": "salt", "buckets": 4, "hash": "crc32", "fields": ["nope"]}, "fields": f1}, "names unknown field"),
        ("unknown kind", {"name": "x", "prefix": {"kind": "random"}, "fields": f1}, "unknown kind 'random'"),
        ("none with hash", {"name": "x", "prefix": {"kind": "none", "hash": "md5"}, "fields": f1}, "does not apply to prefix kind none"),
        ("missing prefix", {"name": "x", "fields": f1}, "missing required key 'prefix'"),
        ("no fields", {"name": "x", "prefix": {"kind": "none"}, "fields": []}, "non-empty list"),
        ("duplicate field", {"name": "x", "prefix": {"kind": "none"}, "fields": f1 + f1}, "duplicate field name 'id'"),
        ("unterminated not last", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "s", "type": "string", "terminated": False}] + f1}, "only the last field"),
        ("bytes without length", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "b", "type": "bytes"}]}, "need 'length'"),
        ("unknown type", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "b", "type": "uuid"}]}, "unknown field type 'uuid'"),
        ("signed on string", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "s", "type": "string", "signed": True}]}, "does not apply to a string field"),
        ("signed not boolean", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "l", "type": "long", "signed": "yes"}]}, "must be true or false"),
        ("time unknown", {"name": "x", "time": "ts", "prefix": {"kind": "none"}, "fields": f1}, "'time' names unknown field 'ts'"),
        ("time not long", {"name": "x", "time": "id", "prefix": {"kind": "none"}, "fields": f1}, "must be a long or reversed_long"),
        ("sub bucket from string", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "s", "type": "string"}, {"name": "sb", "type": "sub_bucket", "from": "s", "buckets": 4}]}, "'from' must name a long"),
        ("sub bucket 300", {"name": "x", "prefix": {"kind": "none"}, "fields": [{"name": "t", "type": "long"}, {"name": "sb", "type": "sub_bucket", "from": "t", "buckets": 300}]}, "'buckets' in 1..256"),
        ("name not string", {"name": 5, "prefix": {"kind": "none"}, "fields": f1}, "'name' must be a string"),
    ]
    write("bad-layouts.json", {"description": "layouts that must be rejected, with the expected message substring",
                               "badLayouts": [{"name": n, "layout": l, "error": e} for n, l, e in bad]})


if __name__ == "__main__":
    main()
