package dev.rekey.jobs.guardrails;

import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRekeyer;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;

/**
 * The limits a guardrail read holds each source row to, and the layouts its key is checked with.
 *
 * @param maxRowBytes a row's cells together ({@code hbase.table.max.rowsize}; 0: no limit)
 * @param maxCellBytes one cell as a KeyValue under its target key ({@code
 *     hbase.client.keyvalue.maxsize} or the size given; 0: no limit)
 * @param maxColumns distinct columns (family:qualifier) of a row (0: no limit)
 * @param maxKeyBytes the longest target key HBase takes ({@link KeyRekeyer#MAX_ROW_LENGTH})
 * @param source the layout the keys are decoded with (null: keys not checked)
 * @param target the layout they are rekeyed to (null: not rekeyed; the key's length is its own)
 * @param worst the examples kept per kind (the largest; undecodable keys: the first in key order)
 */
public record GuardrailLimits(
    long maxRowBytes,
    long maxCellBytes,
    int maxColumns,
    int maxKeyBytes,
    KeyLayout source,
    KeyLayout target,
    int worst)
    implements Serializable {
  /** Examples kept per kind unless told. */
  public static final int DEFAULT_WORST = 5;

  public GuardrailLimits {
    if (maxRowBytes < 0 || maxCellBytes < 0 || maxColumns < 0 || worst < 0) {
      throw RekeyException.usage(
          "Cannot check guardrails: limits must be 0 (none) or more (row bytes %d, cell bytes %d,"
              + " columns %d, examples %d)",
          maxRowBytes, maxCellBytes, maxColumns, worst);
    }
  }

  /**
   * The cluster's limits from its conf ({@code hbase.table.max.rowsize}, default 1 GB; {@code
   * hbase.client.keyvalue.maxsize}, default 10 MB), a cell size given on the command line in place
   * of the latter (null: the cluster's), and a column count (null or 0: none).
   */
  public static GuardrailLimits of(
      Configuration conf,
      Long maxCellBytes,
      Integer maxColumns,
      KeyLayout source,
      KeyLayout target) {
    long row = conf.getLong(HConstants.TABLE_MAX_ROWSIZE_KEY, HConstants.TABLE_MAX_ROWSIZE_DEFAULT);
    long cell =
        maxCellBytes != null
            ? maxCellBytes
            : conf.getLong("hbase.client.keyvalue.maxsize", Rekeyer.DEFAULT_MAX_CELL_BYTES);
    return new GuardrailLimits(
        Math.max(0, row),
        Math.max(0, cell),
        maxColumns == null ? 0 : maxColumns,
        KeyRekeyer.MAX_ROW_LENGTH,
        source,
        target,
        DEFAULT_WORST);
  }

  /** The limits as one line, for the report's head. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    parts.add("row " + bytes(maxRowBytes) + " (" + HConstants.TABLE_MAX_ROWSIZE_KEY + ")");
    parts.add("cell " + bytes(maxCellBytes));
    parts.add("columns " + (maxColumns == 0 ? "no limit" : String.format("%,d", maxColumns)));
    parts.add(String.format(Locale.ROOT, "key %,d bytes", maxKeyBytes));
    parts.add(
        source == null
            ? "keys not decoded (no source layout)"
            : "keys decoded with "
                + source.name()
                + (target == null ? "" : " and rekeyed to " + target.name()));
    return String.join(", ", parts);
  }

  private static String bytes(long n) {
    return n == 0 ? "no limit" : String.format(Locale.ROOT, "%,d bytes", n);
  }
}
