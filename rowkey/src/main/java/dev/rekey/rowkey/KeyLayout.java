package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed layout file: a row key = prefix + fields. Immutable, thread-safe and Serializable. See
 * docs/layouts.md for the file format and every byte format.
 */
public final class KeyLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final String description;
  private final String source;
  private final List<FieldSpec> fields;
  private final Map<String, FieldSpec> byName;
  private final PrefixSpec prefix;
  private final String timeField;

  KeyLayout(String name, String description, String source, List<FieldSpec> fields, PrefixSpec prefix, String timeField) {
    this.name = name;
    this.description = description;
    this.source = source;
    this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
    Map<String, FieldSpec> m = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      m.put(f.name(), f);
    }
    this.byName = Collections.unmodifiableMap(m);
    this.prefix = prefix;
    this.timeField = timeField;
  }

  /** Loads a layout file (YAML); throws LayoutException naming the file and the problem. */
  public static KeyLayout load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LayoutException("Cannot read layout " + file + ": " + e, e);
    }
    return parse(text, file.toString());
  }

  /** Parses layout YAML text; {@code sourceName} names it in error messages. */
  public static KeyLayout parse(String yamlText, String sourceName) {
    return LayoutParser.build(LayoutParser.loadYaml(yamlText, sourceName), sourceName);
  }

  /** Builds a layout from an already-parsed tree (maps, lists, scalars), e.g. inline JSON in vectors. */
  public static KeyLayout fromTree(Object tree, String sourceName) {
    return LayoutParser.build(tree, sourceName);
  }

  public String name() {
    return name;
  }

  public Optional<String> description() {
    return Optional.ofNullable(description);
  }

  /** Where the layout came from (file path or a name given to parse). */
  public String source() {
    return source;
  }

  public List<FieldSpec> fields() {
    return fields;
  }

  public FieldSpec field(String fieldName) {
    return byName.get(fieldName);
  }

  public PrefixSpec prefix() {
    return prefix;
  }

  public Optional<String> timeField() {
    return Optional.ofNullable(timeField);
  }

  /** False for FULL_HASH layouts: the key is a hash and cannot be turned back into fields. */
  public boolean decodable() {
    return prefix.kind() != PrefixSpec.Kind.FULL_HASH;
  }

  // ---------------------------------------------------------------------------------------- encode

  /**
   * Encodes field values (Java types per {@link FieldType}) into the row key. SUB_BUCKET fields are
   * derived and may be omitted. Throws KeyEncodeException naming the field.
   */
  public byte[] encode(Map<String, Object> fieldValues) {
    Map<String, Object> values = coerceAll(fieldValues, true);
    byte[] natural = naturalBytes(values, fields.size());
    switch (prefix.kind()) {
      case NONE:
        return natural;
      case FULL_HASH:
        return HashFunction.MD5.digest(hashInput(values, natural));
      default:
        return concat(prefixFor(values, natural), natural);
    }
  }

  /** Checks names, fills derived sub-buckets and coerces values; {@code all} = every field required. */
  private Map<String, Object> coerceAll(Map<String, Object> in, boolean all) {
    for (String k : in.keySet()) {
      if (!byName.containsKey(k)) {
        throw new KeyEncodeException(k, "Cannot encode with layout " + name + ": unknown field '" + k
            + "' (layout fields: " + byName.keySet() + ")");
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      if (f.type() == FieldType.SUB_BUCKET) {
        continue;
      }
      if (!in.containsKey(f.name()) || in.get(f.name()) == null) {
        if (all) {
          throw new KeyEncodeException(f.name(), "Cannot encode with layout " + name + ": missing field '" + f.name() + "'");
        }
        continue;
      }
      try {
        out.put(f.name(), f.codec().coerce(in.get(f.name())));
        f.codec().valueBytes(out.get(f.name())); // validates e.g. unpaired surrogates
      } catch (IllegalArgumentException e) {
        throw new KeyEncodeException(f.name(), "Cannot encode with layout " + name + ": field '" + f.name() + "': " + e.getMessage());
      }
    }
    for (FieldSpec f : fields) {
      SubBucketCodec sb = f.subBucket();
      if (sb == null || !out.containsKey(sb.from())) {
        continue;
      }
      int b = sb.bucketFor((Long) out.get(sb.from()));
      Object given = in.get(f.name());
      if (given != null && !Integer.valueOf(b).equals(given)) {
        throw new KeyEncodeException(f.name(), "Cannot encode with layout " + name + ": field '" + f.name()
            + "': sub-bucket " + given + " does not match its time field '" + sb.from() + "' (expected " + b + ")");
      }
      out.put(f.name(), b);
    }
    // keep key order
    Map<String, Object> ordered = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      if (out.containsKey(f.name())) {
        ordered.put(f.name(), out.get(f.name()));
      }
    }
    return ordered;
  }

  private byte[] naturalBytes(Map<String, Object> values, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i = 0; i < count; i++) {
      FieldSpec f = fields.get(i);
      f.codec().encode(values.get(f.name()), out);
    }
    return out.toByteArray();
  }

  /** The hash input: the named fields' value bytes concatenated, or the whole natural key. */
  private byte[] hashInput(Map<String, Object> values, byte[] natural) {
    if (prefix.inputFields().isEmpty()) {
      return natural;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (String n : prefix.inputFields()) {
      out.writeBytes(byName.get(n).codec().valueBytes(values.get(n)));
    }
    return out.toByteArray();
  }

  private byte[] prefixFor(Map<String, Object> values, byte[] natural) {
    byte[] in = hashInput(values, natural);
    switch (prefix.kind()) {
      case SALT:
        return new byte[] {(byte) prefix.hash().bucket(in, prefix.buckets())};
      case HASH_PREFIX:
        return Arrays.copyOf(prefix.hash().digest(in), prefix.bytes());
      default:
        return new byte[0];
    }
  }

  /** The salt bucket (0..N-1) the values map to; SALT layouts only. */
  public int saltOf(Map<String, Object> fieldValues) {
    if (prefix.kind() != PrefixSpec.Kind.SALT) {
      throw new IllegalStateException("layout " + name + " has no salt prefix (" + prefix + ")");
    }
    return encode(fieldValues)[0] & 0xff;
  }

  // ---------------------------------------------------------------------------------------- decode

  /**
   * Decodes a row key into its fields, verifying the prefix, derived sub-buckets and that no bytes are
   * left over. Throws KeyDecodeException with a reason; FULL_HASH layouts always refuse.
   */
  public DecodedKey decode(byte[] rowKey) {
    if (rowKey == null) {
      throw new KeyDecodeException(name, new byte[0], "key is null");
    }
    if (prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      throw new KeyDecodeException(name, rowKey, "not reversible: a full_hash key is the MD5 of the fields,"
          + " and a hash cannot be turned back into its input (keep the natural key in a column if you need it)");
    }
    int p = prefix.bytes();
    if (rowKey.length < p) {
      throw new KeyDecodeException(name, rowKey, "key too short: " + rowKey.length + " bytes, the prefix alone is " + p);
    }
    byte[] pre = Arrays.copyOf(rowKey, p);
    if (prefix.kind() == PrefixSpec.Kind.SALT && (pre[0] & 0xff) >= prefix.buckets()) {
      throw new KeyDecodeException(name, rowKey, String.format("salt byte 0x%02x out of range [0, %d)", pre[0] & 0xff, prefix.buckets()));
    }
    FieldCodec.Cursor c = new FieldCodec.Cursor(rowKey, p);
    LinkedHashMap<String, Object> values = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      int at = c.pos();
      try {
        values.put(f.name(), f.codec().decode(c));
      } catch (IllegalArgumentException e) {
        throw new KeyDecodeException(name, rowKey, "field '" + f.name() + "' at offset " + at + ": " + e.getMessage());
      }
    }
    if (c.remaining() > 0) {
      throw new KeyDecodeException(name, rowKey, c.remaining() + " trailing bytes after the last field (offset " + c.pos() + ")");
    }
    for (FieldSpec f : fields) {
      SubBucketCodec sb = f.subBucket();
      if (sb != null) {
        int want = sb.bucketFor((Long) values.get(sb.from()));
        if (want != (Integer) values.get(f.name())) {
          throw new KeyDecodeException(name, rowKey, String.format(
              "sub-bucket %d in field '%s' does not match its time field '%s' (expected %d)",
              values.get(f.name()), f.name(), sb.from(), want));
        }
      }
    }
    if (p > 0) {
      byte[] want = prefixFor(values, Arrays.copyOfRange(rowKey, p, rowKey.length));
      if (!Arrays.equals(want, pre)) {
        String what = prefix.kind() == PrefixSpec.Kind.SALT ? "salt byte" : "hash prefix";
        throw new KeyDecodeException(name, rowKey, what + " 0x" + Hex.of(pre) + " does not match the fields (expected 0x" + Hex.of(want) + ")");
      }
    }
    return new DecodedKey(values, pre);
  }

  // ---------------------------------------------------------------------------------------- ranges

  /**
   * Natural split points: SALT → bucket boundaries [1]..[N-1] (regions must equal N); HASH_PREFIX → even
   * k-byte boundaries; NONE and FULL_HASH → UniformSplit-identical points.
   */
  public List<byte[]> splitPoints(int regions) {
    switch (prefix.kind()) {
      case SALT:
        if (regions != prefix.buckets()) {
          throw new IllegalArgumentException("Cannot split layout " + name + " into " + regions
              + " regions: a salted table has exactly " + prefix.buckets() + " write tails, pre-split it into "
              + prefix.buckets() + " regions (one per salt byte)");
        }
        return SplitPoints.salt(prefix.buckets());
      case HASH_PREFIX:
        return SplitPoints.prefix(prefix.bytes(), regions);
      default:
        return SplitPoints.uniform(regions);
    }
  }

  /** True if the time field is the first field (so a time window is a range within each salt bucket). */
  public boolean timeLeads() {
    return timeField != null && fields.get(0).name().equals(timeField);
  }

  /**
   * Ranges covering the events with time in [fromMillis, toMillis): for a time-first layout with no or
   * salt prefix, one range per salt bucket (in bucket order; one range without a prefix); otherwise the
   * whole table as a single open range (filter on the time field while scanning).
   */
  public List<KeyRange> timeWindowRanges(long fromMillis, long toMillis) {
    if (fromMillis > toMillis) {
      throw new IllegalArgumentException("Cannot build time ranges for layout " + name + ": from " + fromMillis + " is after to " + toMillis);
    }
    if (!timeLeads() || prefix.kind() == PrefixSpec.Kind.HASH_PREFIX || prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      return List.of(new KeyRange(new byte[0], new byte[0]));
    }
    if (fromMillis == toMillis) {
      return List.of();
    }
    FieldSpec t = fields.get(0);
    byte[] start;
    byte[] stop;
    if (t.type() == FieldType.REVERSED_LONG) {
      if (toMillis <= 0) {
        return List.of();
      }
      long lo = Math.max(fromMillis, 0);
      start = t.codec().valueBytes(toMillis - 1);
      stop = nextPrefix(t.codec().valueBytes(lo));
    } else {
      start = t.codec().valueBytes(fromMillis);
      stop = t.codec().valueBytes(toMillis);
      if (Arrays.compareUnsigned(start, stop) > 0) {
        throw new IllegalArgumentException("Cannot build time ranges for layout " + name + ": field '" + t.name()
            + "' is not sign-flipped, so negative times do not sort before positive ones");
      }
    }
    if (prefix.kind() == PrefixSpec.Kind.NONE) {
      return List.of(new KeyRange(start, stop));
    }
    List<KeyRange> out = new ArrayList<>(prefix.buckets());
    for (int b = 0; b < prefix.buckets(); b++) {
      byte[] s = {(byte) b};
      out.add(new KeyRange(concat(s, start), stop.length == 0 ? new byte[] {(byte) (b + 1)} : concat(s, stop)));
    }
    return out;
  }

  /**
   * The range of every row whose leading fields equal the given values (the first m fields, m ≥ 1). For a
   * terminated string last, that is {@code prefix|id|0x00 .. prefix|id|0x01}; in general [p, next(p)).
   * The prefix must be computable from the given fields (hash/salt input ⊆ them).
   */
  public KeyRange entityRange(Map<String, Object> leadingFieldValues) {
    if (prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      throw new IllegalArgumentException("Cannot build an entity range for layout " + name
          + ": full_hash keys have no order, only exact lookups");
    }
    int m = leadingFieldValues.size();
    if (m == 0) {
      throw new IllegalArgumentException("Cannot build an entity range for layout " + name + ": give at least the first field");
    }
    for (int i = 0; i < m; i++) {
      if (i >= fields.size() || !leadingFieldValues.containsKey(fields.get(i).name())) {
        throw new IllegalArgumentException("Cannot build an entity range for layout " + name + ": the given fields "
            + leadingFieldValues.keySet() + " must be the leading fields in key order " + byName.keySet());
      }
    }
    Map<String, Object> values = coerceAll(leadingFieldValues, false);
    byte[] lead = naturalBytes(values, m);
    byte[] pre = new byte[0];
    if (prefix.kind() != PrefixSpec.Kind.NONE) {
      if (prefix.inputFields().isEmpty() || !values.keySet().containsAll(prefix.inputFields())) {
        throw new IllegalArgumentException("Cannot build an entity range for layout " + name + ": its "
            + prefix + " prefix depends on fields not given (" + (prefix.inputFields().isEmpty() ? "the whole key" : prefix.inputFields())
            + "), so the entity is spread over the prefix space; scan per bucket instead");
      }
      pre = prefixFor(values, lead);
    }
    byte[] start = concat(pre, lead);
    return new KeyRange(start, nextPrefix(start));
  }

  /** The smallest key greater than every key starting with p (empty = open end if p is all 0xFF). */
  static byte[] nextPrefix(byte[] p) {
    byte[] r = p.clone();
    for (int i = r.length - 1; i >= 0; i--) {
      if (r[i] != (byte) 0xFF) {
        r[i]++;
        return Arrays.copyOf(r, i + 1);
      }
    }
    return new byte[0];
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  @Override
  public String toString() {
    return "KeyLayout{" + name + ": " + prefix + " | " + fields + "}";
  }
}
