package dev.rekey.rowkey;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Validates the layout tree (from YAML or an inline JSON object) and builds a {@link KeyLayout}.
 */
final class LayoutParser {
  static final Set<String> TOP_KEYS = Set.of("name", "description", "time", "prefix", "fields");
  static final Set<String> PREFIX_KEYS = Set.of("kind", "hash", "buckets", "bytes", "fields");
  static final Set<String> FIELD_KEYS =
      Set.of(
          "name",
          "type",
          "length",
          "signed",
          "terminated",
          "from",
          "buckets",
          "hash",
          "description");

  private final String source;

  /** The tree's typed, strict reading; its errors name the layout and the path. */
  private final LayoutTree tree;

  private LayoutParser(String source) {
    this.source = source;
    this.tree = new LayoutTree(source);
  }

  /**
   * Reads layout YAML by the strict subset the Python reference reads, so both see the same layout.
   */
  static Object loadYaml(String text, String source) {
    return StrictYaml.load(text, source);
  }

  /**
   * Reads a JSON document (vector files); JSON has no YAML 1.1 ambiguities, so SnakeYAML's safe
   * loader is fine.
   */
  static Object loadJson(String text, String source) {
    LoaderOptions opts = new LoaderOptions();
    opts.setAllowDuplicateKeys(false);
    try {
      return new Yaml(new SafeConstructor(opts)).load(text);
    } catch (RuntimeException e) {
      throw new LayoutException(
          String.format("Cannot read %s: not valid JSON: %s", source, e.getMessage()), e);
    }
  }

  static KeyLayout build(Object tree, String source) {
    return new LayoutParser(source).layout(tree);
  }

  private KeyLayout layout(Object root) {
    Map<String, Object> top = tree.map(root, "", TOP_KEYS);
    String name = tree.str(top, "name", "", true);
    if (name.isEmpty()) {
      throw tree.err("", "'name' must not be empty");
    }
    String description = tree.str(top, "description", "", false);
    Object fl = top.get("fields");
    if (!(fl instanceof List) || ((List<?>) fl).isEmpty()) {
      throw tree.err(
          "", "'fields' must be a non-empty list of fields, got " + LayoutTree.describe(fl));
    }
    List<?> rawFields = (List<?>) fl;
    List<FieldSpec> fields = new ArrayList<>();
    Map<String, FieldSpec> byName = new LinkedHashMap<>();
    for (int i = 0; i < rawFields.size(); i++) {
      FieldSpec f = field(rawFields.get(i), i, i == rawFields.size() - 1);
      if (byName.put(f.name(), f) != null) {
        throw tree.err("fields[" + i + "]: ", "duplicate field name '" + f.name() + "'");
      }
      fields.add(f);
    }
    for (FieldSpec f : fields) {
      SubBucketCodec sb = f.subBucket();
      if (sb != null) {
        FieldSpec from = byName.get(sb.from());
        if (from == null
            || (from.type() != FieldType.LONG && from.type() != FieldType.REVERSED_LONG)) {
          throw tree.err(
              "field '" + f.name() + "': ",
              "'from' must name a long or reversed_long field, got '" + sb.from() + "'");
        }
      }
    }
    String time = tree.str(top, "time", "", false);
    if (time != null) {
      FieldSpec tf = byName.get(time);
      if (tf == null) {
        throw tree.err(
            "", "'time' names unknown field '" + time + "' (fields: " + byName.keySet() + ")");
      }
      if (tf.type() != FieldType.LONG && tf.type() != FieldType.REVERSED_LONG) {
        throw tree.err(
            "",
            "'time' field '"
                + time
                + "' must be a long or reversed_long (epoch millis), is "
                + tf.type().fileName());
      }
    }
    Object rawPrefix = top.get("prefix");
    if (rawPrefix == null) {
      throw tree.err(
          "", "missing required key 'prefix' (use 'prefix:' with 'kind: none' for no prefix)");
    }
    PrefixSpec prefix = prefix(rawPrefix, byName);
    return new KeyLayout(name, description, source, fields, prefix, time);
  }

