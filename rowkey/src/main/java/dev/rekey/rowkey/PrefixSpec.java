package dev.rekey.rowkey;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/** The key prefix of a layout. Immutable. */
public final class PrefixSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  public enum Kind {
    NONE,
    SALT,
    HASH_PREFIX,
    FULL_HASH
  }

  private final Kind kind;
  private final HashFunction hash;
  private final int buckets;
  private final int bytes;
  private final List<String> inputFields;

  PrefixSpec(Kind kind, HashFunction hash, int buckets, int bytes, List<String> inputFields) {
    this.kind = kind;
    this.hash = hash;
    this.buckets = buckets;
    this.bytes = bytes;
    this.inputFields = List.copyOf(inputFields);
  }

  public Kind kind() {
    return kind;
  }

  /** The hash, or null for NONE. */
  public HashFunction hash() {
    return hash;
  }

  /** Bucket count N for SALT (1..256); 0 otherwise. */
  public int buckets() {
    return buckets;
  }

  /** Prefix length in bytes: 1 for SALT, k for HASH_PREFIX, 16 for FULL_HASH, 0 for NONE. */
  public int bytes() {
    return bytes;
  }

  /**
   * The named hash-input fields; empty means "the whole encoded natural key" (all fields as they
   * appear after the prefix, terminators included).
   */
  public List<String> inputFields() {
    return inputFields;
  }

  public Optional<HashFunction> hashFunction() {
    return Optional.ofNullable(hash);
  }

  @Override
  public String toString() {
    switch (kind) {
      case NONE:
        return "none";
      case SALT:
        return "salt(" + buckets + ", " + hash.fileName() + ")";
      case HASH_PREFIX:
        return "hash_prefix(" + bytes + ", " + hash.fileName() + ")";
      default:
        return "full_hash(" + hash.fileName() + ")";
    }
  }
}
