package dev.rekey.demo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;

/**
 * Puts a table's regions on the live RegionServers in turn, in key order (region i on server i mod
 * n), so neighbouring salt buckets sit on different servers whatever the balancer did at creation.
 */
public final class RegionSpread {
  private RegionSpread() {}

  /**
   * Which server (index into the sorted live servers) region {@code i} of {@code regions} belongs
   * on.
   */
  static int serverFor(int regionIndex, int servers) {
    return Math.floorMod(regionIndex, servers);
  }

  /**
   * @return how many regions were moved
   */
  public static int interleave(Admin admin, TableName table) throws IOException {
    List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
    servers.sort(
        Comparator.comparing(ServerName::getAddress, Comparator.comparing(Object::toString)));
    Connection conn = admin.getConnection();
    int moved = 0;
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      List<HRegionLocation> locations = new ArrayList<>(locator.getAllRegionLocations());
      locations.sort(
          Comparator.comparing(
              HRegionLocation::getRegion,
              (a, b) ->
                  org.apache.hadoop.hbase.util.Bytes.compareTo(a.getStartKey(), b.getStartKey())));
      for (int i = 0; i < locations.size(); i++) {
        ServerName target = servers.get(serverFor(i, servers.size()));
        if (!target.equals(locations.get(i).getServerName())) {
          admin.move(locations.get(i).getRegion().getEncodedNameAsBytes(), target);
          moved++;
        }
      }
    }
    return moved;
  }
}
