package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.rekey.jobs.common.DecodedRow;
import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-layout encoder gives the bytes of the map encoding, across layouts. Pure. */
@Tag("unit")
class NaturalKeyTest {
  private static byte[] viaEncoder(NaturalKey nk, KeyLayout l, byte[] key) {
    RowDecoder d = new RowDecoder(l);
    return nk.encoder(d.fieldNames()).encode(d.decode(key, List.of()));
  }

  private static byte[] viaMap(NaturalKey nk, KeyLayout l, byte[] key) {
    RowDecoder d = new RowDecoder(l);
    DecodedRow row = d.decode(key, List.of());
    return nk.encode(row.fieldMap(d.fieldNames()));
  }

  @Test
  void theEncoderGivesTheMapEncodingsBytesInEveryLayoutOfTheSameFields() {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    NaturalKey nk = NaturalKey.common(v1, Layouts.shipped("telemetry-v2"));
    Map<String, Object> reading =
        Map.of("ts", 1_795_910_400_123L, "deviceId", Bytes.toBytes("0123456789abcdef"));
    byte[] expected = viaMap(nk, v1, v1.encode(reading));
    // salt first, time-first, entity-first with reversed time: the same natural key bytes
    for (String name : List.of("telemetry-v1", "telemetry-v2", "telemetry-by-device")) {
      KeyLayout l = Layouts.shipped(name);
      byte[] key = l.encode(reading);
      assertArrayEquals(expected, viaEncoder(nk, l, key), name);
      assertArrayEquals(expected, viaMap(nk, l, key), name);
    }
    // a string field
    KeyLayout events = Layouts.shipped("events-v2");
    byte[] key = events.encode(Map.of("userId", "user-42", "ts", 1_795_910_400_123L));
    NaturalKey enk = NaturalKey.of(events);
    assertArrayEquals(viaMap(enk, events, key), viaEncoder(enk, events, key));
  }
}
