package dev.rekey.common;

import java.util.Locale;
import org.apache.spark.SparkContext;

/**
 * A phase of a job: the Spark jobs started on this thread while it is open carry its description
 * ({@code SparkContext.setJobDescription}, the local property {@value #DESCRIPTION}), which Spark's
 * UI shows for the job and its stages and {@link ProgressListener} prints instead of the call site.
 * Closing it puts back the description that was there before, so a phase inside another (or inside
 * a caller's own description) leaves the outer one in place.
 *
 * <pre>{@code
 * try (JobPhase phase = JobPhase.start(sc, "reconcile: drill down %s", count(n, "bucket"))) {
 *   ... .collectAsMap();
 * }
 * }</pre>
 *
 * <p>Descriptions start with the job's name and say what the phase does: "backfill: verify the
 * cells of 3 regions".
 */
public final class JobPhase implements AutoCloseable {
  /**
   * Spark's local property for a job's description ({@code SparkContext.SPARK_JOB_DESCRIPTION}).
   */
  public static final String DESCRIPTION = "spark.job.description";

  private final SparkContext sc;
  private final String previous;

  private JobPhase(SparkContext sc, String description) {
    this.sc = sc;
    this.previous = sc.getLocalProperty(DESCRIPTION);
    sc.setJobDescription(description);
    // a job publishing its counters (JobMetrics) records the phase in its status
    JobMetrics.of(sc).ifPresent(m -> m.phase(description));
  }

  /** Describes the Spark jobs this thread starts until close: {@code format} with {@code args}. */
  public static JobPhase start(SparkContext sc, String format, Object... args) {
    return new JobPhase(sc, args.length == 0 ? format : String.format(Locale.ROOT, format, args));
  }

  /** {@code n} and the noun, plural unless n is 1: "1 region", "16 regions". */
  public static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** Puts back the description this thread had before (none: removes it). */
  @Override
  public void close() {
    sc.setLocalProperty(DESCRIPTION, previous);
  }
}
