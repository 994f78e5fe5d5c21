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
 * field leads (window scans stay N ranges), a 2-byte hash prefix when entity keys cluster, a salt
 * over the whole natural key when one entity has the writes, nothing when writes already spread.
 *
 * <p>A figure counts only when it is more than chance (docs/analyze-plan-check-config.md#verdict):
 * rows are judged only when at least {@link #MIN_ROWS} were sampled (the whole sample for the
 * appends, the recent window for the regions), and a share counts as concentrated only when an even
 * spread over the regions (or salt buckets, or eighths of the byte space) would give it with odds
 * below {@link #ALPHA} ({@link KeyStats#chanceOfBusiest}). One recent row in region 3 of 16 is 100%
 * of the recent rows and says nothing: an even spread puts one row in one region every time. With
 * too few rows the verdict says so rather than guess; one live RegionServer says nothing about the
 * spread across servers; and a salted or hash-prefixed key whose rows fill its prefix evenly is
 * never told to move to another key.
 */
public final class Advisor {
  public static final double MONOTONIC = 0.9;
  public static final double CONCENTRATED = 0.8;
  public static final double TARGET_REGION_GB = 6;
  public static final double GROWTH = 1.5;

  /**
   * Rows needed before a share is judged (the sample for the appends, the recent window for the
   * regions): with fewer, a few rows landing together is the usual outcome of chance, and 30 is the
   * common floor below which a share's sampling error is too large to act on (at 30 rows an 80%
   * share is within about ±15 points).
   */
  public static final int MIN_ROWS = 30;

  /**
   * The odds below which a busiest region's (bucket's, eighth's) share is more than chance: 1 in
   * 1,000, since a hotspot verdict sends a team into a rekey.
   */
  public static final double ALPHA = 0.001;

  /**
   * A prefix spreads the rows evenly unless its busiest salt bucket (or eighth of the hash prefix's
   * byte space) holds more than 1.5× its even share, beyond chance.
   */
  public static final double EVEN_TOLERANCE = 1.5;

  /** Salt bucket counts are often 8 to 64: the floor when only one live server is known. */
  public static final int MIN_BUCKETS_UNKNOWN_CLUSTER = 8;

  /**
   * The figures the advice is drawn from.
   *
   * @param layout the current layout, or null
   * @param sampledRows the rows in the sample (the appends are judged on them)
   * @param recentTopEntity the entity with the most recent rows (fields other than time), or null
   *     without a layout
   * @param plannedServers --servers, or null (then the live servers)
   * @param totalStoreMb the table's store file size (MB), for the volume-based region count
   */
  public record Inputs(
      KeyLayout layout,
      long[] histogram,
      long sampledRows,
      double appendFraction,
      String recentLabel,
      long recentRows,
      int recentTopRegion,
      double recentTopShare,
      int regionCount,
      int recentRegionsHit,
      KeyStats.Entity recentTopEntity,
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
    boolean enoughSample = in.sampledRows() >= MIN_ROWS;
    boolean monotonic = enoughSample && in.appendFraction() >= MONOTONIC;
    reasons.add(appendsReason(in, enoughSample, monotonic));

    boolean oneRegion = in.regionCount() <= 1;
    boolean enoughRecent = in.recentRows() >= MIN_ROWS;
    long recentTop = Math.round(in.recentTopShare() * in.recentRows());
    double chance = KeyStats.chanceOfBusiest(in.recentRows(), recentTop, in.regionCount());
    boolean recentConcentrated =
        !oneRegion && enoughRecent && in.recentTopShare() >= CONCENTRATED && chance < ALPHA;
    if (oneRegion) {
      reasons.add(
          "the table has one region, so every write lands in it: how writes spread over regions"
              + " cannot be judged until it is split");
    } else if (in.recentRows() > 0) {
      reasons.add(recentReason(in, enoughRecent, recentConcentrated, chance));
    }

    KeyStats.Entity entity = in.recentTopEntity();
    boolean hotEntity =
        enoughRecent && entity != null && (double) entity.rows() / in.recentRows() >= CONCENTRATED;
    if (hotEntity) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "one entity has %.0f%% of %s rows: %s",
              100.0 * entity.rows() / in.recentRows(),
              in.recentLabel(),
              entity.label()));
    }

    PrefixFill fill = prefixFill(in);
    if (fill.sentence() != null) {
      reasons.add(fill.sentence());
    }
    boolean prefixSpreads = fill.even();

    boolean serverHot = serverReason(in, reasons);

    boolean hotspot = monotonic || recentConcentrated || serverHot;
    Verdict.Outcome outcome;
    String headline;
    if (hotspot) {
      outcome = Verdict.Outcome.HOTSPOT;
      headline = "HOTSPOT";
    } else if (!enoughSample) {
      outcome = Verdict.Outcome.CANNOT_JUDGE;
      headline =
          String.format(
              Locale.ROOT,
              "not enough sampled rows to judge: %,d sampled, need %d",
              in.sampledRows(),
              MIN_ROWS);
    } else if (!oneRegion && !enoughRecent) {
      outcome = Verdict.Outcome.CANNOT_JUDGE;
      headline =
          String.format(
              Locale.ROOT,
              "not enough recent rows to judge: %,d sampled, need %d",
              in.recentRows(),
              MIN_ROWS);
    } else {
      outcome = Verdict.Outcome.NO_HOTSPOT;
      headline = "no hotspot";
    }

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
    PrefixSpec.Kind kind = in.layout() == null ? null : in.layout().prefix().kind();
    boolean alreadySalted = kind == PrefixSpec.Kind.SALT;
    boolean alreadyHashed = kind == PrefixSpec.Kind.HASH_PREFIX;
    boolean timeFirst =
        monotonic
            || (in.layout() != null && in.layout().timeLeads() && kind == PrefixSpec.Kind.NONE);
    // one shape, decided in this order: a prefix that fills evenly is kept whatever else holds
    // (another key would spread these writes no better); one entity's writes need a salt over the
    // whole natural key (no key led by the entity, or a hash of it, spreads one entity); a growing
    // field leading gets a salt; a hash prefix that clusters is kept (a new hash of the same
    // entity would cluster the same); anything else gets a hash prefix
    String shape;
    boolean entitySalt = false;
    if (!hotspot) {
      shape = "none";
    } else if (prefixSpreads) {
      shape = "none";
    } else if (hotEntity && recentConcentrated) {
      shape = "salt";
      entitySalt = true;
    } else if (timeFirst && !alreadySalted && !alreadyHashed) {
      shape = "salt";
    } else if (alreadyHashed) {
      shape = "none";
    } else {
      shape = "hash_prefix";
    }
    int buckets = 0;
    int regions;
    if (shape.equals("salt")) {
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
      if (entitySalt) {
        rec.add(
            String.format(
                Locale.ROOT,
                "key shape: salt | %s with the salt over the whole natural key (floorMod(hash(%s),"
                    + " N), no prefix fields, as telemetry-v2) — one entity's rows then spread over"
                    + " N buckets, which no key led by the entity or by a hash of it can do; reading"
                    + " one entity's history becomes N range scans (salting, docs/layouts.md#prefix)",
                fieldsOf(in.layout()),
                String.join(", ", in.layout().fieldNames())));
      } else {
        rec.add(
            String.format(
                Locale.ROOT,
                "key shape: salt | %s — a salt byte floorMod(hash(natural key), N) gives N "
                    + "write tails and keeps a time window N range scans (salting, docs/layouts.md#prefix); if the hot path reads by entity instead, "
                    + "use a 2-byte hash prefix of the entity id (hash prefix, docs/layouts.md#prefix)",
                fieldsOf(in.layout())));
      }
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
    } else if (shape.equals("hash_prefix")) {
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
      regions = Math.max(in.regionCount(), byVolume);
      rec.add(keepReason(outcome, hotspot, prefixSpreads, alreadyHashed, hotEntity, in));
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
            || ((!shape.equals("salt") || entitySalt)
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
    return new Verdict(outcome, headline, reasons, shape, buckets, regions, rec);
  }

  /** Why the key stays as it is: the first sentence of a "none" recommendation. */
  private static String keepReason(
      Verdict.Outcome outcome,
      boolean hotspot,
      boolean prefixSpreads,
      boolean alreadyHashed,
      boolean hotEntity,
      Inputs in) {
    String prefix = prefixName(in.layout());
    if (hotspot && prefixSpreads) {
      return "key shape: keep it — its "
          + prefix
          + " spreads the rows evenly, so another key would spread these writes no better; the"
          + " concentration is in the regions: split the busy region or move regions off the busy"
          + " RegionServer (the balancer; for a salt, where its bucket tails sit)"
          + (hotEntity
              ? "; one entity's burst of writes lands in one region whatever its prefix, and"
                  + " passes when the burst does"
              : "");
    }
    if (hotspot && alreadyHashed) {
      return "key shape: keep the hash prefix — a new hash of the same entity would cluster the"
          + " same way: the rows sit on a few entities, and one entity's rows share its prefix;"
          + " split the busy regions at those entities' prefixes";
    }
    if (prefixSpreads) {
      return "key shape: keep it — its "
          + prefix
          + " spreads the rows evenly, and a new key would only cost a rekey"
          + (outcome == Verdict.Outcome.CANNOT_JUDGE
              ? "; to judge where recent writes land, analyze a window with more rows (--from/--to)"
                  + " or a larger --sample"
              : "");
    }
    if (outcome == Verdict.Outcome.CANNOT_JUDGE) {
      return "key shape: no change can be argued from this sample: analyze a window with more rows"
          + " (--from/--to) or a larger --sample";
    }
    return "key shape: keep it — writes already spread, and a hash or salt would only cost range scans (choose "
        + "neither salting nor a hash prefix when the key already spreads the load; docs/analyze-plan-check-config.md)";
  }

  private static String prefixName(KeyLayout l) {
    if (l == null) {
      return "key";
    }
    return l.prefix().kind() == PrefixSpec.Kind.SALT
        ? "salt (" + l.prefix().buckets() + " buckets)"
        : "hash prefix";
  }

  /** The appends sentence: monotonic, not, or too few rows to say. */
  private static String appendsReason(Inputs in, boolean enoughSample, boolean monotonic) {
    if (!enoughSample) {
      return String.format(
          Locale.ROOT,
          "write order: only %d row(s) sampled, too few to tell monotonic writes from chance"
              + " (need %d)",
          in.sampledRows(),
          MIN_ROWS);
    }
    if (monotonic) {
      return String.format(
          Locale.ROOT,
          "writes are monotonic in key order: %.1f%% of writes (in timestamp order) "
              + "append above every earlier key, i.e. into the last region",
          100 * in.appendFraction());
    }
    return String.format(
        Locale.ROOT,
        "writes are not monotonic: only %.1f%% of writes (in timestamp order) "
            + "append above every earlier key",
        100 * in.appendFraction());
  }

  /** The recent rows' busiest region, judged against chance. */
  private static String recentReason(
      Inputs in, boolean enoughRecent, boolean concentrated, double chance) {
    String figure =
        String.format(
            Locale.ROOT,
            "%.0f%% of %s rows are in region %d of %d (%d region(s) got any)",
            100 * in.recentTopShare(),
            in.recentLabel(),
            in.recentTopRegion() + 1,
            in.regionCount(),
            in.recentRegionsHit());
    if (!enoughRecent) {
      return String.format(
          Locale.ROOT,
          "%s, judged on %d sampled row(s): too few to tell from chance (need %d)",
          figure,
          in.recentRows(),
          MIN_ROWS);
    }
    if (concentrated) {
      return String.format(
          Locale.ROOT,
          "%s, of %,d sampled: an even spread over %d regions would do that with odds %s",
          figure,
          in.recentRows(),
          in.regionCount(),
          odds(chance));
    }
    if (in.recentTopShare() >= CONCENTRATED) {
      return String.format(
          Locale.ROOT,
          "%s, of %,d sampled: no more than chance (an even spread would do that with odds %s,"
              + " need below %s)",
          figure,
          in.recentRows(),
          odds(chance),
          odds(ALPHA));
    }
    return String.format(Locale.ROOT, "%s, of %,d sampled", figure, in.recentRows());
  }

  /** "1 in 1,000", "below 1 in a billion". */
  static String odds(double p) {
    if (p >= 1) {
      return "1 in 1";
    }
    if (p < 1e-9) {
      return "below 1 in a billion";
    }
    return String.format(Locale.ROOT, "1 in %,.0f", 1 / p);
  }

  /**
   * Whether the layout's prefix fills evenly, and its sentence.
   *
   * @param even true when a salt or hash prefix filled evenly on at least {@link #MIN_ROWS} rows
   */
  record PrefixFill(boolean even, String sentence) {}

  /**
   * A salt is judged by its N buckets (the salt byte only takes 0..N-1 by design), a hash prefix or
   * no prefix by the eighths of the leading byte's space; a prefix fills evenly unless its busiest
   * bucket (eighth) holds more than {@link #EVEN_TOLERANCE} × its even share, beyond chance.
   */
  static PrefixFill prefixFill(Inputs in) {
    long[] h = in.histogram();
    PrefixSpec.Kind kind = in.layout() == null ? null : in.layout().prefix().kind();
    if (kind == PrefixSpec.Kind.SALT) {
      int n = in.layout().prefix().buckets();
      long total = 0;
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int b = 0; b < n; b++) {
        total += h[b];
        min = Math.min(min, h[b]);
        max = Math.max(max, h[b]);
      }
      if (total == 0) {
        return new PrefixFill(false, null);
      }
      String judged = evenness(total, max, n, "salt bucket");
      return new PrefixFill(
          judged.startsWith(": even"),
          String.format(
              Locale.ROOT,
              "salt buckets: the %d salt bytes 0x00-0x%02x hold between %.1f%% and "
                  + "%.1f%% of the rows each (%.2f%% is even)%s",
              n,
              n - 1,
              100.0 * min / total,
              100.0 * max / total,
              100.0 / n,
              judged));
    }
    long total = 0;
    for (long c : h) {
      total += c;
    }
    String judged =
        kind == PrefixSpec.Kind.HASH_PREFIX
            ? evenness(total, Math.round(in.busiestEighthShare() * total), 8, "eighth")
            : "";
    return new PrefixFill(
        judged.startsWith(": even"),
        String.format(
            Locale.ROOT,
            "leading byte: %.0f%% of rows in the busiest eighth of the key space "
                + "(0x%02x-0x%02x; 12.5%% is even)%s",
            100 * in.busiestEighthShare(),
            in.busiestEighth() * 32,
            in.busiestEighth() * 32 + 31,
            judged));
  }

  /** ": even", ": uneven ..." or ": too few rows ..." for the busiest of n bins. */
  private static String evenness(long total, long busiest, int n, String bin) {
    if (total < MIN_ROWS) {
      return String.format(
          Locale.ROOT, ": too few rows to judge the spread (%d, need %d)", total, MIN_ROWS);
    }
    double share = (double) busiest / total;
    double chance = KeyStats.chanceOfBusiest(total, busiest, n);
    if (share > EVEN_TOLERANCE / n && chance < ALPHA) {
      return String.format(
          Locale.ROOT,
          ": uneven, the busiest %s holds over %.1f× its even share, beyond chance",
          bin,
          EVEN_TOLERANCE);
    }
    return ": even, the prefix spreads the rows";
  }

  /**
   * The RegionServers' sentence; true when one of several takes {@link #CONCENTRATED} of the
   * table's write requests. One live server says nothing about the spread across servers.
   */
  private static boolean serverReason(Inputs in, List<String> reasons) {
    if (in.servers().size() == 1 || (in.servers().isEmpty() && in.liveServers() == 1)) {
      reasons.add(
          "one live RegionServer: write spread across servers cannot be judged (it hosts every"
              + " region, whatever the key)");
      return false;
    }
    long totalWrites = in.servers().stream().mapToLong(ServerStat::tableWriteRequests).sum();
    if (totalWrites == 0) {
      return false;
    }
    ServerStat top =
        in.servers().stream()
            .max((a, b) -> Long.compare(a.tableWriteRequests(), b.tableWriteRequests()))
            .orElseThrow();
    double share = (double) top.tableWriteRequests() / totalWrites;
    boolean hot = share >= CONCENTRATED;
    reasons.add(
        String.format(
            Locale.ROOT,
            "RegionServer %s takes %.0f%% of the table's write requests%s",
            top.server(),
            100 * share,
            hot ? "; the other " + (in.servers().size() - 1) + " are nearly idle" : ""));
    return hot;
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
