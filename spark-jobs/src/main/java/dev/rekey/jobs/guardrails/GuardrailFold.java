package dev.rekey.jobs.guardrails;

import dev.rekey.jobs.analyze.KeyStats;
import dev.rekey.read.PackedCells;
import dev.rekey.read.PartitionFold;
import dev.rekey.rowkey.KeyRekeyer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A partition's rows measured into {@link RowShape}s as they stream by, checked ({@link
 * Guardrails#check}) and tallied per source region ({@link GuardrailTally}): the Spark glue of a
 * guardrail read; no row kept.
 */
public final class GuardrailFold implements PartitionFold<GuardrailTally> {
  private static final long serialVersionUID = 1L;
  private final GuardrailLimits limits;
  private final ArrayList<byte[]> starts;

  /**
   * @param starts the source regions' start keys in key order (the tally counts per region)
   */
  public GuardrailFold(GuardrailLimits limits, List<byte[]> starts) {
    this.limits = limits;
    this.starts = new ArrayList<>(starts.isEmpty() ? List.of(new byte[0]) : starts);
  }

  @Override
  public Sink<GuardrailTally> open(int partition) {
    GuardrailTally tally = new GuardrailTally(starts.size(), limits.worst());
    KeyRekeyer rekeyer =
        limits.source() != null && limits.target() != null
            ? new KeyRekeyer(limits.source(), limits.target())
            : null;
    return new Sink<>() {
      private final RowMeasure row = new RowMeasure();

      @Override
      public void startRow(byte[] key) {
        row.start(key, rekeyer, limits);
      }

      @Override
      public void cell(Cell c) {
        row.cell(c);
      }

      @Override
      public void endRow() {
        RowShape shape = row.shape();
        List<Finding> found = Guardrails.check(limits, shape);
        byte[] key = found.isEmpty() ? shape.key() : shape.key().clone();
        tally.add(KeyStats.regionOf(starts, key), key, found);
      }

      @Override
      public void dropRow() {
        // the row starts again: startRow resets it
      }

      @Override
      public GuardrailTally result() {
        return tally;
      }
    };
  }

  /** One row's measures, reset at each row (package-private for tests). */
  static final class RowMeasure {
    private byte[] key;
    private int targetKeyBytes;
    private String undecodable;
    private int columns;
    private long rowBytes;
    private long largest;
    private String largestCell;
    private byte[] lastFamily = new byte[0];
    private byte[] lastQualifier = new byte[0];
    private boolean any;

    void start(byte[] k, KeyRekeyer rekeyer, GuardrailLimits limits) {
      key = k;
      columns = 0;
      rowBytes = 0;
      largest = 0;
      largestCell = null;
      any = false;
      undecodable = null;
      targetKeyBytes = k.length;
      if (rekeyer != null) {
        try {
          targetKeyBytes = rekeyer.rekeyUnbounded(k).key().length;
        } catch (IllegalArgumentException e) {
          undecodable = e.getMessage();
          targetKeyBytes = -1;
        }
      } else if (limits.source() != null) {
        try {
          limits.source().decode(k);
        } catch (IllegalArgumentException e) {
          undecodable = e.getMessage();
        }
      }
    }

    void cell(Cell c) {
      if (!any
          || !CellUtil.matchingFamily(c, lastFamily)
          || !CellUtil.matchingQualifier(c, lastQualifier)) {
        columns++;
        lastFamily = CellUtil.cloneFamily(c);
        lastQualifier = CellUtil.cloneQualifier(c);
        any = true;
      }
      rowBytes += c.getSerializedSize();
      int rowLength = targetKeyBytes < 0 ? key.length : targetKeyBytes;
      // as the backfill measures a cell under its target key (Rekeyer.oversizedCell); a key over
      // a short's range is added on, not cast
      long size =
          rowLength <= Short.MAX_VALUE
              ? PackedCells.keyValueLength(rowLength, c)
              : (long) PackedCells.keyValueLength(0, c) + rowLength;
      if (size > largest) {
        largest = size;
        largestCell =
            Bytes.toStringBinary(lastFamily)
                + ":"
                + Bytes.toStringBinary(lastQualifier)
                + "@"
                + c.getTimestamp();
      }
    }

    RowShape shape() {
      return new RowShape(
          key, columns, rowBytes, largest, largestCell, targetKeyBytes, undecodable);
    }
  }
}
