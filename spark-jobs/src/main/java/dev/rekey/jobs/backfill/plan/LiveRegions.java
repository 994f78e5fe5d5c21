package dev.rekey.jobs.backfill.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/** The target table's regions as they are now (run layer: one call to the region locator). */
public final class LiveRegions {
  private LiveRegions() {}

  public static RegionBoundaries of(Connection conn, TableName table) throws IOException {
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      List<HRegionLocation> locs = new ArrayList<>(locator.getAllRegionLocations());
      locs.sort(
          (a, b) -> Bytes.compareTo(a.getRegion().getStartKey(), b.getRegion().getStartKey()));
      List<byte[]> starts = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (HRegionLocation l : locs) {
        starts.add(l.getRegion().getStartKey());
        names.add(l.getRegion().getEncodedName());
      }
      return new RegionBoundaries(starts, names);
    }
  }
}