  private FieldSpec field(Object raw, int index, boolean last) {
    String where = "fields[" + index + "]: ";
    Map<String, Object> m = tree.map(raw, where, FIELD_KEYS);
    String name = tree.str(m, "name", where, true);
    if (name.isEmpty()) {
      throw tree.err(where, "'name' must not be empty");
    }
    where = "field '" + name + "': ";
    String typeName = tree.str(m, "type", where, true);
    FieldType type;
    try {
      type = FieldType.fromFileName(typeName);
    } catch (IllegalArgumentException e) {
      throw tree.err(where, e.getMessage());
    }
    Set<String> allowed = new HashSet<>(Set.of("name", "type", "description"));
    Integer length = tree.integer(m, "length", where);
    Boolean signed = tree.bool(m, "signed", where);
    Boolean terminated = tree.bool(m, "terminated", where);
    FieldSpec spec;
    switch (type) {
      case STRING:
        allowed.add("terminated");
        boolean term = terminated == null || terminated;
        if (!term && !last) {
          throw tree.err(
              where, "only the last field may be an unterminated string ('terminated: false')");
        }
        spec = new FieldSpec(name, type, -1, false, term, new Utf8StringCodec(term));
        break;
      case BYTES:
        allowed.add("length");
        if (length == null || length < 1) {
          throw tree.err(where, "bytes fields need 'length' >= 1 (fixed length), got " + length);
        }
        spec = new FieldSpec(name, type, length, false, false, new FixedBytesCodec(length));
        break;
      case INT:
      case LONG:
        {
          allowed.add("signed");
          boolean sign = Boolean.TRUE.equals(signed);
          spec =
              type == FieldType.INT
                  ? new FieldSpec(name, type, 4, sign, false, new IntCodec(sign))
                  : new FieldSpec(name, type, 8, sign, false, new LongCodec(sign));
          break;
        }
      case REVERSED_LONG:
        spec = new FieldSpec(name, type, 8, false, false, new ReversedLongCodec());
        break;
      case SUB_BUCKET:
        {
          allowed.add("from");
          allowed.add("buckets");
          allowed.add("hash");
          String from = tree.str(m, "from", where, true);
          Integer buckets = tree.integer(m, "buckets", where);
          if (buckets == null || buckets < 1 || buckets > 256) {
            throw tree.err(where, "sub_bucket needs 'buckets' in 1..256, got " + buckets);
          }
          String h = tree.str(m, "hash", where, false);
          HashFunction hash;
          try {
            hash = h == null ? HashFunction.MURMUR3_32 : HashFunction.fromFileName(h);
          } catch (IllegalArgumentException e) {
            throw tree.err(where, e.getMessage());
          }
          if (hash == HashFunction.PHOENIX) {
            throw tree.err(
                where, "phoenix is only a salt-prefix hash; use another hash for a sub_bucket");
          }
          spec =
              new FieldSpec(name, type, 1, false, false, new SubBucketCodec(from, buckets, hash));
          break;
        }
      default:
        throw new AssertionError(type);
    }
    for (String k : m.keySet()) {
      if (!allowed.contains(k)) {
        throw tree.err(where, "key '" + k + "' does not apply to a " + type.fileName() + " field");
      }
    }
    return spec;
  }

