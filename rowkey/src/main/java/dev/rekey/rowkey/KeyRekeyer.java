package dev.rekey.rowkey;

import java.io.Serializable;
import java.util.Optional;

/**
 * A key of one layout → the key of another with the same field values: decode with the source
 * layout, encode the target layout's fields from the decoded values (pure, stateless,
 * Serializable). What the backfill does per row and the replication endpoint per WAL edit; {@link
 * #check} says up front why two layouts do not fit.
 */
public final class KeyRekeyer implements Serializable {
  private static final long serialVersionUID = 1L;

  /** HBase's row key limit ({@code HConstants.MAX_ROW_LENGTH}, a short's maximum). */
  public static final int MAX_ROW_LENGTH = Short.MAX_VALUE;

  /** The time of a key whose layout has no time field. */
  public static final long NO_TIME = Long.MIN_VALUE;

  private final KeyLayout source;
  private final KeyLayout target;

  /**
   * Per target field, the source field it is copied from (-1: derived sub-bucket, or absent — see
   * check()).
   */
  private final int[] sourceIndex;

  private final int targetTimeIndex;

  /**
   * The target has the source's fields, in order, encoded alike (the salting migration): its key is
   * the source key's field bytes under a new prefix, with nothing encoded again.
   */
  private final boolean sameFields;

  /** A target key and the value of the target layout's time field in it ({@link #NO_TIME}). */
  public record Rekeyed(byte[] key, long time) {}

  public KeyRekeyer(KeyLayout source, KeyLayout target) {
    this.source = source;
    this.target = target;
    this.sourceIndex =
        target.fields().stream()
            .mapToInt(t -> t.type() == FieldType.SUB_BUCKET ? -1 : source.fieldIndex(t.name()))
            .toArray();
    this.targetTimeIndex = target.timeField().map(target::fieldIndex).orElse(-1);
    this.sameFields = target.sameFieldsAs(source);
  }

  public KeyLayout source() {
    return source;
  }

  public KeyLayout target() {
    return target;
  }

  /**
   * Why the target layout cannot be built from the source layout's fields, if it cannot: the source
   * must be decodable, and every target field (except derived sub-buckets) must exist in the source
   * with the same value type.
   */
  public Optional<String> check() {
    if (!source.decodable()) {
      return Optional.of(
          String.format(
              "source layout %s (%s) cannot be decoded: a hashed key cannot be turned back into"
                  + " fields",
              source.name(), source.prefix()));
    }
    for (FieldSpec t : target.fields()) {
      if (t.type() == FieldType.SUB_BUCKET) {
        continue;
      }
      FieldSpec s = source.field(t.name());
      if (s == null) {
        return Optional.of(
            String.format(
                "target layout %s needs field '%s', which source layout %s does not have (source"
                    + " fields: %s)",
                target.name(), t.name(), source.name(), names(source)));
      }
      if (valueType(s.type()) != valueType(t.type())
          || (t.type() == FieldType.BYTES && s.length() != t.length())) {
        return Optional.of(
            String.format(
                "field '%s' is %s in source layout %s but %s in target layout %s",
                t.name(), describe(s), source.name(), describe(t), target.name()));
      }
    }
    return Optional.empty();
  }

  /**
   * The target key; throws IllegalArgumentException (KeyDecodeException / KeyEncodeException, or a
   * key over HBase's row limit) with the reason.
   */
  public byte[] rekey(byte[] sourceKey) {
    return rekeyWithTime(sourceKey).key();
  }

  /**
   * As {@link #rekey}, also returning the key's time field, so that counting rows per hour does not
   * decode the new key again.
   */
  public Rekeyed rekeyWithTime(byte[] sourceKey) {
    Rekeyed r = rekeyUnbounded(sourceKey);
    // a salt byte or a terminator can push a source key at HBase's limit over it: a write of it
    // would fail
    if (r.key().length > MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          String.format(
              "target key of %d bytes is over HBase's row key limit of %d bytes",
              r.key().length, MAX_ROW_LENGTH));
    }
    return r;
  }

  /**
   * As {@link #rekeyWithTime} without the check against HBase's row key limit: for a guardrail that
   * measures how far over the limit a target key would be. Throws KeyDecodeException /
   * KeyEncodeException as it does.
   */
  public Rekeyed rekeyUnbounded(byte[] sourceKey) {
    DecodedKey d = source.decode(sourceKey); // checks the key whole, on either path
    Object time;
    byte[] key;
    if (sameFields) {
      time = targetTimeIndex < 0 ? null : d.get(targetTimeIndex);
      key = target.encodeFromKey(source, sourceKey, d);
    } else {
      Object[] values = new Object[sourceIndex.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = sourceIndex[i] < 0 ? null : d.get(sourceIndex[i]);
      }
      time = targetTimeIndex < 0 ? null : values[targetTimeIndex];
      key = target.encode(values);
    }
    return new Rekeyed(key, time instanceof Long l ? l : NO_TIME);
  }

  private static String names(KeyLayout l) {
    return l.fields().stream().map(FieldSpec::name).toList().toString();
  }

  private static String describe(FieldSpec f) {
    return f.type().fileName() + (f.type() == FieldType.BYTES ? "(" + f.length() + ")" : "");
  }

  private static Class<?> valueType(FieldType t) {
    return switch (t) {
      case STRING -> String.class;
      case BYTES -> byte[].class;
      case INT, SUB_BUCKET -> Integer.class;
      case LONG, REVERSED_LONG -> Long.class;
    };
  }
}
