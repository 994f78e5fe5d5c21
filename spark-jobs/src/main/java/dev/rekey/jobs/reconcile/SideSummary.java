package dev.rekey.jobs.reconcile;

import dev.rekey.read.RegionScan;
import java.io.Serializable;
import java.util.List;

/**
 * What was read from one side: {@code read = inRange + outsideRange} (undecodable rows fail the run
 * before a result exists, so they are always 0 here).
 */
public record SideSummary(
    String source,
    String layout,
    int regions,
    int partitions,
    long read,
    long inRange,
    long outsideRange,
    long cells,
    String reading,
    String pruning,
    List<RegionScan> regionScans)
    implements Serializable {

  public SideSummary {
    regionScans = List.copyOf(regionScans);
  }

  /** "read 10,000 = 9,000 in range + 1,000 outside range" */
  public String accounting() {
    return String.format(
        "read %,d = %,d in range + %,d outside range", read, inRange, outsideRange);
  }
}
