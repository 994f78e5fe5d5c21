package dev.rekey.common;

import java.util.List;
import java.util.Map;

/**
 * A job's status file ({@code _status.json}), schema {@value #SCHEMA} version {@value #VERSION}
 * (docs/metrics.md): written while the job runs and at its end by {@link JobMetrics}. A reader
 * checks {@code schema} and {@code version}; a later version only adds fields.
 *
 * @param schema always {@value #SCHEMA}
 * @param version the schema's version
 * @param job the command ("backfill")
 * @param subject what it works on
 * @param applicationId Spark's application id
 * @param state running, succeeded or failed
 * @param phase the phase now (the Spark job description, e.g. "backfill: read snapshot S ...")
 * @param startedAt when the job started (ISO-8601)
 * @param updatedAt when this file was written
 * @param progress tasks of the stages running now
 * @param counters the job's counters now, by name (docs/metrics.md lists them)
 * @param phases each phase so far: when it started and ended, and the counters at its end (or now)
 */
public record JobStatus(
    String schema,
    int version,
    String job,
    String subject,
    String applicationId,
    String state,
    String phase,
    String startedAt,
    String updatedAt,
    Progress progress,
    Map<String, Long> counters,
    List<Phase> phases) {
  public static final String SCHEMA = "rekey-job-status";
  public static final int VERSION = 1;

  /** The status file's name, beside the job's outputs. */
  public static final String FILE = "_status.json";

  /**
   * @param stages stages running
   * @param tasksDone their tasks done
   * @param tasks their tasks in all
   */
  public record Progress(int stages, int tasksDone, int tasks) {}

  /**
   * @param phase its description
   * @param startedAt when it started
   * @param endedAt when the next one started (null: still running)
   * @param counters the counters at its end (or now)
   */
  public record Phase(String phase, String startedAt, String endedAt, Map<String, Long> counters) {}
}
