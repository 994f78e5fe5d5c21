package dev.rekey.jobs.scan;

import dev.rekey.common.DecodedCell;
import dev.rekey.common.RowDecoder;
import dev.rekey.read.PartitionFold;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyDecodeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;

/**
 * A partition's {@link RegionStats} as its rows stream in: each key checked against the layout,
 * rows, cells and bytes of the rows that decode, undecodable keys counted and a few sampled. A row
 * counts at its end; a dropped row (read again from its start) not at all.
 */
final class ScanTally implements PartitionFold.Sink<RegionStats> {
  private final int partition;
  private final RowDecoder decoder;
  private final int samples;
  private final long t0 = System.nanoTime();
  private final List<String> sampled = new ArrayList<>();
  private long rows;
  private long cells;
  private long bytes;
  private long undecodable;
  private String firstKey;
  // the current row, counted at its end
  private byte[] key;
  private String undecodableReason; // null: the key decodes
  private long rowCells;
  private long rowBytes;

  ScanTally(int partition, RowDecoder decoder, int samples) {
    this.partition = partition;
    this.decoder = decoder;
    this.samples = samples;
  }

  /** The fold of a report-less scan: each partition's stats, no rows kept. */
  static PartitionFold<RegionStats> fold(RowDecoder decoder, int samples) {
    return partition -> new ScanTally(partition, decoder, samples);
  }

  @Override
  public void startRow(byte[] k) {
    key = k;
    rowCells = 0;
    rowBytes = k.length;
    try {
      decoder.check(k); // checked only: report views decode it from the packed cells
      undecodableReason = null;
    } catch (KeyDecodeException e) {
      undecodableReason = e.reason();
    }
  }

  /** True if the current row's key decodes with the layout. */
  boolean rowDecodes() {
    return undecodableReason == null;
  }

  @Override
  public void cell(Cell c) {
    rowCells++;
    rowBytes += DecodedCell.byteSize(c);
  }

  @Override
  public void endRow() {
    if (firstKey == null) {
      firstKey = Hex.of(key);
    }
    if (undecodableReason != null) {
      undecodable++;
      if (sampled.size() < samples) {
        sampled.add(Hex.of(key) + ": " + undecodableReason);
      }
      return;
    }
    rows++;
    cells += rowCells;
    bytes += rowBytes;
  }

  @Override
  public void dropRow() {
    // nothing counted yet: the row streams again
  }

  @Override
  public RegionStats result() {
    return new RegionStats(
        partition,
        firstKey == null ? "" : firstKey,
        rows,
        cells,
        bytes,
        (System.nanoTime() - t0) / 1_000_000,
        undecodable,
        List.copyOf(sampled));
  }
}
