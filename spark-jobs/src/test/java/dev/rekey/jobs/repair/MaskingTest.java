package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RowRepairTest.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.DecodedCell;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class MaskingTest {
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] V = Bytes.toBytes("v");
  static final long SNAP = 1_000;
  static final DecodedCell PUT = cell("d:v", 100, "a");

  @Test
  void markersHideByTypeFamilyQualifierAndTimestamp() {
    assertTrue(new Marker(Marker.Type.FAMILY, D, null, 100).hides(PUT));
    assertTrue(new Marker(Marker.Type.FAMILY, D, null, 500).hides(PUT));
    assertFalse(new Marker(Marker.Type.FAMILY, D, null, 99).hides(PUT));
    assertFalse(new Marker(Marker.Type.FAMILY, Bytes.toBytes("e"), null, 500).hides(PUT));
    assertTrue(new Marker(Marker.Type.FAMILY_VERSION, D, null, 100).hides(PUT));
    assertFalse(new Marker(Marker.Type.FAMILY_VERSION, D, null, 101).hides(PUT));
    assertTrue(new Marker(Marker.Type.COLUMN, D, V, 100).hides(PUT));
    assertFalse(new Marker(Marker.Type.COLUMN, D, Bytes.toBytes("s"), 100).hides(PUT));
    assertTrue(new Marker(Marker.Type.VERSION, D, V, 100).hides(PUT));
    assertFalse(new Marker(Marker.Type.VERSION, D, V, 101).hides(PUT));
  }

  @Test
  void aMarkerOlderThanTheSnapshotNeedsACompaction() {
    Masking m =
        Masking.of(List.of(PUT), List.of(new Marker(Marker.Type.FAMILY, D, null, 900)), SNAP);
    assertTrue(m.masked());
    assertEquals(List.of(PUT), m.needsCompaction());
    assertTrue(m.writable().isEmpty());
  }

  @Test
  void whereTheFamilyKeepsNewVersionBehaviorAnOldMarkerHidesNothingWrittenNow() {
    Marker old = new Marker(Marker.Type.FAMILY, D, null, 900);
    Masking m = Masking.of(List.of(PUT), List.of(old), SNAP, Set.of("d"));
    assertFalse(m.masked());
    assertEquals(List.of(PUT), m.writable());
    // another family's setting changes nothing for d
    assertTrue(Masking.of(List.of(PUT), List.of(old), SNAP, Set.of("e")).masked());
    // a delete made after the snapshot stays a delete: there a Put written now would undo it
    Masking newer =
        Masking.of(
            List.of(PUT),
            List.of(new Marker(Marker.Type.FAMILY, D, null, SNAP + 1)),
            SNAP,
            Set.of("d"));
    assertEquals(List.of(PUT), newer.deletedAfterSnapshot());
    assertTrue(newer.writable().isEmpty());
  }

  @Test
  void theFamiliesKeepingNewVersionBehaviorAreReadFromTheTable() {
    TableDescriptor t =
        TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(D).setNewVersionBehavior(true).build())
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("e"))
            .build();
    assertEquals(Set.of("d"), Masking.writtenAfterFamilies(t));
    // one family of two: the early compaction still has markers to look for
    assertEquals(new WrittenAfter(Set.of("d"), false), WrittenAfter.of(t));
    TableDescriptor onlyD =
        TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(D).setNewVersionBehavior(true).build())
            .build();
    assertTrue(WrittenAfter.of(onlyD).everyFamily());
  }

  @Test
  void aMarkerNewerThanTheSnapshotIsADeleteToKeep() {
    Masking m =
        Masking.of(
            List.of(PUT),
            List.of(
                new Marker(Marker.Type.FAMILY, D, null, 900),
                new Marker(Marker.Type.FAMILY, D, null, SNAP + 1)),
            SNAP);
    assertFalse(m.masked());
    assertEquals(List.of(PUT), m.deletedAfterSnapshot());
  }

  @Test
  void aDeleteAfterTheSnapshotStaysDeletedWhenACompactionTookItsMarker() {
    DecodedCell other = cell("d:s", 100, "ok");
    Masking before =
        Masking.of(
            List.of(PUT, other), List.of(new Marker(Marker.Type.COLUMN, D, V, SNAP + 1)), SNAP);
    assertEquals(List.of(PUT), before.deletedAfterSnapshot());
    Masking compacted = Masking.of(List.of(PUT, other), List.of(), SNAP); // no marker left
    Masking kept = compacted.keeping(before);
    assertEquals(List.of(other), kept.writable());
    assertEquals(List.of(PUT), kept.deletedAfterSnapshot());
    assertFalse(kept.masked());
    assertEquals(compacted, compacted.keeping(null));
  }

  @Test
  void unhiddenPutsAreWritable() {
    DecodedCell other = cell("d:s", 100, "ok");
    Masking m =
        Masking.of(List.of(PUT, other), List.of(new Marker(Marker.Type.VERSION, D, V, 100)), SNAP);
    assertEquals(List.of(other), m.writable());
    assertEquals(List.of(PUT), m.needsCompaction());
  }
}
