"""rekey row keys: the Python 3 reference implementation (standard library only).

Reads the same layout files as the Java library (conf/layouts/*.yaml, a small YAML subset: block
mappings, block lists, plain/quoted scalars, comments) and builds byte-identical keys. A non-JVM ingest
service installs it (pip install ./rowkey/python, or the wheel built from it) and checks it against the
pinned vectors with rekey-rowkey-vectors (rowkey/python/README.md).

    layout = load_layout("conf/layouts/events-v2.yaml")
    key = layout.encode({"userId": "alice", "ts": 1700000000000})
    fields, prefix = layout.decode(key)  # {"userId": "alice", "ts": 1700000000000}, the 2 prefix bytes

Never use Python's built-in hash(): it is randomised per process.
"""
import hashlib
import re
import struct
import zlib

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)
MASK32 = 0xFFFFFFFF


class LayoutError(ValueError):
    pass


class KeyEncodeError(ValueError):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


class KeyDecodeError(ValueError):
    def __init__(self, layout, key, reason):
        super().__init__("Cannot decode key %s with layout %s: %s" % (key.hex(), layout, reason))
        self.reason = reason


# ----------------------------------------------------------------------------------------- hashes

def _s32(x):
    x &= MASK32
    return x - (1 << 32) if x & 0x80000000 else x


def murmur3_32(data, seed=0):
    """MurmurHash3 x86_32 (as commons-codec MurmurHash3.hash32x86(data, 0, len, seed)); signed int."""
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & MASK32
    n = len(data) // 4
    for i in range(n):
        k = int.from_bytes(data[4 * i:4 * i + 4], "little")
        k = (k * c1) & MASK32
        k = ((k << 15) | (k >> 17)) & MASK32
        k = (k * c2) & MASK32
        h ^= k
        h = ((h << 13) | (h >> 19)) & MASK32
        h = (h * 5 + 0xE6546B64) & MASK32
    tail = data[4 * n:]
    k = 0
    if len(tail) >= 3:
        k ^= tail[2] << 16
    if len(tail) >= 2:
        k ^= tail[1] << 8
    if len(tail) >= 1:
        k ^= tail[0]
        k = (k * c1) & MASK32
        k = ((k << 15) | (k >> 17)) & MASK32
        k = (k * c2) & MASK32
        h ^= k
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK32
    h ^= h >> 16
    return _s32(h)


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data):
    """CRC-32C (Castagnoli, reflected 0x82F63B78), as java.util.zip.CRC32C; unsigned."""
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC32C[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def java_arrays_hashcode(data):
    """java.util.Arrays.hashCode(byte[]): h = 1; h = 31*h + (signed byte); signed int."""
    h = 1
    for b in data:
        h = (31 * h + (b - 256 if b > 127 else b)) & MASK32
    return _s32(h)


HASHES = ("md5", "murmur3_32", "crc32", "crc32c", "java_arrays_hashcode", "phoenix")
DIGEST_LENGTH = {"md5": 16, "murmur3_32": 4, "crc32": 4, "crc32c": 4, "java_arrays_hashcode": 4, "phoenix": 4}


def hash32(name, data):
    """The hash as a signed 32-bit int (md5: first 4 digest bytes big-endian)."""
    data = bytes(data)
    if name == "md5":
        return struct.unpack(">i", hashlib.md5(data).digest()[:4])[0]
    if name == "murmur3_32":
        return murmur3_32(data, 0)
    if name == "crc32":
        return _s32(zlib.crc32(data))
    if name == "crc32c":
        return _s32(crc32c(data))
    if name in ("java_arrays_hashcode", "phoenix"):
        return java_arrays_hashcode(data)
    raise ValueError("unknown hash " + name)


def digest(name, data):
    if name == "md5":
        return hashlib.md5(bytes(data)).digest()
    return struct.pack(">i", hash32(name, data))


def _java_rem(a, n):
    """Java's a % n (truncated toward zero)."""
    r = abs(a) % n
    return -r if a < 0 else r


def bucket(name, data, n):
    """Salt bucket in [0, n): floorMod(hash32, n); phoenix: abs(h % n) with Java's %."""
    h = hash32(name, data)
    if name == "phoenix":
        return abs(_java_rem(h, n))
    return h % n  # Python's % on a positive modulus is floorMod


# ------------------------------------------------------------------------------------ YAML subset

_REJECT_PLAIN = re.compile(
    r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|~|null|Null|NULL|True|TRUE|False|FALSE"
    r"|[-+]?(?:0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+|\.inf|\.Inf|\.nan|\.NaN)"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+)$")


def _scalar(text, where):
    t = text.strip()
    if t.startswith('"'):
        if not t.endswith('"') or len(t) < 2:
            raise LayoutError(where + "unterminated double-quoted string")
        import json
        return json.loads(t)
    if t.startswith("'"):
        if not t.endswith("'") or len(t) < 2:
            raise LayoutError(where + "unterminated single-quoted string")
        return t[1:-1].replace("''", "'")
    if t == "true":
        return True
    if t == "false":
        return False
    if re.fullmatch(r"-?(?:0|[1-9][0-9]*)", t):
        return int(t)
    if t == "" or t[0] in "[]{}&*!|>%@`#,?" or _REJECT_PLAIN.match(t) or ": " in t or " #" in t:
        raise LayoutError(where + "unsupported YAML scalar %r in the layout subset (quote strings; "
                          "use decimal integers and true/false)" % t)
    return t


def _strip_comment(line):
    out, q = [], None
    for i, ch in enumerate(line):
        if q:
            if ch == q:
                q = None
        elif ch in "'\"" and (i == 0 or line[i - 1] in " :-"):
            q = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out).rstrip()


