package dev.rekey.jobs.reconcile;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.TimeWindow;
import dev.rekey.common.Versions;

/**
 * Validated options of a reconcile run. Build with {@link #builder()}; {@link Builder#build()}
 * throws a usage RekeyException (exit 2) with a message for the user. Driver-side only: Spark
 * closures get the serializable parts ({@link RowClassifier}), never the options.
 */
public record ReconcileOptions(
    SideSpec old,
    SideSpec neu,
    TimeBuckets buckets,
    long bucketMillis,
    TimeSource time,
    NaturalKey naturalKey,
    boolean digest,
    int samples,
    boolean drillDown,
    String out,
    Versions versions) {

  /** The checks that need no parsing, here so that no ReconcileOptions exists unchecked. */
  public ReconcileOptions {
    requireSides(old, neu);
    if (bucketMillis <= 0) {
      throw RekeyException.usage(
          "--bucket must be a positive duration (got " + bucketMillis + " ms)");
    }
    if (samples < 0) {
      throw RekeyException.usage("--samples must be 0 or more (got " + samples + ")");
    }
  }

  private static void requireSides(SideSpec old, SideSpec neu) {
    if (old == null || neu == null) {
      throw RekeyException.usage(
          "Both sides are required: --old-table|--old-snapshot with --old-layout, "
              + "and --new-table|--new-snapshot with --new-layout");
    }
  }

  /**
   * True when no --from/--to was given: {@link #buckets()} is null until the run has read the
   * data's time range.
   */
  public boolean rangeFromData() {
    return buckets == null;
  }

  /** These options with the range the run took from the data. */
  public ReconcileOptions withBuckets(TimeBuckets b) {
    return new ReconcileOptions(
        old, neu, b, b.size(), time, naturalKey, digest, samples, drillDown, out, versions);
  }

  /** Default number of sample natural keys per mismatched bucket. */
  public static final int DEFAULT_SAMPLES = 20;

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder extends SidesBuilder<Builder> {
    private boolean digest;
    private int samples = DEFAULT_SAMPLES;
    private boolean drillDown = true;
    private String out;
    private Versions versions = Versions.ALL;

    public Builder digest(boolean v) {
      digest = v;
      return this;
    }

    public Builder samples(int v) {
      samples = v;
      return this;
    }

    /**
     * False: the mismatched buckets are named, not drilled into (no second join of their rows, no
     * samples), for a caller that compares those buckets itself, as repair does. Default true.
     */
    public Builder drillDown(boolean v) {
      drillDown = v;
      return this;
    }

    /**
     * Directory for reconcile.json and reconcile.html, a path or Hadoop URI as given ({@link
     * dev.rekey.common.OutputDir}); null = none written.
     */
    public Builder out(String v) {
      out = v;
      return this;
    }

    /**
     * Versions per column compared (default all): a side that lost older versions differs in cells
     * and digest.
     */
    public Builder versions(Versions v) {
      versions = v == null ? Versions.ALL : v;
      return this;
    }

    public ReconcileOptions build() {
      try {
        return validated();
      } catch (IllegalArgumentException e) { // the parsers' messages name the option already
        throw RekeyException.usage(e.getMessage());
      }
    }

    private ReconcileOptions validated() {
      requireSides(old, neu);
      long size = TimeArgs.duration(bucket, "--bucket");
      if ((from == null) != (to == null)) {
        throw RekeyException.usage(
            "Cannot reconcile part of an open range: %s was given without %s (give both, or"
                + " neither to take the range from the data)",
            from == null ? "--to" : "--from", from == null ? "--from" : "--to");
      }
      // neither given: the run reads the time range of both sides first (Reconcile.execute)
      TimeBuckets b =
          from == null
              ? null
              : new TimeBuckets(
                  new TimeWindow(TimeArgs.instant(from, "--from"), TimeArgs.instant(to, "--to")),
                  size);
      NaturalKey nk = NaturalKey.common(old.layout(), neu.layout());
      TimeSource ts = TimeSource.resolve(time, old.layout(), neu.layout());
      // --via-snapshot: the live sides are read through snapshots taken for the run
      return new ReconcileOptions(
          viaSnapshot ? old.viaSnapshot() : old,
          viaSnapshot ? neu.viaSnapshot() : neu,
          b,
          size,
          ts,
          nk,
          digest,
          samples,
          drillDown,
          out,
          versions);
    }
  }
}
