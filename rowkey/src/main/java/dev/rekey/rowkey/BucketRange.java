package dev.rekey.rowkey;

/**
 * One scan of a read: a key range inside one salt bucket (or hash prefix), or the only range of an
 * unsalted read.
 *
 * @param bucket the salt byte (0..N-1), or -1 when the layout has no salt
 * @param range [start, stop), empty = open end
 */
public record BucketRange(int bucket, KeyRange range) {
  /**
   * "bucket 5 [05..., 05...)" or "range [..., ...)": how errors name the part of a read that
   * failed.
   */
  public String describe() {
    String r = "[" + Hex.of(range.start()) + ", " + Hex.of(range.stop()) + ")";
    return bucket < 0 ? "range " + r : "bucket " + bucket + " " + r;
  }
}
