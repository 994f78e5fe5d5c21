package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.rekey.common.RowDecoder;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The canonical natural-key bytes, the same from every layout of the same fields. Pure. */
@Tag("unit")
class NaturalKeyTest {
  private static byte[] encoded(NaturalKey nk, KeyLayout l, byte[] key) {
    RowDecoder d = new RowDecoder(l);
    return nk.encoder(d.fieldNames()).encode(d.decode(key, List.of()));
  }

  /** One field as the class comment gives it: u16 name length, name, tag, u32 length, value. */
  private static ByteBuffer field(ByteBuffer b, String name, char tag, byte[] value) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return b.putShort((short) n.length).put(n).put((byte) tag).putInt(value.length).put(value);
  }

  @Test
  void everyLayoutOfTheSameFieldsGivesTheCanonicalBytes() {
    long ts = 1_795_910_400_123L;
    byte[] device = Bytes.toBytes("0123456789abcdef");
    // fields in name order: deviceId (bytes), ts (an integer, 8 bytes big-endian: the natural
    // value, also where the key holds it reversed)
    ByteBuffer b = ByteBuffer.allocate(2 + 8 + 1 + 4 + 16 + 2 + 2 + 1 + 4 + 8);
    field(b, "deviceId", 'B', device);
    field(b, "ts", 'I', Bytes.toBytes(ts));
    byte[] expected = b.array();
    Map<String, Object> reading = Map.of("ts", ts, "deviceId", device);
    NaturalKey nk =
        NaturalKey.common(Layouts.shipped("telemetry-v1"), Layouts.shipped("telemetry-v2"));
    // time first, salt first, entity first with reversed time
    for (String name : List.of("telemetry-v1", "telemetry-v2", "telemetry-by-device")) {
      KeyLayout l = Layouts.shipped(name);
      assertArrayEquals(expected, encoded(nk, l, l.encode(reading)), name);
    }
  }

  @Test
  void aStringFieldIsItsUtf8Bytes() {
    KeyLayout events = Layouts.shipped("events-v2");
    long ts = 1_795_910_400_123L;
    ByteBuffer b = ByteBuffer.allocate(2 + 2 + 1 + 4 + 8 + 2 + 6 + 1 + 4 + 7);
    field(b, "ts", 'I', Bytes.toBytes(ts));
    field(b, "userId", 'S', "user-42".getBytes(StandardCharsets.UTF_8));
    assertArrayEquals(
        b.array(),
        encoded(
            NaturalKey.of(events), events, events.encode(Map.of("userId", "user-42", "ts", ts))));
  }
}
