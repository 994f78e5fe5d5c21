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

  private LayoutParser(String source) {
    this.source = source;
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
      throw new LayoutException("Cannot read " + source + ": not valid JSON: " + e.getMessage(), e);
    }
  }

  static KeyLayout build(Object tree, String source) {
    return new LayoutParser(source).layout(tree);
  }

  private LayoutException err(String where, String problem) {
    return new LayoutException("Invalid layout " + source + ": " + where + problem);
  }

  private Map<String, Object> map(Object o, String where, Set<String> allowed) {
    if (!(o instanceof Map)) {
      throw err(where, "expected a mapping, got " + describe(o));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
      if (!(e.getKey() instanceof String)) {
        throw err(where, "key " + e.getKey() + " is not a string");
      }
      String k = (String) e.getKey();
      if (!allowed.contains(k)) {
        throw err(
            where,
            "unknown key '"
                + k
                + "' (allowed: "
                + String.join(", ", new java.util.TreeSet<>(allowed))
                + ")");
      }
      m.put(k, e.getValue());
    }
    return m;
  }

  private String str(Map<String, Object> m, String key, String where, boolean required) {
    Object v = m.get(key);
    if (v == null) {
      if (required) {
        throw err(where, "missing required key '" + key + "'");
      }
      return null;
    }
    if (!(v instanceof String)) {
      throw err(where, "'" + key + "' must be a string, got " + describe(v) + " (quote it)");
    }
    return (String) v;
  }

  private Integer integer(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Integer)) {
      throw err(where, "'" + key + "' must be an integer, got " + describe(v));
    }
    return (Integer) v;
  }

  private Boolean bool(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Boolean)) {
      throw err(where, "'" + key + "' must be true or false, got " + describe(v));
    }
    return (Boolean) v;
  }

  private static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    if (v instanceof Map) {
      return "a mapping";
    }
    if (v instanceof List) {
      return "a list";
    }
    return v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + " '" + v + "'";
  }

  private KeyLayout layout(Object tree) {
    Map<String, Object> top = map(tree, "", TOP_KEYS);
    String name = str(top, "name", "", true);
    if (name.isEmpty()) {
      throw err("", "'name' must not be empty");
    }
    String description = str(top, "description", "", false);
    Object fl = top.get("fields");
    if (!(fl instanceof List) || ((List<?>) fl).isEmpty()) {
      throw err("", "'fields' must be a non-empty list of fields, got " + describe(fl));
    }
    List<?> rawFields = (List<?>) fl;
    List<FieldSpec> fields = new ArrayList<>();
    Map<String, FieldSpec> byName = new LinkedHashMap<>();
    for (int i = 0; i < rawFields.size(); i++) {
      FieldSpec f = field(rawFields.get(i), i, i == rawFields.size() - 1);
      if (byName.put(f.name(), f) != null) {
        throw err("fields[" + i + "]: ", "duplicate field name '" + f.name() + "'");
      }
      fields.add(f);
    }
    for (FieldSpec f : fields) {
      SubBucketCodec sb = f.subBucket();
      if (sb != null) {
        FieldSpec from = byName.get(sb.from());
        if (from == null
            || (from.type() != FieldType.LONG && from.type() != FieldType.REVERSED_LONG)) {
          throw err(
              "field '" + f.name() + "': ",
              "'from' must name a long or reversed_long field, got '" + sb.from() + "'");
        }
      }
    }
    String time = str(top, "time", "", false);
    if (time != null) {
      FieldSpec tf = byName.get(time);
      if (tf == null) {
        throw err(
            "", "'time' names unknown field '" + time + "' (fields: " + byName.keySet() + ")");
      }
      if (tf.type() != FieldType.LONG && tf.type() != FieldType.REVERSED_LONG) {
        throw err(
            "",
            "'time' field '"
                + time
                + "' must be a long or reversed_long (epoch millis), is "
                + tf.type().fileName());
      }
    }
    Object rawPrefix = top.get("prefix");
    if (rawPrefix == null) {
      throw err(
          "", "missing required key 'prefix' (use 'prefix:' with 'kind: none' for no prefix)");
    }
    PrefixSpec prefix = prefix(rawPrefix, byName);
    return new KeyLayout(name, description, source, fields, prefix, time);
  }

  private FieldSpec field(Object raw, int index, boolean last) {
    String where = "fields[" + index + "]: ";
    Map<String, Object> m = map(raw, where, FIELD_KEYS);
    String name = str(m, "name", where, true);
    if (name.isEmpty()) {
      throw err(where, "'name' must not be empty");
    }
    where = "field '" + name + "': ";
    String typeName = str(m, "type", where, true);
    FieldType type;
    try {
      type = FieldType.fromFileName(typeName);
    } catch (IllegalArgumentException e) {
      throw err(where, e.getMessage());
    }
    Set<String> allowed = new HashSet<>(Set.of("name", "type", "description"));
    Integer length = integer(m, "length", where);
    Boolean signed = bool(m, "signed", where);
    Boolean terminated = bool(m, "terminated", where);
    FieldSpec spec;
    switch (type) {
      case STRING:
        allowed.add("terminated");
        boolean term = terminated == null || terminated;
        if (!term && !last) {
          throw err(
              where, "only the last field may be an unterminated string ('terminated: false')");
        }
        spec = new FieldSpec(name, type, -1, false, term, new Utf8StringCodec(term));
        break;
      case BYTES:
        allowed.add("length");
        if (length == null || length < 1) {
          throw err(where, "bytes fields need 'length' >= 1 (fixed length), got " + length);
        }
        spec = new FieldSpec(name, type, length, false, false, new FixedBytesCodec(length));
        break;
      case INT:
        allowed.add("signed");
        spec =
            new FieldSpec(
                name,
                type,
                4,
                Boolean.TRUE.equals(signed),
                false,
                new IntCodec(Boolean.TRUE.equals(signed)));
        break;
      case LONG:
        allowed.add("signed");
        spec =
            new FieldSpec(
                name,
                type,
                8,
                Boolean.TRUE.equals(signed),
                false,
                new LongCodec(Boolean.TRUE.equals(signed)));
        break;
      case REVERSED_LONG:
        spec = new FieldSpec(name, type, 8, false, false, new ReversedLongCodec());
        break;
      case SUB_BUCKET:
        {
          allowed.add("from");
          allowed.add("buckets");
          allowed.add("hash");
          String from = str(m, "from", where, true);
          Integer buckets = integer(m, "buckets", where);
          if (buckets == null || buckets < 1 || buckets > 256) {
            throw err(where, "sub_bucket needs 'buckets' in 1..256, got " + buckets);
          }
          String h = str(m, "hash", where, false);
          HashFunction hash;
          try {
            hash = h == null ? HashFunction.MURMUR3_32 : HashFunction.fromFileName(h);
          } catch (IllegalArgumentException e) {
            throw err(where, e.getMessage());
          }
          if (hash == HashFunction.PHOENIX) {
            throw err(
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
        throw err(where, "key '" + k + "' does not apply to a " + type.fileName() + " field");
      }
    }
    return spec;
  }

  private PrefixSpec prefix(Object raw, Map<String, FieldSpec> byName) {
    String where = "prefix: ";
    Map<String, Object> m = map(raw, where, PREFIX_KEYS);
    String kindName = str(m, "kind", where, true);
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
        throw err(
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
        throw err(where, "key '" + k + "' does not apply to prefix kind " + kindName);
      }
    }
    if (kind == PrefixSpec.Kind.NONE) {
      return new PrefixSpec(kind, null, 0, 0, List.of());
    }
    String h = str(m, "hash", where, true);
    HashFunction hash;
    try {
      hash = HashFunction.fromFileName(h);
    } catch (IllegalArgumentException e) {
      throw err(where, e.getMessage());
    }
    List<String> input = new ArrayList<>();
    Object fl = m.get("fields");
    if (fl != null) {
      if (!(fl instanceof List) || ((List<?>) fl).isEmpty()) {
        throw err(where, "'fields' must be a non-empty list of field names, got " + describe(fl));
      }
      for (Object o : (List<?>) fl) {
        if (!(o instanceof String) || !byName.containsKey(o)) {
          throw err(
              where,
              "'fields' names unknown field " + describe(o) + " (fields: " + byName.keySet() + ")");
        }
        if (input.contains(o)) {
          throw err(where, "'fields' names field '" + o + "' twice");
        }
        input.add((String) o);
      }
    }
    if (hash == HashFunction.PHOENIX && kind != PrefixSpec.Kind.SALT) {
      throw err(where, "hash phoenix is only defined for kind salt (Phoenix's SALT_BUCKETS byte)");
    }
    switch (kind) {
      case SALT:
        {
          Integer n = integer(m, "buckets", where);
          if (n == null || n < 1 || n > 256) {
            throw err(where, "salt needs 'buckets' N with 1 <= N <= 256 (one salt byte), got " + n);
          }
          if (hash == HashFunction.PHOENIX && !input.isEmpty()) {
            throw err(
                where, "hash phoenix salts the whole key after the salt byte; remove 'fields'");
          }
          return new PrefixSpec(kind, hash, n, 1, input);
        }
      case HASH_PREFIX:
        {
          Integer k = integer(m, "bytes", where);
          int bytes = k == null ? 2 : k;
          if (bytes < 1 || bytes > hash.digestLength()) {
            throw err(
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
            throw err(
                where,
                "full_hash refuses "
                    + h
                    + ": the key would be only a "
                    + hash.digestLength()
                    + "-byte hash, and a 32-bit hash reaches 50% collision odds at about 77,000 keys; use md5 (16 bytes)");
          }
          Integer k = integer(m, "bytes", where);
          if (k != null && k != 16) {
            throw err(
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
