package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.RekeyException;
import java.util.ArrayList;
import java.util.List;

/**
 * One shard of a backfill ({@code --shard i/N}, plan layer, pure): the source snapshot's regions,
 * in key order, cut into N contiguous runs of about equal store-file bytes; shard i reads, writes
 * and loads only its run. Each shard is a backfill of its own — its staging dir ({@code
 * <staging>/shard-i-of-N}), ledger, lock, manifest, load record and verification — so a failed
 * shard reruns alone, and the repeat check refuses a shard loaded twice but not the other shards of
 * the same snapshot.
 *
 * <p>Shards cut the <em>source</em> regions, not the target's: with a key change every source
 * region feeds every target region, so a shard of target regions would read the whole snapshot once
 * per shard, while a shard of source regions reads its part once. Each shard still sorts its rows
 * per target region and writes sorted HFiles per target region (bulk-loaded files may overlap in
 * key range: they are store files like any flush), its manifest lists exactly its own files with
 * their cell counts, and its verification checks exactly those files ({@code --verify files}) or
 * the rows they hold ({@code --verify rows}): nothing another shard wrote is counted for it.
 *
 * @param index 1-based
 */
public record Shard(int index, int count) {
  public Shard {
    if (count < 1 || index < 1 || index > count) {
      throw RekeyException.usage(
          "Invalid --shard %d/%d: expected i/N with 1 ≤ i ≤ N (e.g. 2/4)", index, count);
    }
  }

  /** {@code i/N} as given to {@code --shard}. */
  public static Shard parse(String s) {
    if (s == null) {
      return null;
    }
    String[] p = s.trim().split("/");
    try {
      if (p.length == 2) {
        return new Shard(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw RekeyException.usage("Invalid --shard '%s': expected i/N, e.g. 2/4", s);
  }

  /** The staging subdir of this shard: {@code shard-i-of-N}. */
  public String folderName() {
    return "shard-" + index + "-of-" + count;
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }

  /**
   * The indexes (into {@code bytes}, the source regions in key order) of this shard's regions: the
   * regions cut into {@link #count} contiguous runs, each about the same bytes (a region of no
   * bytes weighs 1), none empty. Refused when the snapshot has fewer regions than shards.
   */
  public List<Integer> regions(List<Long> bytes, String snapshot) {
    if (bytes.size() < count) {
      throw RekeyException.usage(
          "Cannot backfill shard %s of snapshot %s: it has %d region(s), fewer than %d shards"
              + " (give --shard i/N with N ≤ %d)",
          this, snapshot, bytes.size(), count, bytes.size());
    }
    return cut(bytes, count).get(index - 1);
  }

  /** The contiguous runs (greedy on cumulative weight, each run at least one region). */
  static List<List<Integer>> cut(List<Long> bytes, int n) {
    long total = 0;
    for (long b : bytes) {
      total += Math.max(1, b);
    }
    List<List<Integer>> runs = new ArrayList<>();
    List<Integer> run = new ArrayList<>();
    long cumulative = 0;
    for (int i = 0; i < bytes.size(); i++) {
      run.add(i);
      cumulative += Math.max(1, bytes.get(i));
      int left = bytes.size() - i - 1; // regions after this one
      int runsLeft = n - runs.size() - 1; // runs after this one
      boolean reached = cumulative * n >= total * (runs.size() + 1);
      if (runsLeft > 0 && (reached || left == runsLeft)) {
        runs.add(run);
        run = new ArrayList<>();
      }
    }
    runs.add(run);
    return runs;
  }
}
