package dev.rekey.rowkey;

import org.apache.commons.codec.DecoderException;

/** Lower-case hex helpers (commons-codec). */
public final class Hex {
  private Hex() {}

  public static String of(byte[] b) {
    return b == null ? "null" : org.apache.commons.codec.binary.Hex.encodeHexString(b);
  }

  /** Parses hex (either case, even length); throws IllegalArgumentException with the reason. */
  public static byte[] parse(String hex) {
    try {
      return org.apache.commons.codec.binary.Hex.decodeHex(hex);
    } catch (DecoderException e) {
      throw new IllegalArgumentException(
          String.format("not valid hex (%s): '%s'", e.getMessage(), hex));
    }
  }
}
