package dev.rekey.jobs.guardrails;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A guardrail check asked for on the command line (plan layer): the sizes given there; the rest
 * comes from the cluster's conf when the job runs ({@link #limits}).
 *
 * @param maxCellBytes a cell size limit in place of the cluster's {@code
 *     hbase.client.keyvalue.maxsize} (null: the cluster's)
 * @param maxColumns rows with more columns are reported (null: no limit)
 */
public record GuardrailRequest(Long maxCellBytes, Integer maxColumns) implements Serializable {
  /** The cluster's limits, no column limit. */
  public static final GuardrailRequest CLUSTER = new GuardrailRequest(null, null);

  public GuardrailRequest {
    if (maxCellBytes != null && maxCellBytes < 1) {
      throw RekeyException.usage(
          "--max-cell-bytes %d is not a size (give 1 or more bytes; leave it out for the cluster's"
              + " hbase.client.keyvalue.maxsize)",
          maxCellBytes);
    }
    if (maxColumns != null && maxColumns < 1) {
      throw RekeyException.usage(
          "--max-columns %d is not a count (give 1 or more; leave it out for no limit)",
          maxColumns);
    }
  }

  /** The limits against {@code conf}'s cluster, for keys of {@code source} rekeyed to target. */
  public GuardrailLimits limits(Configuration conf, KeyLayout source, KeyLayout target) {
    return GuardrailLimits.of(conf, maxCellBytes, maxColumns, source, target);
  }
}
