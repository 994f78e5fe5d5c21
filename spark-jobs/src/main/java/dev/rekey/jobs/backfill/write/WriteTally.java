package dev.rekey.jobs.backfill.write;

import java.io.Serializable;
import org.apache.spark.SparkContext;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * What a write's tasks add up beside the rows they write: rows, cells and bytes per region and
 * hour, target-key collisions and a few examples of them. Registered with the driver's {@link
 * SparkContext}, so the driver sees the additions of the attempts Spark kept.
 */
public record WriteTally(
    KeyedCounts counts, LongAccumulator collisions, CollectionAccumulator<String> examples)
    implements Serializable {

  /** A new tally whose accumulators are named {@code prefix + "counts"}, ... in the Spark UI. */
  public static WriteTally register(SparkContext sc, String prefix) {
    KeyedCounts counts = new KeyedCounts();
    sc.register(counts, prefix + "counts");
    // written so far, all regions together (per region in the result): rows, cells and bytes
    dev.rekey.common.JobMetrics.of(sc)
        .ifPresent(
            m -> {
              String p = RowCounters.metricPrefix(prefix);
              for (String what : new String[] {"rows", "cells", "bytes"}) {
                m.counter(p + "written." + what, () -> counts.total(what + "."));
              }
            });
    return new WriteTally(
        counts,
        sc.longAccumulator(prefix + "collisions"),
        sc.collectionAccumulator(prefix + "collisionExamples"));
  }
}
