package dev.rekey.rowkey;

import java.io.Serializable;

/** One field of a layout, in key order. Immutable. */
public final class FieldSpec implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String name;
  private final FieldType type;
  private final int length;
  private final boolean signFlip;
  private final boolean terminated;
  private final FieldCodec codec;

  FieldSpec(
      String name,
      FieldType type,
      int length,
      boolean signFlip,
      boolean terminated,
      FieldCodec codec) {
    this.name = name;
    this.type = type;
    this.length = length;
    this.signFlip = signFlip;
    this.terminated = terminated;
    this.codec = codec;
  }

  public String name() {
    return name;
  }

  public FieldType type() {
    return type;
  }

  /**
   * Byte length for BYTES; the fixed encoded width for INT (4), LONG/REVERSED_LONG (8), SUB_BUCKET
   * (1); -1 for STRING.
   */
  public int length() {
    return length;
  }

  /** True if the sign bit is flipped (INT/LONG with {@code signed: true}). */
  public boolean signFlip() {
    return signFlip;
  }

  /** True if a STRING is followed by a 0x00 terminator (always, except possibly the last field). */
  public boolean terminated() {
    return terminated;
  }

  public FieldCodec codec() {
    return codec;
  }

  /** For SUB_BUCKET fields: the codec with its time field and bucket count; else null. */
  public SubBucketCodec subBucket() {
    return codec instanceof SubBucketCodec ? (SubBucketCodec) codec : null;
  }

  /**
   * True when this field and {@code other} encode a value to the same bytes: same name, type,
   * length, sign and terminator (sub-buckets excluded: their bytes derive from another field).
   */
  public boolean encodesAlike(FieldSpec other) {
    return name.equals(other.name)
        && type == other.type
        && length == other.length
        && signFlip == other.signFlip
        && terminated == other.terminated
        && type != FieldType.SUB_BUCKET;
  }

  @Override
  public String toString() {
    return name + ":" + type.fileName();
  }
}
