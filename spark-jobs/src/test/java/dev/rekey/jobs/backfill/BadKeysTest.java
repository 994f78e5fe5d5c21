package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.rowkey.KeyLayout;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Source keys a backfill meets in a real table: each either rekeys exactly or is refused with a
 * reason (an IllegalArgumentException, which the backfill quarantines with the hex key and counts),
 * never written wrong.
 */
@Tag("unit")
public class BadKeysTest {
  /** A terminated string then a signed long: the shape of a user-id-and-time key. */
  public static final KeyLayout SOURCE =
      KeyLayout.parse(
          "name: by-user\nprefix:\n  kind: none\nfields:\n"
              + "  - name: user\n    type: string\n  - name: ts\n    type: long\n    signed: true\n",
          "by-user");

  /**
   * The same fields salted, time first: one salt byte and one terminator longer than the source
   * key.
   */
  public static final KeyLayout TARGET =
      KeyLayout.parse(
          "name: salted\nprefix:\n  kind: salt\n  buckets: 16\n"
              + "  hash: murmur3_32\nfields:\n  - name: ts\n    type: long\n    signed: true\n  - name: user\n    type: string\n",
          "salted");

  private static final Rekeyer REKEYER = new Rekeyer(SOURCE, TARGET);

  @Test
  void negativeNumbersRekeyExactly() {
    for (long ts : new long[] {-1L, -1_700_000_000_000L, Long.MIN_VALUE, 0L, Long.MAX_VALUE}) {
      byte[] target = REKEYER.rekey(SOURCE.encode(Map.of("user", "ann", "ts", ts)));
      assertEquals(ts, TARGET.decode(target).get("ts"));
      assertArrayEquals(TARGET.encode(Map.of("user", "ann", "ts", ts)), target);
    }
  }

  @Test
  void anEmptyKeyIsRefusedWithAReason() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> REKEYER.rekey(new byte[0]));
    assertEquals(
        "Cannot decode key (empty) with layout by-user: field 'user' at offset 0: key too short:"
            + " string has no 0x00 terminator after offset 0",
        e.getMessage());
  }

  @Test
  void anUnterminatedStringIsRefusedWithAReason() {
    byte[] noTerminator =
        "ann-without-terminator".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> REKEYER.rekey(noTerminator));
    assertEquals(
        "Cannot decode key 616e6e2d776974686f75742d7465726d696e61746f72 with layout by-user:"
            + " field 'user' at offset 0: key too short: string has no 0x00 terminator after"
            + " offset 0",
        e.getMessage());
  }

  @Test
  void aKeyTheTargetLayoutWouldPushOverHBasesLimitIsRefused() {
    // the longest source key HBase holds (32767 bytes) becomes 32768 with the salt byte
    String user = "u".repeat(HConstants.MAX_ROW_LENGTH - 1 - 8);
    byte[] atTheLimit = SOURCE.encode(Map.of("user", user, "ts", 5L));
    assertEquals(HConstants.MAX_ROW_LENGTH, atTheLimit.length);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> REKEYER.rekey(atTheLimit));
    assertEquals(
        "target key of 32768 bytes is over HBase's row key limit of 32767 bytes", e.getMessage());
    // one byte shorter fits exactly
    byte[] shorter = SOURCE.encode(Map.of("user", user.substring(1), "ts", 5L));
    assertEquals(HConstants.MAX_ROW_LENGTH, REKEYER.rekey(shorter).length);
  }

  @Test
  void aKeyWithTrailingBytesIsRefused() {
    byte[] k = SOURCE.encode(Map.of("user", "ann", "ts", 1L));
    byte[] longer = Arrays.copyOf(k, k.length + 1);
    assertThrows(IllegalArgumentException.class, () -> REKEYER.rekey(longer));
  }
}
