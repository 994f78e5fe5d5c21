package dev.rekey.jobs.analyze;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the sample, the regions and the servers into an {@link AnalyzeResult} (pure; the
 * Spark/HBase glue feeds it).
 */
public final class Analyzer {
  private Analyzer() {}

  /**
   * @param regions the table's regions, in key order, with rows filled in
   * @param servers the live RegionServers (tails are filled in here)
   */
  public static AnalyzeResult assemble(
      String source,
      String table,
      KeyLayout layout,
      long rowsRead,
      List<KeySample> samples,
      List<RegionStat> regions,
      List<ServerStat> servers,
      int liveServers,
      Integer plannedServers,
      Simulation simulation,
      double seconds) {
    List<byte[]> keys = new ArrayList<>(samples.size());
    samples.forEach(s -> keys.add(s.key()));
    long[] hist = KeyStats.leadingByteHistogram(keys);
    int eighth = KeyStats.busiestEighth(hist);
    double eighthShare = KeyStats.busiestEighthShare(hist);
    double appends = KeyStats.appendFraction(samples);

    List<byte[]> starts = new ArrayList<>();
    List<String> serverOf = new ArrayList<>();
    for (RegionStat r : regions) {
      starts.add(dev.rekey.rowkey.Hex.parse(r.startKeyHex()));
      serverOf.add(r.server());
    }
    if (starts.isEmpty()) {
      starts.add(new byte[0]);
      serverOf.add("");
    }
    KeyStats.RecentWindow recent = KeyStats.recentWindow(samples);
    long[] recentPerRegion = KeyStats.rowsPerRegion(starts, recent.keys());
    int top = KeyStats.argMax(recentPerRegion);
    double topShare =
        recent.rows().isEmpty() ? 0 : (double) recentPerRegion[top] / recent.rows().size();

    List<ServerStat> withTails = servers;
    String tailReason = null;
    boolean tailsClustered = false;
    if (layout != null && layout.prefix().kind() == PrefixSpec.Kind.SALT) {
      int n = layout.prefix().buckets();
      Map<String, List<Integer>> tails = TailPlacement.tailsByServer(n, starts, serverOf);
      withTails = new ArrayList<>();
      for (ServerStat s : servers) {
        withTails.add(
            new ServerStat(
                s.server(),
                s.tableRegions(),
                s.tableReadRequests(),
                s.tableWriteRequests(),
                s.allRequests(),
                tails.getOrDefault(s.server(), List.of())));
      }
      int fair = TailPlacement.fairShare(n, servers.size());
      Map.Entry<String, List<Integer>> most =
          tails.entrySet().stream()
              .max((a, b) -> Integer.compare(a.getValue().size(), b.getValue().size()))
              .orElseThrow();
      tailsClustered = servers.size() > 1 && most.getValue().size() > fair;
      tailReason =
          String.format(
              Locale.ROOT,
              "salt bucket tails: %d buckets' last regions sit on %d of %d "
                  + "RegionServer(s); %s hosts %d (fair share %d)%s",
              n,
              tails.size(),
              Math.max(1, servers.size()),
              most.getKey().isEmpty() ? "an unknown server" : most.getKey(),
              most.getValue().size(),
              fair,
              tailsClustered ? ": rebalance (move regions) so the tails spread" : "");
    }
    double storeMb =
        regions.stream().mapToDouble(RegionStat::storeFileMb).sum()
            + regions.stream().mapToDouble(RegionStat::memStoreMb).sum();
    Verdict v =
        Advisor.advise(
            new Advisor.Inputs(
                layout,
                hist,
                samples.size(),
                appends,
                recent.label(),
                recent.rows().size(),
                top,
                topShare,
                starts.size(),
                KeyStats.nonEmpty(recentPerRegion),
                KeyStats.busiestEntity(layout, recent.keys()),
                eighthShare,
                eighth,
                servers,
                liveServers,
                plannedServers,
                storeMb));
    if (tailReason != null) {
      v = v.withReason(tailReason, tailsClustered);
    }
    int saltBuckets =
        layout != null && layout.prefix().kind() == PrefixSpec.Kind.SALT
            ? layout.prefix().buckets()
            : 0;
    return new AnalyzeResult(
        source,
        table,
        layout == null ? null : layout.name(),
        rowsRead,
        samples.size(),
        hist,
        eighth,
        eighthShare,
        saltBuckets,
        KeyStats.leadingByte(hist, layout == null ? null : layout.prefix()),
        appends,
        recent.label(),
        recent.rows().size(),
        top,
        topShare,
        KeyStats.nonEmpty(recentPerRegion),
        liveServers,
        regions,
        withTails,
        v,
        simulation,
        seconds,
        null,
        null);
  }
}