  private PrefixSpec prefix(Object raw, Map<String, FieldSpec> byName) {
    String where = "prefix: ";
    Map<String, Object> m = tree.map(raw, where, PREFIX_KEYS);
    String kindName = tree.str(m, "kind", where, true);
    PrefixSpec.Kind kind;
    switch (kindName) {
      case "none":
        kind = PrefixSpec.Kind.NONE;
        break;
      case "salt":
        kind = PrefixSpec.Kind.SALT;
        break;
      case "hash_prefix":
        kind = PrefixSpec.Kind.HASH_PREFIX;
        break;
      case "full_hash":
        kind = PrefixSpec.Kind.FULL_HASH;
        break;
      default:
        throw tree.err(
            where, "unknown kind '" + kindName + "' (known: none, salt, hash_prefix, full_hash)");
    }
    Set<String> allowed = new HashSet<>(Set.of("kind"));
    if (kind != PrefixSpec.Kind.NONE) {
      allowed.add("hash");
      allowed.add("fields");
    }
    if (kind == PrefixSpec.Kind.SALT) {
      allowed.add("buckets");
    }
    if (kind == PrefixSpec.Kind.HASH_PREFIX || kind == PrefixSpec.Kind.FULL_HASH) {
      allowed.add("bytes");
    }
    for (String k : m.keySet()) {
      if (!allowed.contains(k)) {
        throw tree.err(where, "key '" + k + "' does not apply to prefix kind " + kindName);
      }
    }
    if (kind == PrefixSpec.Kind.NONE) {
      return new PrefixSpec(kind, null, 0, 0, List.of());
    }
    String h = tree.str(m, "hash", where, true);
    HashFunction hash;
    try {
      hash = HashFunction.fromFileName(h);
    } catch (IllegalArgumentException e) {
      throw tree.err(where, e.getMessage());
    }
    List<String> input = new ArrayList<>();
    Object fl = m.get("fields");
    if (fl != null) {
      if (!(fl instanceof List) || ((List<?>) fl).isEmpty()) {
        throw tree.err(
            where,
            "'fields' must be a non-empty list of field names, got " + LayoutTree.describe(fl));
      }
      for (Object o : (List<?>) fl) {
        if (!(o instanceof String) || !byName.containsKey(o)) {
          throw tree.err(
              where,
              "'fields' names unknown field "
                  + LayoutTree.describe(o)
                  + " (fields: "
                  + byName.keySet()
                  + ")");
        }
        if (input.contains(o)) {
          throw tree.err(where, "'fields' names field '" + o + "' twice");
        }
        input.add((String) o);
      }
    }
    if (hash == HashFunction.PHOENIX && kind != PrefixSpec.Kind.SALT) {
      throw tree.err(
          where, "hash phoenix is only defined for kind salt (Phoenix's SALT_BUCKETS byte)");
    }
    switch (kind) {
      case SALT:
        {
          Integer n = tree.integer(m, "buckets", where);
          if (n == null || n < 1 || n > 256) {
            throw tree.err(
                where, "salt needs 'buckets' N with 1 <= N <= 256 (one salt byte), got " + n);
          }
          if (hash == HashFunction.PHOENIX && !input.isEmpty()) {
            throw tree.err(
                where, "hash phoenix salts the whole key after the salt byte; remove 'fields'");
          }
          return new PrefixSpec(kind, hash, n, 1, input);
        }
      case HASH_PREFIX:
        {
          Integer k = tree.integer(m, "bytes", where);
          int bytes = k == null ? 2 : k;
          if (bytes < 1 || bytes > hash.digestLength()) {
            throw tree.err(
                where,
                "hash_prefix 'bytes' must be in 1.."
                    + hash.digestLength()
                    + " for "
                    + h
                    + ", got "
                    + bytes);
          }
          return new PrefixSpec(kind, hash, 0, bytes, input);
        }
      default:
        {
          if (hash != HashFunction.MD5) {
            throw tree.err(
                where,
                "full_hash refuses "
                    + h
                    + ": the key would be only a "
                    + hash.digestLength()
                    + "-byte hash, and a 32-bit hash reaches 50% collision odds at about 77,000 keys; use md5 (16 bytes)");
          }
          Integer k = tree.integer(m, "bytes", where);
          if (k != null && k != 16) {
            throw tree.err(
                where,
                "full_hash refuses truncation to "
                    + k
                    + " bytes: a truncated hash collides"
                    + " (32 bits: 50% odds at about 77,000 keys); the full md5 is 16 bytes");
          }
          return new PrefixSpec(kind, hash, 0, 16, input);
        }
    }
  }
}
