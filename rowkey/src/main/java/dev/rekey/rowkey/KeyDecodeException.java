package dev.rekey.rowkey;

/**
 * A row key cannot be decoded with a layout; {@link #reason()} says why (without the key prefix).
 */
public class KeyDecodeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String reason;

  public KeyDecodeException(String layout, byte[] key, String reason) {
    super(
        "Cannot decode key "
            + (key.length == 0 ? "(empty)" : Hex.of(key))
            + " with layout "
            + layout
            + ": "
            + reason);
    this.reason = reason;
  }

  /** Why the key was rejected, e.g. "salt byte 0x03 does not match the fields (expected 0x0a)". */
  public String reason() {
    return reason;
  }
}
