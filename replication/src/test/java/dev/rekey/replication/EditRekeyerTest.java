package dev.rekey.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRekeyer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WALEdit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class EditRekeyerTest {
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] V = Bytes.toBytes("v");
  static final byte[] DEVICE = Bytes.toBytes("0123456789abcdef");
  static final long TS = 1_700_000_000_000L;

  static String layoutText(String name) throws IOException {
    Path home = Path.of(System.getProperty("rekey.home", ".."));
    return Files.readString(home.resolve("conf/layouts/" + name + ".yaml"));
  }

  static KeyLayout layout(String name) throws IOException {
    return KeyLayout.parse(layoutText(name), name);
  }

  static byte[] v1Key(long ts) throws IOException {
    return layout("telemetry-v1").encode(Map.of("ts", ts, "deviceId", DEVICE));
  }

  static byte[] v2Key(long ts) throws IOException {
    return layout("telemetry-v2").encode(Map.of("ts", ts, "deviceId", DEVICE));
  }

  static EditRekeyer v1ToV2(String... targets) throws IOException {
    List<KeyRekeyer> r = new ArrayList<>();
    for (String t : targets) {
      r.add(new KeyRekeyer(layout("telemetry-v1"), layout("telemetry-v2")));
    }
    return new EditRekeyer(List.of(targets), r);
  }

  static Cell cell(byte[] row, byte[] q, long ts, KeyValue.Type type, String value) {
    return new KeyValue(row, D, q, ts, type, value == null ? null : Bytes.toBytes(value));
  }

  /** A mutation's cells as family:qualifier@ts/type=value, with its row. */
  static List<String> describe(Mutation m) {
    List<String> out = new ArrayList<>();
    m.getFamilyCellMap()
        .values()
        .forEach(
            cells ->
                cells.forEach(
                    c -> {
                      assertArrayEquals(m.getRow(), CellUtil.cloneRow(c));
                      out.add(
                          Bytes.toString(CellUtil.cloneFamily(c))
                              + ":"
                              + Bytes.toString(CellUtil.cloneQualifier(c))
                              + "@"
                              + c.getTimestamp()
                              + "/"
                              + c.getType()
                              + "="
                              + Bytes.toString(CellUtil.cloneValue(c)));
                    }));
    return out;
  }

  @Test
  void putCellsMoveToTheNewKeyWithTheirTimestamps() throws IOException {
    byte[] row = v1Key(TS);
    EditRekeyer.Rekeyed r =
        v1ToV2("t2")
            .rekey(
                List.of(
                    cell(row, V, TS, KeyValue.Type.Put, "1.5"),
                    cell(row, Bytes.toBytes("w"), TS + 7, KeyValue.Type.Put, "x")),
                42L);
    List<Mutation> ms = r.mutations().get("t2");
    assertEquals(1, ms.size());
    Put p = assertInstanceOf(Put.class, ms.get(0));
    assertArrayEquals(v2Key(TS), p.getRow());
    assertEquals(List.of("d:v@" + TS + "/Put=1.5", "d:w@" + (TS + 7) + "/Put=x"), describe(p));
    assertTrue(r.quarantined().isEmpty());
  }

  @Test
  void everyKindOfDeleteKeepsItsTypeAndTimestamp() throws IOException {
    byte[] row = v1Key(TS);
    EditRekeyer.Rekeyed r =
        v1ToV2("t2")
            .rekey(
                List.of(
                    cell(row, V, TS, KeyValue.Type.Delete, null), // one version
                    cell(row, V, TS + 1, KeyValue.Type.DeleteColumn, null), // every version
                    cell(row, null, TS + 2, KeyValue.Type.DeleteFamily, null), // the family
                    cell(row, null, TS + 3, KeyValue.Type.DeleteFamilyVersion, null)),
                1L);
    List<Mutation> ms = r.mutations().get("t2");
    assertEquals(1, ms.size());
    Delete d = assertInstanceOf(Delete.class, ms.get(0));
    assertArrayEquals(v2Key(TS), d.getRow());
    assertEquals(
        List.of(
            "d:v@" + TS + "/Delete=",
            "d:v@" + (TS + 1) + "/DeleteColumn=",
            "d:@" + (TS + 2) + "/DeleteFamily=",
            "d:@" + (TS + 3) + "/DeleteFamilyVersion="),
        describe(d));
  }

  @Test
  void aDeletedRowIsADeleteFamilyPerFamilyInTheWal() throws IOException {
    // Table.delete(new Delete(row)) reaches the WAL as one DeleteFamily marker per family, stamped
    byte[] row = v1Key(TS);
    byte[] e = Bytes.toBytes("e");
    EditRekeyer.Rekeyed r =
        v1ToV2("t2")
            .rekey(
                List.of(
                    cell(row, null, TS + 9, KeyValue.Type.DeleteFamily, null),
                    new KeyValue(row, e, null, TS + 9, KeyValue.Type.DeleteFamily)),
                1L);
    Delete d = assertInstanceOf(Delete.class, r.mutations().get("t2").get(0));
    assertEquals(
        List.of("d:@" + (TS + 9) + "/DeleteFamily=", "e:@" + (TS + 9) + "/DeleteFamily="),
        describe(d));
  }

  @Test
  void oneEditOfSeveralRowsGivesAMutationPerRowAndKind() throws IOException {
    byte[] a = v1Key(TS);
    byte[] b = v1Key(TS + 1000);
    EditRekeyer.Rekeyed r =
        v1ToV2("t2")
            .rekey(
                List.of(
                    cell(a, V, TS, KeyValue.Type.Put, "1"),
                    cell(b, V, TS, KeyValue.Type.Put, "2"),
                    cell(a, V, TS - 1, KeyValue.Type.DeleteColumn, null)),
                1L);
    List<Mutation> ms = r.mutations().get("t2");
    assertEquals(3, ms.size());
    assertArrayEquals(v2Key(TS), ms.get(0).getRow());
    assertInstanceOf(Put.class, ms.get(0));
    assertInstanceOf(Delete.class, ms.get(1));
    assertArrayEquals(v2Key(TS), ms.get(1).getRow());
    assertArrayEquals(v2Key(TS + 1000), ms.get(2).getRow());
  }

  @Test
  void everyTargetGetsItsOwnRekeyedMutations() throws IOException {
    byte[] row = v1Key(TS);
    EditRekeyer.Rekeyed r =
        v1ToV2("t2", "t3").rekey(List.of(cell(row, V, TS, KeyValue.Type.Put, "1")), 1L);
    assertEquals(List.of("t2", "t3"), List.copyOf(r.mutations().keySet()));
    assertArrayEquals(v2Key(TS), r.mutations().get("t3").get(0).getRow());
    assertEquals(2, r.mutationCount());
  }

  @Test
  void anUndecodableRowIsQuarantinedWithItsCellsAndTheRestOfTheEditApplies() throws IOException {
    byte[] bad = Bytes.toBytes("short");
    byte[] good = v1Key(TS);
    EditRekeyer.Rekeyed r =
        v1ToV2("t2")
            .rekey(
                List.of(
                    cell(bad, V, TS, KeyValue.Type.Put, "1"),
                    cell(good, V, TS, KeyValue.Type.Put, "2"),
                    cell(bad, V, TS - 5, KeyValue.Type.DeleteColumn, null)),
                77L);
    assertEquals(1, r.mutations().get("t2").size());
    assertArrayEquals(v2Key(TS), r.mutations().get("t2").get(0).getRow());
    assertEquals(1, r.quarantined().size());
    EditRekeyer.Quarantined q = r.quarantined().get(0);
    assertEquals("73686f7274", q.sourceRowHex());
    assertEquals(77L, q.sequenceId());
    assertEquals("t2", q.targetTable());
    assertEquals(2, q.cells().size(), "both cells of the bad row, the delete marker too");
    assertTrue(q.reason().contains("telemetry-v1"), q.reason());
  }

  @Test
  void walMetaCellsAreNotData() throws IOException {
    byte[] row = v1Key(TS);
    Cell meta =
        new KeyValue(
            row,
            WALEdit.METAFAMILY,
            Bytes.toBytes("HBASE::FLUSH"),
            TS,
            KeyValue.Type.Put,
            Bytes.toBytes("x"));
    EditRekeyer.Rekeyed r = v1ToV2("t2").rekey(List.of(meta), 1L);
    assertEquals(0, r.mutationCount());
    assertTrue(r.quarantined().isEmpty());
  }

  @Test
  void quarantineRowsNameThePeerTheKeyTheEditAndTheTarget() throws IOException {
    byte[] bad = Bytes.toBytes("short");
    EditRekeyer.Rekeyed r =
        v1ToV2("t2").rekey(List.of(cell(bad, V, TS, KeyValue.Type.DeleteColumn, null)), 77L);
    List<Put> puts = Quarantine.puts("rekey_t1", "t1", r.quarantined());
    assertEquals(1, puts.size());
    assertEquals("rekey_t1/73686f7274/77/t2", Bytes.toString(puts.get(0).getRow()));
    List<String> cells = describe(puts.get(0));
    assertTrue(cells.contains("q:cell:DeleteColumn:d:v@" + TS + "/Put="), cells.toString());
    assertTrue(cells.contains("q:source_table@0/Put=t1"), cells.toString());
  }
}