def parse_yaml_subset(text, source="<text>"):
    """Parses the documented YAML subset into dicts, lists, str, int and bool."""
    lines = []
    for no, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw[:len(raw) - len(raw.lstrip())]:
            raise LayoutError("Cannot read layout %s: line %d: tabs are not allowed for indentation" % (source, no))
        s = _strip_comment(raw)
        if s.strip() == "" or s.strip() == "---":
            continue
        lines.append((len(s) - len(s.lstrip(" ")), s.strip(), no))
    if not lines:
        raise LayoutError("Cannot read layout %s: empty" % source)
    pos = [0]

    def where(no):
        return "Cannot read layout %s: line %d: " % (source, no)

    def block(indent):
        ind, s, no = lines[pos[0]]
        if s.startswith("- ") or s == "-":
            return seq(ind)
        return mapping(ind)

    def split_kv(s, no):
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_.-]*|\"[^\"]*\"|'[^']*'):(?:\s+(.*))?$", s)
        if not m:
            raise LayoutError(where(no) + "expected 'key: value', got %r" % s)
        k = m.group(1)
        if k[0] in "'\"":
            k = k[1:-1]
        return k, m.group(2)

    def value_after(key_indent, rest, no):
        """Parses the value of a key; leaves pos at the first unconsumed line."""
        pos[0] += 1
        if rest is not None and rest != "":
            return _scalar(rest, where(no))
        if pos[0] < len(lines):
            ind, s, _ = lines[pos[0]]
            if ind > key_indent or (ind == key_indent and (s.startswith("- ") or s == "-")):
                return block(ind)
        return None

    def mapping(indent):
        out = {}
        while pos[0] < len(lines):
            ind, s, no = lines[pos[0]]
            if ind < indent:
                break
            if ind > indent:
                raise LayoutError(where(no) + "unexpected indentation")
            if s.startswith("- "):
                break
            k, rest = split_kv(s, no)
            if k in out:
                raise LayoutError(where(no) + "duplicate key '%s'" % k)
            out[k] = value_after(indent, rest, no)
        return out

    def seq(indent):
        out = []
        while pos[0] < len(lines):
            ind, s, no = lines[pos[0]]
            if ind < indent or not (s.startswith("- ") or s == "-"):
                if ind > indent:
                    raise LayoutError(where(no) + "unexpected indentation")
                break
            if ind > indent:
                raise LayoutError(where(no) + "unexpected indentation")
            item = s[1:].strip()
            if item == "":
                pos[0] += 1
                out.append(block(lines[pos[0]][0]) if pos[0] < len(lines) and lines[pos[0]][0] > indent else None)
                continue
            if re.match(r"^([A-Za-z_][A-Za-z0-9_.-]*|\"[^\"]*\"|'[^']*'):(\s|$)", item):
                # a mapping starting on the dash line; continuation lines are at indent + 2
                child = indent + (len(s) - len(s[1:].lstrip())) 
                lines[pos[0]] = (child, item, no)
                out.append(mapping(child))
                continue
            out.append(_scalar(item, where(no)))
            pos[0] += 1
        return out

    result = block(lines[0][0])
    if pos[0] < len(lines):
        raise LayoutError(where(lines[pos[0]][2]) + "unexpected content")
    return result


