package dev.rekey.campaign;

import java.util.ArrayList;
import java.util.List;

/**
 * One step of a table's campaign (plan layer, pure), and the steps in the order they run: {@code
 * create-table T} per target → {@code snapshot} → {@code backfill} (or {@code backfill i/N} per
 * shard: one read feeds every target) → per target {@code reconcile T}, and where it differs and
 * the plan repairs, {@code repair T} and {@code reconcile-again T}.
 *
 * @param target the new table (null for snapshot and backfill)
 * @param shard {@code i/N}, or null
 */
public record StepKey(Kind kind, String target, String shard) {
  public enum Kind {
    CREATE_TABLE("create-table"),
    SNAPSHOT("snapshot"),
    BACKFILL("backfill"),
    RECONCILE("reconcile"),
    REPAIR("repair"),
    RECONCILE_AGAIN("reconcile-again");

    public final String word;

    Kind(String word) {
      this.word = word;
    }
  }

  /** The key in the state file: {@code backfill 2/3}, {@code reconcile telemetry_v2}. */
  public String id() {
    return kind.word + (shard != null ? " " + shard : "") + (target != null ? " " + target : "");
  }

  public static StepKey of(Kind k) {
    return new StepKey(k, null, null);
  }

  public static StepKey of(Kind k, String target) {
    return new StepKey(k, target, null);
  }

  /** The backfill's steps: one, or one per shard. */
  public static List<StepKey> backfill(int shards) {
    List<StepKey> out = new ArrayList<>();
    if (shards <= 1) {
      out.add(of(Kind.BACKFILL));
    } else {
      for (int i = 1; i <= shards; i++) {
        out.add(new StepKey(Kind.BACKFILL, null, i + "/" + shards));
      }
    }
    return out;
  }

  /** The steps that always run, in order (repair and reconcile-again only after a difference). */
  public static List<StepKey> planned(CampaignPlan.TablePlan t, int shards) {
    List<StepKey> out = new ArrayList<>();
    t.targets().forEach(x -> out.add(of(Kind.CREATE_TABLE, x.table())));
    out.add(of(Kind.SNAPSHOT));
    out.addAll(backfill(shards));
    t.targets().forEach(x -> out.add(of(Kind.RECONCILE, x.table())));
    return out;
  }

  /**
   * How many shards a backfill of {@code bytes} of store files in {@code regions} regions is cut
   * into: the plan's own {@code shards:} if given, else one per {@code shardAbove} bytes once the
   * source is above it; never more than its regions.
   */
  public static int shards(Integer asked, long shardAbove, long bytes, int regions) {
    long n;
    if (asked != null) {
      n = asked;
    } else if (bytes > shardAbove) {
      n = (bytes + shardAbove - 1) / shardAbove;
    } else {
      n = 1;
    }
    return (int) Math.max(1, Math.min(n, Math.max(1, regions)));
  }
}
