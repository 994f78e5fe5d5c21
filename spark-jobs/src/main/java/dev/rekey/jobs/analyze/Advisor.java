package dev.rekey.jobs.analyze;

import dev.rekey.admin.plan.SplitPlanner;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdict and recommendation, from the figures (pure). Thresholds: a key is monotonic when at
 * least 90% of writes (in time order) append above every earlier key; writes are concentrated when
 * one region gets at least 80% of the recent rows, or one of several RegionServers gets at least
 * 80% of the table's write requests. Key shape follows the usual trade-offs: a salt when a growing
 * field leads (window scans stay N ranges), a 2-byte hash prefix when entity keys cluster, nothing
 * when writes already spread.
 */
public final class Advisor {
  public static final double MONOTONIC = 0.9;
  public static final double CONCENTRATED = 0.8;
  public static final double TARGET_REGION_GB = 6;
  public static final double GROWTH = 1.5;

  /** Salt bucket counts are often 8 to 64: the floor when only one live server is known. */
  public static final int MIN_BUCKETS_UNKNOWN_CLUSTER = 8;

  /**
   * The figures the advice is drawn from.
   *
   * @param layout the current layout, or null
   * @param plannedServers --servers, or null (then the live servers)
   * @param totalStoreMb the table's store file size (MB), for the volume-based region count
   */
  public record Inputs(
      KeyLayout layout,
      long[] histogram,
      double appendFraction,
      String recentLabel,
      long recentRows,
      int recentTopRegion,
      double recentTopShare,
      int regionCount,
      int recentRegionsHit,
      double busiestEighthShare,
      int busiestEighth,
      List<ServerStat> servers,
      int liveServers,
      Integer plannedServers,
      double totalStoreMb) {}

  /**
   * For entity-first keys (a hash prefix, or time after the entity): a day's window is not a key
   * range, so a nightly report skips store files instead of keys.
   */
  static final String DATE_TIERED =
      "nightly window reports: on an entity-first key a day is not a key range and a window scan"
          + " reads every key; create the family with date-tiered compaction (rekey create-table"
          + " --family NAME:compaction=date_tiered,window=P1D) so its files stay split by day and a"
          + " snapshot scan skips the files outside the window, and backfill it with --time-tiers"
          + " P1D so the loaded history is split by day too. It costs more store files per"
          + " region (writes block at 60 files, not 16), compactions only within a window, and"
          + " late writes for old days in small files of their own (docs/layouts.md#time-tiers)";

  private Advisor() {}

