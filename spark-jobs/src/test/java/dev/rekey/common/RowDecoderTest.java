package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyDecodeException;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RowDecoderTest {

  @Test
  void decodesFieldsInKeyOrderAndCopiesCells() throws Exception {
    KeyLayout events = Layouts.shipped("events-v2");
    byte[] key = events.encode(Map.of("userId", "alice", "ts", 1_700_000_000_000L));
    Cell a =
        new KeyValue(
            key,
            Bytes.toBytes("e"),
            Bytes.toBytes("type"),
            1_700_000_000_000L,
            Bytes.toBytes("click"));
    Cell b =
        new KeyValue(
            key, Bytes.toBytes("e"), Bytes.toBytes("n"), 1_700_000_000_001L, Bytes.toBytes(7L));
    RowDecoder decoder = new RowDecoder(events);

    DecodedRow row = decoder.decode(Result.create(new Cell[] {a, b}));

    assertEquals(List.of("userId", "ts"), decoder.fieldNames());
    assertEquals("alice", row.field(0));
    assertEquals(1_700_000_000_000L, row.field(1));
    assertArrayEquals(key, row.rowKey());
    assertEquals(2, row.cells().size());
    assertEquals("e", row.cells().get(0).familyString());
    assertEquals("type", row.cells().get(0).qualifierString());
    assertEquals(1_700_000_000_000L, row.cells().get(0).timestamp());
    assertArrayEquals(Bytes.toBytes(7L), row.cells().get(1).value());
    assertEquals(key.length + (1 + 4 + 5 + 8) + (1 + 1 + 8 + 8), row.byteSize());

    // Spark ships it between stages and spills it: it must survive Java serialization
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
      o.writeObject(row);
      o.writeObject(decoder);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(row, in.readObject());
      assertEquals(row, ((RowDecoder) in.readObject()).decode(key, new Cell[] {a, b}));
    }
  }

  @Test
  void bytesFieldsAreByteArrays() {
    KeyLayout telemetry = Layouts.shipped("telemetry-v2");
    byte[] device = new byte[16];
    device[15] = 9;
    byte[] key = telemetry.encode(Map.of("ts", 5L, "deviceId", device));
    DecodedRow row = new RowDecoder(telemetry).decode(key, List.of());
    assertEquals(5L, row.field(0));
    assertArrayEquals(device, (byte[]) row.field(1));
    assertTrue(row.cells().isEmpty());
  }

  @Test
  void undecodableKeyNamesTheKeyInHex() {
    KeyDecodeException e =
        assertThrows(
            KeyDecodeException.class,
            () ->
                new RowDecoder(Layouts.shipped("telemetry-v2"))
                    .decode(Bytes.toBytes("junk"), List.of()));
    assertEquals(
        "Cannot decode key 6a756e6b with layout telemetry-v2: salt byte 0x6a out of range [0, 16)",
        e.getMessage());
  }
}
