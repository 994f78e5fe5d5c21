package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.Versions;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.read.KeyOrderRuns;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a backfill will do, decided before any row is read (plan layer, pure): the write path and
 * why ({@link WritePath}'s rule), how the snapshot is read, per target region the source regions
 * that feed it and the HFiles expected, and per target family the versions copied and the TTL
 * cut-off. {@link #of} builds it from plain values, so unit tests check it without a cluster; the
 * dry run prints {@link #lines()}, and {@link Backfill} executes it.
 */
public record BackfillPlan(
    WritePath path,
    int splitsPerSourceRegion,
    int minReadTasks,
    int readVersions,
    List<SourceRegion> sourceRegions,
    List<TargetRegion> regions,
    List<FamilyPlan> families,
    TimeTiers tiers) {

  /** A region of the source snapshot: its key range (end empty = last) and store files' size. */
  public record SourceRegion(byte[] start, byte[] end, long bytes) {}

  /** A family of the target table as its descriptor sets it. */
  public record TargetFamily(String name, int maxVersions, long ttlSeconds) {
    /** HBase's "forever" TTL ({@code HConstants.FOREVER}). */
    public static final long FOREVER = Integer.MAX_VALUE;
  }

  /**
   * One target region: the source regions whose rows can land in it (all of them unless the two
   * layouts give identical keys), an estimate of its bytes (each feeding source region spread
   * evenly over the regions it feeds) and the most HFiles the write may give it, over all families.
   */
  public record TargetRegion(
      int index,
      String name,
      String startHex,
      String endHex,
      List<Integer> fedBy,
      long estimatedBytes,
      int maxFiles) {}

  /**
   * A target family's retention decisions: versions copied per column ({@code --versions} capped at
   * the family's VERSIONS) and, for a family with a TTL, the time before which a cell would expire
   * on load (epoch millis; {@code Long.MIN_VALUE} for none).
   */
  public record FamilyPlan(
      String name, int keeps, int copies, long ttlSeconds, long expiresBefore) {
    String line(Versions asked) {
      String v =
          copies < asked.max()
              ? String.format(
                  "copies the %d newest version(s) of each column (keeps VERSIONS=%d; older ones are"
                      + " counted, not written)",
                  copies, keeps)
              : String.format(
                  "copies %s version(s) of each column (keeps VERSIONS=%d)", asked, keeps);
      String ttl =
          expiresBefore == Long.MIN_VALUE
              ? "no TTL"
              : "TTL " + ttlSeconds + " s: a cell older than that fails the write";
      return "family " + name + ": " + v + "; " + ttl;
    }
  }

  /** Everything the plan depends on, as plain values. */
  public record Inputs(
      KeyLayout sourceLayout,
      KeyLayout targetLayout,
      RegionBoundaries target,
      List<SourceRegion> source,
      List<TargetFamily> targetFamilies,
      List<String> familiesAsked,
      Versions versions,
      int splitsPerRegion,
      boolean sortAlways,
      int wantedReadTasks,
      int maxFilesPerRegion,
      long maxFileSize,
      long nowMillis,
      Tiers tiers) {}

  /**
   * What {@code --time-tiers} asked for, resolved: the tier width ({@code null} without tiers), how
   * it was asked, the source's cells' time span [min, max] and the most HFiles a region may get per
   * family (the bulk-load limit and the families' write-blocking file count, whichever is lower).
   */
  public record Tiers(
      java.time.Duration width, String asked, long min, long max, int limit, String limitName) {
    public static final Tiers NONE = new Tiers(null, "", 0, -1, 0, "");
  }

  public BackfillPlan {
    sourceRegions = List.copyOf(sourceRegions);
    regions = List.copyOf(regions);
    families = List.copyOf(families);
  }

  /**
   * The write path: the in-order one only where the files per region the time tiers leave allow its
   * write tasks, else the sorted one with the reason.
   */
  private static WritePath path(Inputs in, long tiersWanted, int pathLimit) {
    Tiers asked = in.tiers();
    WritePath path =
        in.sortAlways()
            ? WritePath.sorted("--write-path sort")
            : WritePath.choose(
                in.sourceLayout(),
                in.targetLayout(),
                in.target(),
                in.source().size(),
                in.wantedReadTasks(),
                pathLimit);
    if (!path.inSourceOrder()
        && pathLimit < in.maxFilesPerRegion()
        && !in.sortAlways()
        && WritePath.orderMismatch(in.sourceLayout(), in.targetLayout()).isEmpty()) {
      path =
          WritePath.sorted(
              String.format(
                  "%s asks for %d time tiers, which leave %d HFile(s) per tier and region within"
                      + " the limit of %d (%s): too few for the in-order write tasks",
                  asked.asked(),
                  tiersWanted,
                  pathLimit,
                  Math.min(in.maxFilesPerRegion(), asked.limit()),
                  in.maxFilesPerRegion() < asked.limit()
                      ? WritePath.MAX_FILES_PER_REGION_KEY
                      : asked.limitName()));
    }
    return path;
  }

  public static BackfillPlan of(Inputs in) {
    Tiers asked = in.tiers();
    // the tiers asked for come first: the in-order path may only use the files per region that
    // leaves each tier (else the sorted path, whose files per tier are its sub-partitions)
    long tiersWanted =
        asked.width() == null || asked.max() < asked.min()
            ? 1
            : TimeTiers.tiersOver(asked.width().toMillis(), asked.min(), asked.max());
    int pathLimit =
        tiersWanted <= 1
            ? in.maxFilesPerRegion()
            : (int) Math.max(1, Math.min(in.maxFilesPerRegion(), asked.limit()) / tiersWanted);
    WritePath path = path(in, tiersWanted, pathLimit);
    int k = path.inSourceOrder() ? path.splitsPerSourceRegion() : in.splitsPerRegion();
    // the sorted path reads with at least two tasks per core: a legacy source is often a few
    // large regions
    int minTasks = path.inSourceOrder() ? 0 : in.wantedReadTasks();
    boolean sameKeys =
        in.targetLayout().prefix().kind() == PrefixSpec.Kind.NONE
            && WritePath.orderMismatch(in.sourceLayout(), in.targetLayout()).isEmpty();
    int buckets =
        in.targetLayout().prefix().kind() == PrefixSpec.Kind.SALT
            ? in.targetLayout().prefix().buckets()
            : 1;
    List<FamilyPlan> families = families(in);
    int familyCount = in.familiesAsked().isEmpty() ? families.size() : in.familiesAsked().size();

    RegionBoundaries t = in.target();
    List<List<Integer>> fedBy = new ArrayList<>();
    int[] feeds = new int[in.source().size()];
    for (int r = 0; r < t.count(); r++) {
      List<Integer> f = new ArrayList<>();
      for (int s = 0; s < in.source().size(); s++) {
        if (!sameKeys || overlaps(in.source().get(s), t.start(r), t.end(r))) {
          f.add(s);
          feeds[s]++;
        }
      }
      fedBy.add(f);
    }
    long[] writersPer = new long[t.count()];
    int filesPerTier = 1;
    for (int r = 0; r < t.count(); r++) {
      // per family: in source order one file per (read task, bucket) the region holds; sorted,
      // one per sub-partition; either rolls at the max file size
      int bucketsHere = buckets > 1 ? SaltFit.bucketsIn(t, r, buckets) : 1;
      writersPer[r] =
          path.inSourceOrder()
              ? (long) tasksFeeding(fedBy.get(r), k, in.source().size(), path.writeTasks())
                  * bucketsHere
              : k;
      filesPerTier = (int) Math.max(filesPerTier, writersPer[r]);
    }
    TimeTiers tiers = tiers(in, filesPerTier);
    List<TargetRegion> regions = new ArrayList<>();
    for (int r = 0; r < t.count(); r++) {
      long bytes = 0;
      for (int s : fedBy.get(r)) {
        bytes += in.source().get(s).bytes() / feeds[s];
      }
      long writers = writersPer[r] * tiers.count();
      long rolled = in.maxFileSize() > 0 ? bytes / in.maxFileSize() : 0;
      int files = fedBy.get(r).isEmpty() ? 0 : (int) (familyCount * writers + rolled);
      regions.add(
          new TargetRegion(
              r, t.name(r), Hex.of(t.start(r)), Hex.of(t.end(r)), fedBy.get(r), bytes, files));
    }
    int most = families.stream().mapToInt(FamilyPlan::copies).max().orElse(1);
    // read what was asked for, so the versions a family cannot keep are counted, not silently
    // skipped by the scan
    int readVersions =
        in.versions().isAll() ? Integer.MAX_VALUE : Math.max(most, in.versions().max());
    return new BackfillPlan(path, k, minTasks, readVersions, in.source(), regions, families, tiers);
  }

  /** The time tiers asked for, coarsened to fit the files per region HBase takes. */
  private static TimeTiers tiers(Inputs in, int filesPerTier) {
    Tiers asked = in.tiers();
    return asked.width() == null
        ? TimeTiers.NONE
        : TimeTiers.choose(
            asked.width(),
            asked.asked(),
            asked.min(),
            asked.max(),
            filesPerTier,
            Math.min(in.maxFilesPerRegion(), asked.limit()),
            in.maxFilesPerRegion() < asked.limit()
                ? WritePath.MAX_FILES_PER_REGION_KEY + "=" + in.maxFilesPerRegion()
                : asked.limitName());
  }

  /**
   * The in-order write tasks that read one of {@code sources} (each cut into {@code k} splits; the
   * tasks read runs of consecutive splits).
   */
  static int tasksFeeding(List<Integer> sources, int k, int sourceCount, int tasks) {
    java.util.Set<Integer> runs = new java.util.HashSet<>();
    for (int s : sources) {
      for (int j = 0; j < k; j++) {
        runs.add(KeyOrderRuns.runOf(s * k + j, sourceCount * k, tasks));
      }
    }
    return runs.size();
  }

  private static List<FamilyPlan> families(Inputs in) {
    List<FamilyPlan> out = new ArrayList<>();
    for (TargetFamily f : in.targetFamilies()) {
      boolean ttl = f.ttlSeconds() != TargetFamily.FOREVER;
      out.add(
          new FamilyPlan(
              f.name(),
              f.maxVersions(),
              in.versions().capAt(f.maxVersions()),
              f.ttlSeconds(),
              ttl ? in.nowMillis() - f.ttlSeconds() * 1000L : Long.MIN_VALUE));
    }
    return out;
  }

  private static boolean overlaps(SourceRegion s, byte[] start, byte[] end) {
    // [s.start, s.end) and [start, end), an empty end being the key space's end
    boolean sBeforeEnd = end.length == 0 || Arrays.compareUnsigned(s.start(), end) < 0;
    boolean startBeforeSEnd = s.end().length == 0 || Arrays.compareUnsigned(start, s.end()) < 0;
    return sBeforeEnd && startBeforeSEnd;
  }

  /** What the write applies to each row: versions per family and TTL cut-offs. */
  public Retention retention() {
    Map<String, Integer> caps = new TreeMap<>();
    Map<String, Long> expiresBefore = new TreeMap<>();
    for (FamilyPlan f : families) {
      caps.put(f.name(), f.copies());
      if (f.expiresBefore() != Long.MIN_VALUE) {
        expiresBefore.put(f.name(), f.expiresBefore());
      }
    }
    return new Retention(caps, expiresBefore, readVersions);
  }

  /** Files expected over all regions (an upper bound on the in-source-order path). */
  public int maxFiles() {
    return regions.stream().mapToInt(TargetRegion::maxFiles).sum();
  }

  /** The plan as a short table and its reasons, as the dry run and the run print it. */
  public List<String> lines(Versions asked) {
    List<String> out = new ArrayList<>();
    out.add("Plan: " + path.describe());
    long total = sourceRegions.stream().mapToLong(SourceRegion::bytes).sum();
    out.add(
        String.format(
            "  read: %d source region(s), %,d bytes of store files, %d split(s) per region%s",
            sourceRegions.size(),
            total,
            splitsPerSourceRegion,
            minReadTasks > 0 ? ", at least " + minReadTasks + " read tasks" : ""));
    for (FamilyPlan f : families) {
      out.add("  " + f.line(asked));
    }
    if (!tiers.reason().isEmpty()) {
      out.add("  time tiers: " + tiers.describe() + "; " + tiers.reason());
    }
    out.add(
        String.format(
            "  %-6s %-34s %-14s %14s %9s",
            "region", "start key (hex)", "fed by", "est. bytes", "files ≤"));
    for (TargetRegion r : regions) {
      out.add(
          String.format(
              "  %-6d %-34s %-14s %,14d %9d",
              r.index(),
              r.startHex().isEmpty() ? "(first)" : r.startHex(),
              fedBy(r.fedBy(), sourceRegions.size()),
              r.estimatedBytes(),
              r.maxFiles()));
    }
    return out;
  }

  /** "all 4", "none", or the source regions' indexes ("0,1", "3-6"). */
  static String fedBy(List<Integer> f, int sources) {
    if (f.isEmpty()) {
      return "none";
    }
    if (f.size() == sources && sources > 1) {
      return "all " + sources;
    }
    if (f.size() > 2 && f.get(f.size() - 1) - f.get(0) == f.size() - 1) {
      return f.get(0) + "-" + f.get(f.size() - 1);
    }
    return String.join(",", f.stream().map(String::valueOf).toList());
  }
}
