package dev.rekey.common;

import java.util.Locale;

/**
 * Where one running Spark stage is, as Spark's own listener events report it, and the line that
 * says so. Pure: the rate and the ETA are arithmetic over these figures (tasks left at the pace of
 * the tasks done so far), nothing guessed.
 *
 * @param name the stage's call site ("collectAsMap at Reconcile.java:120")
 * @param description the phase of the job that started the stage ({@link JobPhase}: "reconcile:
 *     count and digest 24 buckets"), or null when it was started outside one
 * @param rows rows read so far: input records of finished and running tasks (shuffle records for a
 *     stage that reads a shuffle), as the executors report them
 */
public record StageProgress(
    String job,
    int stageId,
    String name,
    String description,
    int tasksDone,
    int tasksRunning,
    int tasksTotal,
    long rows,
    long elapsedMillis) {

  /** Rows per second since the stage started; 0 before a second has passed or with no rows. */
  public double rowsPerSecond() {
    return elapsedMillis < 1_000 ? 0 : rows * 1000.0 / elapsedMillis;
  }

  /**
   * Seconds left at the pace of the finished tasks, or -1 while no task has finished (no pace to go
   * by yet).
   */
  public long etaSeconds() {
    if (tasksDone == 0 || tasksTotal <= tasksDone) {
      return tasksTotal > 0 && tasksDone >= tasksTotal ? 0 : -1;
    }
    return Math.round(elapsedMillis / 1000.0 * (tasksTotal - tasksDone) / tasksDone);
  }

  /**
   * {@code reconcile: count and digest 24 buckets (stage 3): 12 of 32 tasks done, 2 running,
   * 1,234,567 rows read (250,000 rows/s), 41 s so far, ETA 10 s}; a stage started outside a phase
   * is named by its call site: {@code reconcile: stage 3 (collectAsMap at Reconcile.java:120):
   * ...}.
   */
  public String line() {
    StringBuilder s = new StringBuilder(160);
    if (description == null || description.isBlank()) {
      s.append(job).append(": stage ").append(stageId).append(" (").append(name).append(")");
    } else {
      s.append(description).append(" (stage ").append(stageId).append(")");
    }
    s.append(": ")
        .append(String.format(Locale.ROOT, "%,d of %,d tasks done", tasksDone, tasksTotal));
    if (tasksRunning > 0) {
      s.append(", ").append(tasksRunning).append(" running");
    }
    if (rows > 0) {
      s.append(String.format(Locale.ROOT, ", %,d rows read (%,.0f rows/s)", rows, rowsPerSecond()));
    }
    s.append(", ").append(duration(elapsedMillis / 1000)).append(" so far, ETA ");
    long eta = etaSeconds();
    s.append(eta < 0 ? "when the first task ends" : duration(eta));
    return s.toString();
  }

  static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
  }
}
