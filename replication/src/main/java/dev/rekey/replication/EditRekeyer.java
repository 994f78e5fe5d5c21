package dev.rekey.replication;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyRekeyer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * The pure part of the endpoint: one WAL edit's cells → per target, the mutations that apply them
 * under the new key; and the rows that cannot be rekeyed, to quarantine.
 *
 * <p>A WAL cell carries its KeyValue type: a Put cell becomes a Put cell, and each kind of delete
 * marker — a version ({@code Delete}), every version of a column ({@code DeleteColumn}), a family
 * ({@code DeleteFamily}), one version of a family ({@code DeleteFamilyVersion}); a deleted row is
 * one {@code DeleteFamily} per family in the WAL — becomes the same marker on the new row, with the
 * same family, qualifier and <b>timestamp</b>. Since every cell keeps its timestamp, applying the
 * mutations in any order, or twice (a retried batch), gives the same table. WAL meta cells
 * (compaction, flush, region and bulk-load markers) describe the source's store files, not data,
 * and are skipped. Cell tags are not copied.
 */
public final class EditRekeyer {
  private final List<String> targetTables;
  private final List<KeyRekeyer> rekeyers;

  /**
   * @param targetTables target table names, one per rekeyer
   * @param rekeyers per target, source key → target key
   */
  public EditRekeyer(List<String> targetTables, List<KeyRekeyer> rekeyers) {
    if (targetTables.size() != rekeyers.size()) {
      throw new IllegalArgumentException(
          targetTables.size() + " target tables for " + rekeyers.size() + " layouts");
    }
    this.targetTables = List.copyOf(targetTables);
    this.rekeyers = List.copyOf(rekeyers);
  }

  /** A source row of one edit that could not be rekeyed for one target, and why. */
  public record Quarantined(
      byte[] sourceRow, long sequenceId, String targetTable, String reason, List<Cell> cells) {
    public String sourceRowHex() {
      return Hex.of(sourceRow);
    }
  }

  /** What a batch of edits becomes: mutations per target table (in target order), quarantine. */
  public record Rekeyed(Map<String, List<Mutation>> mutations, List<Quarantined> quarantined) {
    public long mutationCount() {
      return mutations.values().stream().mapToLong(List::size).sum();
    }
  }

  /** Collects the mutations of several edits, one {@link #add} per WAL entry. */
  public final class Batch {
    private final Map<String, List<Mutation>> mutations = new LinkedHashMap<>();
    private final List<Quarantined> quarantined = new ArrayList<>();

    private Batch() {
      for (String t : targetTables) {
        mutations.put(t, new ArrayList<>());
      }
    }

    /** One WAL entry's cells (its edit), with the entry's sequence id for the quarantine. */
    public Batch add(List<Cell> cells, long sequenceId) {
      for (List<Cell> row : byRow(cells)) {
        byte[] sourceRow = CellUtil.cloneRow(row.get(0));
        for (int t = 0; t < rekeyers.size(); t++) {
          byte[] key;
          try {
            key = rekeyers.get(t).rekey(sourceRow);
          } catch (IllegalArgumentException e) {
            quarantined.add(
                new Quarantined(
                    sourceRow, sequenceId, targetTables.get(t), e.getMessage(), List.copyOf(row)));
            continue;
          }
          mutations.get(targetTables.get(t)).addAll(mutationsOf(key, row));
        }
      }
      return this;
    }

    public Rekeyed build() {
      return new Rekeyed(mutations, List.copyOf(quarantined));
    }
  }

  public Batch batch() {
    return new Batch();
  }

  /** One edit alone: {@code batch().add(cells, sequenceId).build()}. */
  public Rekeyed rekey(List<Cell> cells, long sequenceId) {
    return batch().add(cells, sequenceId).build();
  }

  /** The data cells of an edit grouped by row, rows in their first cell's order. */
  static List<List<Cell>> byRow(List<Cell> cells) {
    List<List<Cell>> rows = new ArrayList<>();
    List<Cell> current = null;
    for (Cell c : cells) {
      if (WALEdit.isMetaEditFamily(c)) {
        continue;
      }
      if (current == null || !CellUtil.matchingRows(current.get(0), c)) {
        current = null;
        for (List<Cell> r : rows) {
          if (CellUtil.matchingRows(r.get(0), c)) {
            current = r;
            break;
          }
        }
        if (current == null) {
          current = new ArrayList<>();
          rows.add(current);
        }
      }
      current.add(c);
    }
    return rows;
  }

  /**
   * A row's cells under {@code key}: one Put with its Put cells, one Delete with its delete markers
   * (either left out when empty), each cell with its family, qualifier, timestamp, type and value.
   */
  static List<Mutation> mutationsOf(byte[] key, List<Cell> row) {
    Put put = null;
    Delete delete = null;
    try {
      for (Cell c : row) {
        Cell moved =
            CellBuilderFactory.create(CellBuilderType.DEEP_COPY)
                .setRow(key)
                .setFamily(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
                .setQualifier(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
                .setTimestamp(c.getTimestamp())
                .setType(c.getType())
                .setValue(c.getValueArray(), c.getValueOffset(), c.getValueLength())
                .build();
        if (c.getType() == Cell.Type.Put) {
          put = put == null ? new Put(key, true) : put;
          put.add(moved);
        } else {
          delete = delete == null ? new Delete(key) : delete;
          delete.add(moved);
        }
      }
    } catch (java.io.IOException e) {
      // Put.add/Delete.add throw only for a cell of another row, which a moved cell never is
      throw new IllegalStateException(e);
    }
    List<Mutation> out = new ArrayList<>(2);
    if (put != null) {
      out.add(put);
    }
    if (delete != null) {
      out.add(delete);
    }
    return out;
  }
}