  public static Verdict advise(Inputs in) {
    List<String> reasons = new ArrayList<>();
    boolean monotonic = in.appendFraction() >= MONOTONIC;
    boolean recentConcentrated = in.recentRows() > 0 && in.recentTopShare() >= CONCENTRATED;
    if (monotonic) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "writes are monotonic in key order: %.1f%% of writes (in timestamp order) "
                  + "append above every earlier key, i.e. into the last region",
              100 * in.appendFraction()));
    } else {
      reasons.add(
          String.format(
              Locale.ROOT,
              "writes are not monotonic: only %.1f%% of writes (in timestamp order) "
                  + "append above every earlier key",
              100 * in.appendFraction()));
    }
    if (in.recentRows() > 0) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "%.0f%% of %s rows are in region %d of %d (%d region(s) got any)",
              100 * in.recentTopShare(),
              in.recentLabel(),
              in.recentTopRegion() + 1,
              in.regionCount(),
              in.recentRegionsHit()));
    }
    if (in.layout() != null && in.layout().prefix().kind() == PrefixSpec.Kind.SALT) {
      // the salt byte only takes 0..N-1 by design: what matters is how evenly the buckets fill
      int n = in.layout().prefix().buckets();
      long total = 0;
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int b = 0; b < n; b++) {
        total += in.histogram()[b];
        min = Math.min(min, in.histogram()[b]);
        max = Math.max(max, in.histogram()[b]);
      }
      if (total > 0) {
        reasons.add(
            String.format(
                Locale.ROOT,
                "salt buckets: the %d salt bytes 0x00-0x%02x hold between %.1f%% and "
                    + "%.1f%% of the rows each (%.2f%% is even)",
                n,
                n - 1,
                100.0 * min / total,
                100.0 * max / total,
                100.0 / n));
      }
    } else {
      reasons.add(
          String.format(
              Locale.ROOT,
              "leading byte: %.0f%% of rows in the busiest eighth of the key space "
                  + "(0x%02x-0x%02x; 12.5%% is even)",
              100 * in.busiestEighthShare(),
              in.busiestEighth() * 32,
              in.busiestEighth() * 32 + 31));
    }
    boolean serverHot = false;
    long totalWrites = in.servers().stream().mapToLong(ServerStat::tableWriteRequests).sum();
    if (totalWrites > 0) {
      ServerStat top =
          in.servers().stream()
              .max((a, b) -> Long.compare(a.tableWriteRequests(), b.tableWriteRequests()))
              .orElseThrow();
      double share = (double) top.tableWriteRequests() / totalWrites;
      int others = in.servers().size() - 1;
      if (in.servers().size() > 1) {
        serverHot = share >= CONCENTRATED;
        reasons.add(
            String.format(
                Locale.ROOT,
                "RegionServer %s takes %.0f%% of the table's write requests%s",
                top.server(),
                100 * share,
                serverHot ? "; the other " + others + " are nearly idle" : ""));
      } else {
        reasons.add(
            String.format(
                Locale.ROOT,
                "one live RegionServer (%s) takes all %,d write requests of the table",
                top.server(),
                top.tableWriteRequests()));
      }
    }
    boolean hotspot =
        recentConcentrated && (in.regionCount() == 1 || monotonic)
            || serverHot
            || (recentConcentrated && in.regionCount() > 1);

    int servers = in.plannedServers() != null ? in.plannedServers() : Math.max(1, in.liveServers());
    String serversNote =
        in.plannedServers() != null
            ? servers + " RegionServers (--servers)"
            : servers
                + " live RegionServer(s) (pass --servers for the cluster you expect in two years)";
    List<String> rec = new ArrayList<>();
    int byVolume = 1;
    if (in.totalStoreMb() >= 1024) {
      List<String> steps = new ArrayList<>();
      byVolume =
          SplitPlanner.regionsForVolume(in.totalStoreMb() / 1024, TARGET_REGION_GB, GROWTH, steps);
      rec.add("by volume (store files): " + steps.get(0));
    } else if (in.totalStoreMb() > 0) {
      rec.add(
          String.format(
              Locale.ROOT,
              "by volume: %.1f MB of store files, far below one %.0f GB region; the write "
                  + "tails decide the region count",
              in.totalStoreMb(),
              TARGET_REGION_GB));
    }
    String shape;
    int buckets = 0;
    int regions;
    boolean timeFirst =
        monotonic
            || (in.layout() != null
                && in.layout().timeLeads()
                && in.layout().prefix().kind() == PrefixSpec.Kind.NONE);
    boolean alreadySalted =
        in.layout() != null && in.layout().prefix().kind() == PrefixSpec.Kind.SALT;
    if (hotspot && timeFirst && !alreadySalted) {
      shape = "salt";
      buckets = SplitPlanner.bucketsFor(servers);
      if (in.plannedServers() == null && servers == 1) {
        // one live server says nothing about production; a 1-bucket salt is no salt
        buckets = MIN_BUCKETS_UNKNOWN_CLUSTER;
        serversNote =
            "1 live RegionServer says nothing about the cluster you will run, so the usual lower bound "
                + "of 8 salt buckets (pass --servers)";
      }
      regions = Math.max(buckets, byVolume);
      regions = (regions + buckets - 1) / buckets * buckets;
      rec.add(
          String.format(
              Locale.ROOT,
              "key shape: salt | %s — a salt byte floorMod(hash(natural key), N) gives N "
                  + "write tails and keeps a time window N range scans (salting, docs/layouts.md#prefix); if the hot path reads by entity instead, "
                  + "use a 2-byte hash prefix of the entity id (hash prefix, docs/layouts.md#prefix)",
              fieldsOf(in.layout())));
      rec.add(
          String.format(
              Locale.ROOT,
              "bucket count N = %d: %s, 1–2× rounded to a power of two, ≤ 256; fixed at "
                  + "table creation",
              buckets,
              serversNote));
      rec.add(
          String.format(
              Locale.ROOT,
              "regions: %d — pre-split on salt bytes 1..%d%s",
              regions,
              buckets - 1,
              regions > buckets ? " and within buckets (rekey plan --monthly)" : ""));
    } else if (hotspot) {
      shape = "hash_prefix";
      regions = Math.max(servers * SplitPlanner.REGIONS_PER_SERVER, byVolume);
      rec.add(
          "key shape: 2-byte MD5 hash prefix of the entity id in front of the natural key: 65,536 prefixes keep "
              + "splitting evenly as the table grows (docs/layouts.md#prefix)"
              + (alreadySalted
                  ? "; the salt alone does not spread "
                      + "these writes (check the tail placement below)"
                  : ""));
      rec.add(
          String.format(
              Locale.ROOT,
              "regions: %d — %s × %d regions each%s, UniformSplit-style prefix boundaries",
              regions,
              serversNote,
              SplitPlanner.REGIONS_PER_SERVER,
              byVolume > 1 ? " or the volume, whichever is more" : ""));
    } else {
      shape = "none";
      regions = Math.max(in.regionCount(), byVolume);
      rec.add(
          "key shape: keep it — writes already spread, and a hash or salt would only cost range scans (choose "
              + "neither salting nor a hash prefix when the key already spreads the load; docs/analyze-plan-check-config.md)");
      rec.add(
          String.format(
              Locale.ROOT,
              "regions: %d (current %d%s)",
              regions,
              in.regionCount(),
              byVolume > 1 ? ", or by volume" : ""));
    }
    boolean entityFirst =
        shape.equals("hash_prefix")
            || (!shape.equals("salt")
                && in.layout() != null
                && in.layout().timeField().isPresent()
                && !in.layout().timeLeads());
    if (entityFirst) {
      rec.add(DATE_TIERED);
    }
    if (!shape.equals("none")) {
      rec.add(
          "next: rekey plan --layout NEW.yaml --regions "
              + regions
              + " --out splits.txt, then simulate it here "
              + "with --layout2 NEW.yaml --splits splits.txt");
    }
    return new Verdict(hotspot, reasons, shape, buckets, regions, rec);
  }

  private static String fieldsOf(KeyLayout l) {
    if (l == null) {
      return "the current key";
    }
    StringBuilder sb = new StringBuilder();
    l.fields().forEach(f -> sb.append(sb.length() == 0 ? "" : " | ").append(f.name()));
    return sb.toString();
  }
}