# ------------------------------------------------------------------------------------------ codecs

def _utf8(s):
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("string is not valid Unicode (unpaired surrogate): %s" % e)


class Field:
    def __init__(self, name, type_, length=-1, sign_flip=False, terminated=False,
                 sb_from=None, sb_buckets=0, sb_hash=None):
        self.name, self.type, self.length = name, type_, length
        self.sign_flip, self.terminated = sign_flip, terminated
        self.sb_from, self.sb_buckets, self.sb_hash = sb_from, sb_buckets, sb_hash

    def coerce(self, v):
        t = self.type
        if t == "string":
            if not isinstance(v, str):
                raise ValueError("expected a string, got %s" % type(v).__name__)
            if "\0" in v:
                raise ValueError("string contains a 0x00 byte at index %d (0x00 is the field terminator "
                                 "and cannot appear inside a string)" % v.index("\0"))
            return v
        if t == "bytes":
            if not isinstance(v, (bytes, bytearray)):
                raise ValueError("expected %d bytes (byte[]), got %s" % (self.length, type(v).__name__))
            if len(v) != self.length:
                raise ValueError("wrong length: expected exactly %d bytes, got %d" % (self.length, len(v)))
            return bytes(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError("expected an int, got %s" % type(v).__name__)
        if t == "int":
            if not INT_MIN <= v <= INT_MAX:
                raise ValueError("out of int range: %d" % v)
        elif t in ("long", "reversed_long"):
            if not LONG_MIN <= v <= LONG_MAX:
                raise ValueError("out of long range: %d" % v)
            if t == "reversed_long" and v < 0:
                raise ValueError("reversed long must be >= 0 (got %d): Long.MAX_VALUE - v overflows for negative v" % v)
        elif t == "sub_bucket":
            if not 0 <= v < self.sb_buckets:
                raise ValueError("sub-bucket %d out of range [0, %d)" % (v, self.sb_buckets))
        return v

    def value_bytes(self, v):
        v = self.coerce(v)
        t = self.type
        if t == "string":
            return _utf8(v)
        if t == "bytes":
            return v
        if t == "int":
            return struct.pack(">i", (v ^ INT_MIN) if self.sign_flip else v)
        if t == "long":
            return struct.pack(">q", (v ^ LONG_MIN) if self.sign_flip else v)
        if t == "reversed_long":
            return struct.pack(">q", LONG_MAX - v)
        return bytes([v])

    def encode(self, v):
        b = self.value_bytes(v)
        return b + b"\x00" if self.type == "string" and self.terminated else b

    def decode(self, key, pos):
        t = self.type

        def take(n, what):
            if len(key) - pos < n:
                raise ValueError("key too short: %s needs %d bytes at offset %d but only %d remain"
                                 % (what, n, pos, len(key) - pos))
            return key[pos:pos + n], pos + n

        if t == "string":
            if self.terminated:
                end = key.find(b"\x00", pos)
                if end < 0:
                    raise ValueError("key too short: string has no 0x00 terminator after offset %d" % pos)
                nxt = end + 1
            else:
                end = len(key)
                z = key.find(b"\x00", pos)
                if z >= 0:
                    raise ValueError("unterminated last string contains a 0x00 byte at offset %d" % z)
                nxt = end
            try:
                s = key[pos:end].decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("invalid UTF-8 in string at offset %d" % pos)
            return s, nxt
        if t == "bytes":
            return take(self.length, "bytes(%d)" % self.length)
        if t == "int":
            b, p = take(4, "int")
            v = struct.unpack(">i", b)[0]
            return ((v ^ INT_MIN) if self.sign_flip else v), p
        if t == "long":
            b, p = take(8, "long")
            v = struct.unpack(">q", b)[0]
            return ((v ^ LONG_MIN) if self.sign_flip else v), p
        if t == "reversed_long":
            at = pos
            b, p = take(8, "reversed long")
            s = struct.unpack(">q", b)[0]
            if s < 0:
                raise ValueError("reversed long at offset %d has its top bit set (would be a negative value)" % at)
            return LONG_MAX - s, p
        b, p = take(1, "sub-bucket")
        if b[0] >= self.sb_buckets:
            raise ValueError("sub-bucket %d out of range [0, %d)" % (b[0], self.sb_buckets))
        return b[0], p

    def sub_bucket_for(self, t):
        return bucket(self.sb_hash, struct.pack(">q", t), self.sb_buckets)


# ----------------------------------------------------------------------------------------- layouts

TOP_KEYS = {"name", "description", "time", "prefix", "fields"}
PREFIX_KEYS = {"kind", "hash", "buckets", "bytes", "fields"}
FIELD_KEYS = {"name", "type", "length", "signed", "terminated", "from", "buckets", "hash", "description"}
TYPES = ("string", "bytes", "int", "long", "reversed_long", "sub_bucket")


class Layout:
    def __init__(self, tree, source):
        self.source = source

        def err(where, problem):
            return LayoutError("Invalid layout %s: %s%s" % (source, where, problem))

        def mapping(o, where, allowed):
            if not isinstance(o, dict):
                raise err(where, "expected a mapping, got %s" % describe(o))
            for k in o:
                if not isinstance(k, str):
                    raise err(where, "key %s is not a string" % k)
                if k not in allowed:
                    raise err(where, "unknown key '%s' (allowed: %s)" % (k, ", ".join(sorted(allowed))))
            return o

        def describe(v):
            if v is None:
                return "nothing"
            if isinstance(v, dict):
                return "a mapping"
            if isinstance(v, list):
                return "a list"
            if isinstance(v, bool):
                return "boolean '%s'" % str(v).lower()
            if isinstance(v, int):
                return "integer '%d'" % v
            return "string '%s'" % v

        def string(m, key, where, required):
            v = m.get(key)
            if v is None:
                if required:
                    raise err(where, "missing required key '%s'" % key)
                return None
            if not isinstance(v, str):
                raise err(where, "'%s' must be a string, got %s (quote it)" % (key, describe(v)))
            return v

        def integer(m, key, where):
            v = m.get(key)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, int):
                raise err(where, "'%s' must be an integer, got %s" % (key, describe(v)))
            return v

        def boolean(m, key, where):
            v = m.get(key)
            if v is None:
                return None
            if not isinstance(v, bool):
                raise err(where, "'%s' must be true or false, got %s" % (key, describe(v)))
            return v

        def hash_name(h, where):
            if h not in HASHES:
                raise err(where, "unknown hash '%s' (known: md5, murmur3_32, crc32, crc32c, "
                                 "java_arrays_hashcode, phoenix)" % h)
            return h

        top = mapping(tree, "", TOP_KEYS)
        self.name = string(top, "name", "", True)
        if self.name == "":
            raise err("", "'name' must not be empty")
        self.description = string(top, "description", "", False)
        fl = top.get("fields")
        if not isinstance(fl, list) or not fl:
            raise err("", "'fields' must be a non-empty list of fields, got %s" % describe(fl))
        self.fields, self.by_name = [], {}
        for i, raw in enumerate(fl):
            last = i == len(fl) - 1
            w = "fields[%d]: " % i
            m = mapping(raw, w, FIELD_KEYS)
            name = string(m, "name", w, True)
            if name == "":
                raise err(w, "'name' must not be empty")
            w = "field '%s': " % name
            t = string(m, "type", w, True)
            if t not in TYPES:
                raise err(w, "unknown field type '%s' (known: string, bytes, int, long, reversed_long, sub_bucket)" % t)
            allowed = {"name", "type", "description"}
            length = integer(m, "length", w)
            signed = boolean(m, "signed", w)
            term = boolean(m, "terminated", w)
            if t == "string":
                allowed.add("terminated")
                term = term is None or term
                if not term and not last:
                    raise err(w, "only the last field may be an unterminated string ('terminated: false')")
                f = Field(name, t, terminated=term)
            elif t == "bytes":
                allowed.add("length")
                if length is None or length < 1:
                    raise err(w, "bytes fields need 'length' >= 1 (fixed length), got %s" % ("null" if length is None else length))
                f = Field(name, t, length=length)
            elif t in ("int", "long"):
                allowed.add("signed")
                f = Field(name, t, length=4 if t == "int" else 8, sign_flip=bool(signed))
            elif t == "reversed_long":
                f = Field(name, t, length=8)
            else:
                allowed |= {"from", "buckets", "hash"}
                frm = string(m, "from", w, True)
                nb = integer(m, "buckets", w)
                if nb is None or nb < 1 or nb > 256:
                    raise err(w, "sub_bucket needs 'buckets' in 1..256, got %s" % ("null" if nb is None else nb))
                h = string(m, "hash", w, False)
                h = "murmur3_32" if h is None else hash_name(h, w)
                if h == "phoenix":
                    raise err(w, "phoenix is only a salt-prefix hash; use another hash for a sub_bucket")
                f = Field(name, t, length=1, sb_from=frm, sb_buckets=nb, sb_hash=h)
            for k in m:
                if k not in allowed:
                    raise err(w, "key '%s' does not apply to a %s field" % (k, t))
            if name in self.by_name:
                raise err("fields[%d]: " % i, "duplicate field name '%s'" % name)
            self.fields.append(f)
            self.by_name[name] = f
        for f in self.fields:
            if f.type == "sub_bucket":
                src = self.by_name.get(f.sb_from)
                if src is None or src.type not in ("long", "reversed_long"):
                    raise err("field '%s': " % f.name, "'from' must name a long or reversed_long field, got '%s'" % f.sb_from)
        self.time = string(top, "time", "", False)
        if self.time is not None:
            tf = self.by_name.get(self.time)
            if tf is None:
                raise err("", "'time' names unknown field '%s' (fields: [%s])" % (self.time, ", ".join(self.by_name)))
            if tf.type not in ("long", "reversed_long"):
                raise err("", "'time' field '%s' must be a long or reversed_long (epoch millis), is %s" % (self.time, tf.type))
        rp = top.get("prefix")
        if rp is None:
            raise err("", "missing required key 'prefix' (use 'prefix:' with 'kind: none' for no prefix)")
        w = "prefix: "
        m = mapping(rp, w, PREFIX_KEYS)
        kind = string(m, "kind", w, True)
        if kind not in ("none", "salt", "hash_prefix", "full_hash"):
            raise err(w, "unknown kind '%s' (known: none, salt, hash_prefix, full_hash)" % kind)
        allowed = {"kind"}
        if kind != "none":
            allowed |= {"hash", "fields"}
        if kind == "salt":
            allowed.add("buckets")
        if kind in ("hash_prefix", "full_hash"):
            allowed.add("bytes")
        for k in m:
            if k not in allowed:
                raise err(w, "key '%s' does not apply to prefix kind %s" % (k, kind))
        self.kind, self.hash, self.buckets, self.prefix_bytes, self.input = kind, None, 0, 0, []
        if kind == "none":
            return
        h = string(m, "hash", w, True)
        self.hash = hash_name(h, w)
        fl = m.get("fields")
        if fl is not None:
            if not isinstance(fl, list) or not fl:
                raise err(w, "'fields' must be a non-empty list of field names, got %s" % describe(fl))
            for o in fl:
                if not isinstance(o, str) or o not in self.by_name:
                    raise err(w, "'fields' names unknown field %s (fields: [%s])" % (describe(o), ", ".join(self.by_name)))
                if o in self.input:
                    raise err(w, "'fields' names field '%s' twice" % o)
                self.input.append(o)
        if self.hash == "phoenix" and kind != "salt":
            raise err(w, "hash phoenix is only defined for kind salt (Phoenix's SALT_BUCKETS byte)")
        if kind == "salt":
            n = integer(m, "buckets", w)
            if n is None or n < 1 or n > 256:
                raise err(w, "salt needs 'buckets' N with 1 <= N <= 256 (one salt byte), got %s" % ("null" if n is None else n))
            if self.hash == "phoenix" and self.input:
                raise err(w, "hash phoenix salts the whole key after the salt byte; remove 'fields'")
            self.buckets, self.prefix_bytes = n, 1
        elif kind == "hash_prefix":
            k = integer(m, "bytes", w)
            k = 2 if k is None else k
            if k < 1 or k > DIGEST_LENGTH[self.hash]:
                raise err(w, "hash_prefix 'bytes' must be in 1..%d for %s, got %d" % (DIGEST_LENGTH[self.hash], h, k))
            self.prefix_bytes = k
        else:
            if self.hash != "md5":
                raise err(w, "full_hash refuses %s: the key would be only a %d-byte hash, and a 32-bit hash "
                             "reaches 50%% collision odds at about 77,000 keys; use md5 (16 bytes)" % (h, DIGEST_LENGTH[self.hash]))
            k = integer(m, "bytes", w)
            if k is not None and k != 16:
                raise err(w, "full_hash refuses truncation to %d bytes: a truncated hash collides (32 bits: 50%% "
                             "odds at about 77,000 keys); the full md5 is 16 bytes" % k)
            self.prefix_bytes = 16

    # -- encode

    def _coerce_all(self, values, require_all=True):
        for k in values:
            if k not in self.by_name:
                raise KeyEncodeError(k, "Cannot encode with layout %s: unknown field '%s' (layout fields: [%s])"
                                     % (self.name, k, ", ".join(self.by_name)))
        out = {}
        for f in self.fields:
            if f.type == "sub_bucket":
                continue
            if values.get(f.name) is None:
                if require_all:
                    raise KeyEncodeError(f.name, "Cannot encode with layout %s: missing field '%s'" % (self.name, f.name))
                continue
            try:
                out[f.name] = f.coerce(values[f.name])
                f.value_bytes(out[f.name])
            except ValueError as e:
                raise KeyEncodeError(f.name, "Cannot encode with layout %s: field '%s': %s" % (self.name, f.name, e))
        for f in self.fields:
            if f.type != "sub_bucket" or f.sb_from not in out:
                continue
            b = f.sub_bucket_for(out[f.sb_from])
            given = values.get(f.name)
            if given is not None and given != b:
                raise KeyEncodeError(f.name, "Cannot encode with layout %s: field '%s': sub-bucket %s does not match "
                                     "its time field '%s' (expected %d)" % (self.name, f.name, given, f.sb_from, b))
            out[f.name] = b
        return {f.name: out[f.name] for f in self.fields if f.name in out}

    def _natural(self, values, count):
        return b"".join(f.encode(values[f.name]) for f in self.fields[:count])

    def _hash_input(self, values, natural):
        if not self.input:
            return natural
        return b"".join(self.by_name[n].value_bytes(values[n]) for n in self.input)

    def _prefix(self, values, natural):
        data = self._hash_input(values, natural)
        if self.kind == "salt":
            return bytes([bucket(self.hash, data, self.buckets)])
        if self.kind == "hash_prefix":
            return digest(self.hash, data)[:self.prefix_bytes]
        return b""

    def encode(self, values):
        v = self._coerce_all(values)
        natural = self._natural(v, len(self.fields))
        if self.kind == "none":
            return natural
        if self.kind == "full_hash":
            return hashlib.md5(self._hash_input(v, natural)).digest()
        return self._prefix(v, natural) + natural

    # -- decode

    def decodable(self):
        return self.kind != "full_hash"

    def decode(self, key):
        """Returns (fields dict in key order, prefix bytes); raises KeyDecodeError with .reason."""
        key = bytes(key)

        def fail(reason):
            return KeyDecodeError(self.name, key, reason)

        if self.kind == "full_hash":
            raise fail("not reversible: a full_hash key is the MD5 of the fields, and a hash cannot be turned "
                       "back into its input (keep the natural key in a column if you need it)")
        p = self.prefix_bytes
        if len(key) < p:
            raise fail("key too short: %d bytes, the prefix alone is %d" % (len(key), p))
        pre = key[:p]
        if self.kind == "salt" and pre[0] >= self.buckets:
            raise fail("salt byte 0x%02x out of range [0, %d)" % (pre[0], self.buckets))
        pos, values = p, {}
        for f in self.fields:
            at = pos
            try:
                values[f.name], pos = f.decode(key, pos)
            except ValueError as e:
                raise fail("field '%s' at offset %d: %s" % (f.name, at, e))
        if pos < len(key):
            raise fail("%d trailing bytes after the last field (offset %d)" % (len(key) - pos, pos))
        for f in self.fields:
            if f.type == "sub_bucket":
                want = f.sub_bucket_for(values[f.sb_from])
                if want != values[f.name]:
                    raise fail("sub-bucket %d in field '%s' does not match its time field '%s' (expected %d)"
                               % (values[f.name], f.name, f.sb_from, want))
        if p:
            want = self._prefix(values, key[p:])
            if want != pre:
                what = "salt byte" if self.kind == "salt" else "hash prefix"
                raise fail("%s 0x%s does not match the fields (expected 0x%s)" % (what, pre.hex(), want.hex()))
        return values, pre


