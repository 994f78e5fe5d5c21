package dev.rekey.jobs.reconcile;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The immutable outcome of a reconcile run: per-bucket verdicts (every bucket of [from, to), empty
 * ones included), drill-downs of the mismatched buckets, what each side read, and timings.
 *
 * @param rangeFromData true when [from, to) was taken from the data (no --from/--to given)
 */
public record ReconcileResult(
    SideSummary old,
    SideSummary neu,
    long from,
    long to,
    long bucketMillis,
    boolean rangeFromData,
    String time,
    boolean digest,
    List<TimeBucketComparison> buckets,
    Map<Integer, TimeBucketDrill> drills,
    double seconds)
    implements JobResult, Serializable {

  public ReconcileResult {
    buckets = List.copyOf(buckets);
    drills = Map.copyOf(drills);
  }

  public long mismatchedBuckets() {
    return buckets.stream().filter(b -> !b.matches()).count();
  }

  public long emptyBuckets() {
    return buckets.stream().filter(TimeBucketComparison::empty).count();
  }

  public boolean matches() {
    return mismatchedBuckets() == 0;
  }

  /** 0 when every bucket matches, 3 on any mismatch. */
  @Override
  public int exitCode() {
    return matches() ? ExitCodes.OK : ExitCodes.MISMATCH;
  }

  public TimeBucketComparison bucket(int index) {
    return buckets.get(index);
  }

  /** The drill-down of a mismatched bucket, or null. */
  public TimeBucketDrill drill(int index) {
    return drills.get(index);
  }

  /** The console report, runs of matching buckets folded into one line each. */
  @Override
  public String console() {
    return console(false);
  }

  /** The console report; {@code allBuckets} lists every bucket on its own line. */
  public String console(boolean allBuckets) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ReconcileReport.print(this, new PrintStream(bytes, true, StandardCharsets.UTF_8), allBuckets);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** reconcile.json. */
  @Override
  public String toJson() {
    return Json.pretty(ReconcileReport.json(this));
  }
}
