package dev.rekey.jobs.analyze;

import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A table's live regions, their servers and the RegionServers' own counters for them. The counters
 * are asked of each RegionServer directly ({@code Admin.getRegionMetrics(server)}), which reports
 * its current values, rather than the master's copy, which lags by a heartbeat.
 */
public final class ClusterRegions {
  /** Regions in key order (rows = -1: not read yet), the live servers, and their count. */
  public record View(List<RegionStat> regions, List<ServerStat> servers, int liveServers) {
    public List<byte[]> startKeys() {
      List<byte[]> s = new ArrayList<>(regions.size());
      regions.forEach(r -> s.add(Hex.parse(r.startKeyHex())));
      return s;
    }
  }

  private ClusterRegions() {}

  public static View read(Connection conn, Admin admin, TableName table) throws IOException {
    List<HRegionLocation> locations;
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      locations = new ArrayList<>(locator.getAllRegionLocations());
    }
    locations.sort(
        (a, b) -> Bytes.compareTo(a.getRegion().getStartKey(), b.getRegion().getStartKey()));
    ClusterMetrics cluster =
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    Map<String, RegionMetrics> metricsByRegion = new HashMap<>();
    List<ServerStat> servers = new ArrayList<>();
    List<ServerName> live = new ArrayList<>(cluster.getLiveServerMetrics().keySet());
    live.sort(ServerName::compareTo);
    Map<String, String> serverOfRegion = new HashMap<>();
    for (ServerName sn : live) {
      long all = 0;
      int tableRegions = 0;
      long reads = 0;
      long writes = 0;
      for (RegionMetrics rm : admin.getRegionMetrics(sn)) {
        all += rm.getReadRequestCount() + rm.getWriteRequestCount();
        String name = Bytes.toStringBinary(rm.getRegionName());
        if (belongsTo(rm.getRegionName(), table)) {
          metricsByRegion.put(name, rm);
          serverOfRegion.put(name, label(sn));
          tableRegions++;
          reads += rm.getReadRequestCount();
          writes += rm.getWriteRequestCount();
        }
      }
      servers.add(new ServerStat(label(sn), tableRegions, reads, writes, all, List.of()));
    }
    List<RegionStat> regions = new ArrayList<>(locations.size());
    for (int i = 0; i < locations.size(); i++) {
      HRegionLocation loc = locations.get(i);
      String name = Bytes.toStringBinary(loc.getRegion().getRegionName());
      RegionMetrics rm = metricsByRegion.get(name);
      String server =
          serverOfRegion.getOrDefault(
              name, loc.getServerName() == null ? "" : label(loc.getServerName()));
      regions.add(
          new RegionStat(
              i,
              Hex.of(loc.getRegion().getStartKey()),
              Hex.of(loc.getRegion().getEndKey()),
              server,
              -1,
              rm == null ? 0 : rm.getReadRequestCount(),
              rm == null ? 0 : rm.getWriteRequestCount(),
              rm == null ? 0 : rm.getStoreFileSize().get(Size.Unit.MEGABYTE),
              rm == null ? 0 : rm.getMemStoreSize().get(Size.Unit.MEGABYTE)));
    }
    return new View(regions, servers, live.size());
  }

  /** Region names are {@code table,startKey,id.encoded.}: the table name and a comma lead. */
  static boolean belongsTo(byte[] regionName, TableName table) {
    byte[] prefix = Bytes.add(table.getName(), new byte[] {','});
    return regionName.length > prefix.length
        && Arrays.equals(regionName, 0, prefix.length, prefix, 0, prefix.length);
  }

  static String label(ServerName sn) {
    return sn.getHostname() + ":" + sn.getPort();
  }
}
