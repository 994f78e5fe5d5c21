package dev.rekey.jobs.backfill;

import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import java.util.ArrayList;
import java.util.List;

/** Region boundaries of a table pre-split at some points, regions named r0, r1, ... (tests). */
public final class Regions {
  private Regions() {}

  public static RegionBoundaries splitAt(List<byte[]> splitPoints) {
    List<byte[]> starts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(splitPoints);
    for (int i = 0; i < starts.size(); i++) {
      names.add("r" + i);
    }
    return new RegionBoundaries(starts, names);
  }
}
