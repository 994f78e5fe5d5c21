package dev.rekey.jobs.repair;

import dev.rekey.common.DecodedCell;
import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;

/**
 * Writes repair mutations to the new table (driver side, the Puts path): first a raw scan of each
 * row to be put finds the delete markers that would hide the Puts ({@link Masking}); masked rows
 * are compacted first (their regions flushed and major-compacted, waiting with a deadline until the
 * markers are gone) or the repair is refused with the regions and the command to run. Then Puts
 * with the cells' own timestamps and Deletes at exact timestamps, through a BufferedMutator with
 * the WAL on. {@code writtenAfter}: the table's families where a marker hides only what was written
 * before it (NEW_VERSION_BEHAVIOR, {@link Masking#writtenAfterFamilies}), read once per run.
 */
record RepairWriter(Connection conn, TableName table, long snapshotTime, Set<String> writtenAfter) {

  /**
   * Per row (hex) with Puts, which of them delete markers hide, from a raw scan of the rows now.
   */
  Map<String, Masking> masking(List<RowMutation> rows) throws IOException {
    Map<String, Masking> out = new HashMap<>();
    List<RowMutation> withPuts = rows.stream().filter(m -> !m.fix().puts().isEmpty()).toList();
    if (withPuts.isEmpty()) {
      return out;
    }
    try (Table t = conn.getTable(table)) {
      Map<String, List<Marker>> markers =
          MarkerScan.markers(t, withPuts.stream().map(RowMutation::row).toList());
      for (RowMutation m : withPuts) {
        out.put(
            m.rowHex(),
            Masking.of(
                m.fix().puts(),
                markers.getOrDefault(m.rowHex(), List.of()),
                snapshotTime,
                writtenAfter));
      }
    }
    return out;
  }

  /** The masked rows' regions, encoded name → its start key in hex, for the messages. */
  private Map<String, byte[]> regionsOf(List<RowMutation> rows, Map<String, Masking> masks)
      throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (RegionLocator l = conn.getRegionLocator(table)) {
      for (RowMutation m : rows) {
        Masking k = masks.get(m.rowHex());
        if (k != null && k.masked()) {
          RegionInfo r = l.getRegionLocation(m.row(), true).getRegion();
          out.put(r.getEncodedName(), r.getRegionName());
        }
      }
    }
    return out;
  }

  private static long maskedCells(Map<String, Masking> masks) {
    return masks.values().stream().mapToLong(k -> k.needsCompaction().size()).sum();
  }

  /**
   * The repair cannot go on while delete markers hide its Puts: what, where and the command to run.
   */
  RekeyException refusal(List<RowMutation> rows, Map<String, Masking> masks) throws IOException {
    long rowsMasked = masks.values().stream().filter(Masking::masked).count();
    return RekeyException.refused(
        "%s",
        String.format(
            Locale.ROOT,
            "Cannot repair %s: delete markers would hide %,d of the cells to put, in %,d row%s"
                + " (regions %s); a Put older than a marker stays invisible until a major"
                + " compaction removes the marker, so the rows would be \"repaired\" and still"
                + " missing. Run `major_compact '%s'` in the HBase shell, wait until it is done,"
                + " and run repair again, or add --compact-if-masked",
            table,
            maskedCells(masks),
            rowsMasked,
            rowsMasked == 1 ? "" : "s",
            String.join(", ", regionsOf(rows, masks).keySet()),
            table));
  }

  /**
   * The step both write paths take when delete markers hide cells to put: refused without
   * --compact-if-masked (naming the regions and the command to run), else {@link #compact}.
   */
  void compactOrRefuse(
      List<RowMutation> rows,
      Map<String, Masking> masks,
      RepairOptions options,
      Set<String> requested,
      Consumer<String> progress)
      throws IOException {
    if (!options.compactIfMasked()) {
      throw refusal(rows, masks);
    }
    compact(rows, masks, requested, options.compactWait(), progress);
  }

  /**
   * Flushes the table, major-compacts the regions of the masked rows (those not in {@code
   * requested}: compacted already, {@link EarlyCompaction}) and waits until a raw scan shows no
   * marker hiding a Put (or {@code wait} passes: then fails, naming the regions).
   */
  void compact(
      List<RowMutation> rows,
      Map<String, Masking> masks,
      Set<String> requested,
      Duration wait,
      Consumer<String> progress)
      throws IOException {
    Map<String, byte[]> regions = regionsOf(rows, masks);
    Map<String, byte[]> toCompact = new TreeMap<>(regions);
    toCompact.keySet().removeAll(requested);
    if (toCompact.isEmpty()) {
      progress.accept(
          String.format(
              Locale.ROOT,
              "  delete markers hide %,d cells to put: waiting for the major compaction of %d"
                  + " region%s started before the compare",
              maskedCells(masks),
              regions.size(),
              regions.size() == 1 ? "" : "s"));
    } else {
      progress.accept(
          String.format(
              Locale.ROOT,
              "  delete markers hide %,d cells to put: flushing %s and major-compacting %d"
                  + " region%s (%s)",
              maskedCells(masks),
              table,
              toCompact.size(),
              toCompact.size() == 1 ? "" : "s",
              String.join(", ", toCompact.keySet())));
      try (Admin admin = conn.getAdmin()) {
        admin.flush(table);
        for (byte[] region : toCompact.values()) {
          admin.majorCompactRegion(region);
        }
      }
    }
    List<RowMutation> masked =
        rows.stream()
            .filter(m -> masks.containsKey(m.rowHex()) && masks.get(m.rowHex()).masked())
            .toList();
    Poll.until(
        () -> masking(masked).values().stream().noneMatch(Masking::masked),
        wait,
        Duration.ofMillis(250),
        () ->
            new RekeyException(
                String.format(
                    "Cannot repair %s: the delete markers in regions %s were still there after %d"
                        + " s of major compaction; nothing was written. Wait for the compaction"
                        + " to finish (`compaction_state '%s'` in the HBase shell) and run repair"
                        + " again",
                    table, String.join(", ", regions.keySet()), wait.toSeconds(), table)));
  }

  /**
   * Writes rows' Puts (those no marker hides; those a marker newer than the snapshot hides stay
   * deleted) and Deletes, and flushes: when this returns, the cells are in the table.
   */
  WriteCounts write(List<RowMutation> rows, Map<String, Masking> masks) throws IOException {
    long put = 0;
    long deleted = 0;
    long keptDeleted = 0;
    try (BufferedMutator bm = conn.getBufferedMutator(table)) {
      for (RowMutation m : rows) {
        Masking k = masks.get(m.rowHex());
        List<DecodedCell> puts = k == null ? m.fix().puts() : k.writable();
        if (k != null && k.masked()) {
          throw new IllegalStateException(
              String.format(
                  "row 0x%s is still masked: check masking before writing", Hex.of(m.row())));
        }
        keptDeleted += k == null ? 0 : k.deletedAfterSnapshot().size();
        if (!puts.isEmpty()) {
          Put p = new Put(m.row()).setDurability(Durability.SYNC_WAL);
          for (DecodedCell c : puts) {
            p.addColumn(c.family(), c.qualifier(), c.timestamp(), c.value());
          }
          bm.mutate(p);
          put += puts.size();
        }
        if (!m.fix().deletes().isEmpty()) {
          Delete d = new Delete(m.row());
          for (DecodedCell c : m.fix().deletes()) {
            d.addColumn(c.family(), c.qualifier(), c.timestamp());
          }
          bm.mutate(d);
          deleted += m.fix().deletes().size();
        }
      }
      bm.flush();
    }
    return new WriteCounts(put, deleted, keptDeleted);
  }
}
