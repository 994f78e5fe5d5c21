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
 *
 * <p>One class over ~400 lines on purpose: encode, decode and the key ranges all go through its
 * private field coercion and prefix computation; what stands alone is apart (the field codecs,
 * {@link PrefixSpec}, {@link SplitPoints}, {@link LayoutParser}).
 */
public final class KeyLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final String description;
  private final String source;
  private final List<FieldSpec> fields;

  /** The fields as an array, for the per-key loops (no list wrapper per access). */
  private final FieldSpec[] fieldArray;

  private final Map<String, FieldSpec> byName;

  /**
   * Field name → position in key order: values travel as arrays in that order (no per-key maps).
   */
  private final Map<String, Integer> indexOf;

  private final List<String> fieldNames;

  /** Positions of the prefix's hash input fields (empty: the whole natural key). */
  private final int[] hashInputIndexes;

  /**
   * Per field, the position of the time field its sub-bucket derives from (-1: not a sub-bucket).
   */
  private final int[] subBucketFrom;

  private final PrefixSpec prefix;
  private final String timeField;

  /** Field values in, checked and coerced values in key order out. */
  private final FieldCoercion coercion;

  /** The salt or hash prefix of a key, from its values or its own bytes. */
  private final PrefixHashing hashing;

  /** Decoding and checking a key, field by field. */
  private final KeyWalk walker;

  /**
   * The last layout {@link #encodeFromKey} found to share this one's fields, so that re-keying a
   * table compares the fields once, not per key (a benign race: only layouts that passed the check
   * are ever stored, and both are immutable).
   */
  private transient volatile KeyLayout sharesFieldsWith;

  KeyLayout(
      String name,
      String description,
      String source,
      List<FieldSpec> fields,
      PrefixSpec prefix,
      String timeField) {
    this.name = name;
    this.description = description;
    this.source = source;
    this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
    this.fieldArray = fields.toArray(new FieldSpec[0]);
    Map<String, FieldSpec> m = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      m.put(f.name(), f);
    }
    this.byName = Collections.unmodifiableMap(m);
    Map<String, Integer> idx = new LinkedHashMap<>();
    for (FieldSpec f : fields) {
      idx.put(f.name(), idx.size());
    }
    this.indexOf = Collections.unmodifiableMap(idx);
    this.fieldNames = List.copyOf(idx.keySet());
    this.hashInputIndexes = prefix.inputFields().stream().mapToInt(idx::get).toArray();
    this.subBucketFrom =
        fields.stream()
            .mapToInt(f -> f.subBucket() == null ? -1 : idx.get(f.subBucket().from()))
            .toArray();
    this.prefix = prefix;
    this.timeField = timeField;
    this.coercion = new FieldCoercion(name, fieldArray, fieldNames, subBucketFrom);
    this.hashing = new PrefixHashing(prefix, fieldArray, hashInputIndexes);
    this.walker = new KeyWalk(name, prefix, fieldArray, subBucketFrom, hashing);
  }

  /** Loads a layout file (YAML); throws LayoutException naming the file and the problem. */
  public static KeyLayout load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new LayoutException(
          "Cannot read layout " + file + ": no such file (the shipped ones are in conf/layouts)",
          e);
    } catch (IOException e) {
      throw new LayoutException(
          String.format("Cannot read layout %s: %s", file, e.getMessage()), e);
    }
    return parse(text, file.toString());
  }

  /** Parses layout YAML text; {@code sourceName} names it in error messages. */
  public static KeyLayout parse(String yamlText, String sourceName) {
    return LayoutParser.build(LayoutParser.loadYaml(yamlText, sourceName), sourceName);
  }

  /**
   * Builds a layout from an already-parsed tree (maps, lists, scalars), e.g. inline JSON in
   * vectors.
   */
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

  /**
   * The position of a field in key order (the index into {@link #encode(Object[])}'s values), or
   * -1.
   */
  public int fieldIndex(String fieldName) {
    Integer i = indexOf.get(fieldName);
    return i == null ? -1 : i;
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
    return encodeCoerced(coercion.all(fieldValues, true));
  }

  /**
   * As {@link #encode(Map)}, for values in key order (index i is field i, see {@link #fieldIndex}):
   * the form a decoded key already has, so rekeying a row builds no maps. SUB_BUCKET entries may be
   * null (they are derived).
   */
  public byte[] encode(Object[] valuesInKeyOrder) {
    if (valuesInKeyOrder.length != fieldArray.length) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot encode with layout %s: %s values for %s fields %s",
              name, valuesInKeyOrder.length, fieldArray.length, fieldNames));
    }
    return encodeCoerced(coercion.inKeyOrder(valuesInKeyOrder, true));
  }

  private byte[] encodeCoerced(Object[] values) {
    byte[] natural = naturalBytes(values, fieldArray.length);
    switch (prefix.kind()) {
      case NONE:
        return natural;
      case FULL_HASH:
        return HashFunction.MD5.digest(hashing.input(values, natural));
      default:
        return concat(hashing.prefix(values, natural), natural);
    }
  }

  /**
   * True when a key of {@code other} holds this layout's natural-key bytes after its prefix: the
   * same fields, in the same order, encoded alike ({@link FieldSpec#encodesAlike}).
   */
  public boolean sameFieldsAs(KeyLayout other) {
    if (other.fields.size() != fields.size()) {
      return false;
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!fields.get(i).encodesAlike(other.fields.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * This layout's key for {@code fromKey}, a key of {@code from} that shares this layout's fields
   * ({@link #sameFieldsAs}) and that {@code from} decoded to {@code decoded}: its natural-key bytes
   * kept as they are under this layout's prefix. The same key {@link #encode(Object[])} builds from
   * the decoded values, without coercing and encoding every field again (what re-keying a table
   * from one prefix to another costs per row).
   */
  public byte[] encodeFromKey(KeyLayout from, byte[] fromKey, DecodedKey decoded) {
    if (from != sharesFieldsWith) {
      if (!sameFieldsAs(from)) {
        throw new IllegalArgumentException(
            String.format("layout %s does not share the fields of layout %s", name, from.name()));
      }
      sharesFieldsWith = from;
    }
    byte[] natural = Arrays.copyOfRange(fromKey, from.prefix.bytes(), fromKey.length);
    switch (prefix.kind()) {
      case NONE:
        return natural;
      case FULL_HASH:
        return HashFunction.MD5.digest(hashing.input(decoded.values(), natural));
      default:
        return concat(hashing.prefix(decoded.values(), natural), natural);
    }
  }

  private byte[] naturalBytes(Object[] values, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i = 0; i < count; i++) {
      fieldArray[i].codec().encode(values[i], out);
    }
    return out.toByteArray();
  }

  /** The salt bucket (0..N-1) the values map to; SALT layouts only. */
  public int saltOf(Map<String, Object> fieldValues) {
    if (prefix.kind() != PrefixSpec.Kind.SALT) {
      throw new IllegalStateException(
          String.format("layout %s has no salt prefix (%s)", name, prefix));
    }
    return encode(fieldValues)[0] & 0xff;
  }

  /** The layout's field names in key order. */
  public List<String> fieldNames() {
    return fieldNames;
  }

  // ---------------------------------------------------------------------------------------- decode

  /**
   * Decodes a row key into its fields, verifying the prefix, derived sub-buckets and that no bytes
   * are left over. Throws KeyDecodeException with a reason; FULL_HASH layouts always refuse.
   */
  public DecodedKey decode(byte[] rowKey) {
    return new DecodedKey(
        fieldNames, indexOf, walker.walk(rowKey, true, -1), Arrays.copyOf(rowKey, prefix.bytes()));
  }

  /**
   * Checks that a row key decodes, as {@link #decode} does (same checks, same KeyDecodeException),
   * without building its values: what a job that only counts and checks keys needs, at a fraction
   * of decode's allocations (no string, boxed number or copied bytes per field).
   */
  public void check(byte[] rowKey) {
    walker.walk(rowKey, false, -1);
  }

  /**
   * {@link #check} that also returns one field's value (as {@link #decode} would give it): e.g. the
   * time field of a key whose other fields only need checking.
   */
  public Object checkedField(byte[] rowKey, int fieldIndex) {
    if (fieldIndex < 0 || fieldIndex >= fieldArray.length) {
      throw new IllegalArgumentException(
          String.format(
              "layout %s has no field %s (it has %s)", name, fieldIndex, fieldArray.length));
    }
    return walker.walk(rowKey, false, fieldIndex)[fieldIndex];
  }

  // ---------------------------------------------------------------------------------------- ranges

  /**
   * Natural split points: SALT → bucket boundaries [1]..[N-1] (regions must equal N); HASH_PREFIX →
   * even k-byte boundaries; NONE and FULL_HASH → UniformSplit-identical points.
   */
  public List<byte[]> splitPoints(int regions) {
    switch (prefix.kind()) {
      case SALT:
        if (regions != prefix.buckets()) {
          throw new IllegalArgumentException(
              String.format(
                  "Cannot split layout %s into %s regions: a salted table has exactly %s"
                      + " write tails, pre-split it into %s regions (one per salt byte)",
                  name, regions, prefix.buckets(), prefix.buckets()));
        }
        return SplitPoints.salt(prefix.buckets());
      case HASH_PREFIX:
        return SplitPoints.prefix(prefix.bytes(), regions);
      default:
        return SplitPoints.uniform(regions);
    }
  }

  /**
   * True if the time field is the first field (so a time window is a range within each salt
   * bucket).
   */
  public boolean timeLeads() {
    return timeField != null && fields.get(0).name().equals(timeField);
  }

  /**
   * The first fields of a key, encoded: their natural bytes, and the prefix they determine (null
   * without a prefix, or when its hash input is not among them). {@link KeyRangePlanner} decides
   * which ranges a read needs from this.
   */
  record Leading(byte[] prefix, byte[] natural) {}

  /**
   * Encodes the first {@code m} fields (the caller checked that they are the leading ones).
   *
   * @throws IllegalArgumentException when a value does not fit its field
   */
  Leading leading(Map<String, ?> leadingFieldValues) {
    @SuppressWarnings("unchecked")
    Object[] values = coercion.all((Map<String, Object>) leadingFieldValues, false);
    byte[] natural = naturalBytes(values, leadingFieldValues.size());
    boolean determined =
        prefix.kind() != PrefixSpec.Kind.NONE
            && hashInputIndexes.length > 0
            && Arrays.stream(hashInputIndexes).allMatch(i -> values[i] != null);
    return new Leading(determined ? hashing.prefix(values, natural) : null, natural);
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