def load_layout(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return Layout(parse_yaml_subset(text, str(path)), str(path))


# ------------------------------------------------------------------------------------ text values

def parse_value(field, s):
    """CLI/vector text → typed value: bytes as hex, numbers as decimal, strings as-is."""
    t = field.type
    if t == "string":
        return s
    if t == "bytes":
        try:
            if len(s) % 2:
                raise ValueError("odd number of characters")
            return bytes.fromhex(s) if re.fullmatch(r"[0-9a-fA-F]*", s) else bytes.fromhex("zz")
        except ValueError as e:
            raise KeyEncodeError(field.name, "field '%s' (bytes, give hex): not valid hex (%s): '%s'" % (field.name, e, s))
    lo, hi, kind = (INT_MIN, INT_MAX, "int") if t in ("int", "sub_bucket") else (LONG_MIN, LONG_MAX, "long")
    st = s.strip()
    if not re.fullmatch(r"[-+]?[0-9]+", st) or not lo <= int(st) <= hi:
        raise KeyEncodeError(field.name, "field '%s' (%s): not a decimal %s in [%d, %d]: '%s'" % (field.name, t, kind, lo, hi, s))
    return int(st)


def parse_values(layout, text):
    for k in text:
        if k not in layout.by_name:
            raise KeyEncodeError(k, "unknown field '%s' for layout %s (fields: [%s])" % (k, layout.name, ", ".join(layout.by_name)))
    return {f.name: parse_value(f, text[f.name]) for f in layout.fields if f.name in text}


def format_value(field, v):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return str(v)
