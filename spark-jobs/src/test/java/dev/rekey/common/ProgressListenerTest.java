package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedSpark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listener's counts from given events at given times (unit), and on a real local Spark job in a
 * {@link JobPhase}: four tasks of which two finish and two wait on a latch, so the stage is caught
 * half-way; then everything finishes and the stage is gone. Local mode runs tasks in this JVM, so
 * the tasks see the static latch.
 */
class ProgressListenerTest {
  static final CountDownLatch RELEASE = new CountDownLatch(1);
  static final Duration WAIT = Duration.ofSeconds(60);
  static final Duration STEP = Duration.ofMillis(50);

  static List<String> lines(ProgressListener progress) {
    return progress.snapshot().stream().map(StageProgress::line).toList();
  }

  @Test
  @Tag("unit")
  void linesNameThePhaseOrTheCallSiteAndCountWhatTheEventsSay() {
    AtomicLong now = new AtomicLong(1_000_000);
    ProgressListener progress = new ProgressListener("reconcile", now::get);
    progress.stageSubmitted(
        3, "collectAsMap at Reconcile.java:198", "reconcile: count and digest 24 buckets", 8);
    for (int i = 0; i < 3; i++) {
      progress.taskStarted(3);
    }
    now.addAndGet(10_000);
    progress.stageSubmitted(4, "count at Reconcile.java:330", null, 2);
    now.addAndGet(10_000);
    progress.taskEnded(3, 1, true, 1_000);
    progress.taskRows(3, 2, 700);
    progress.taskEnded(3, 2, false, 700); // failed: not done, and its rows are read again
    progress.taskStarted(3); // its retry
    progress.taskRows(3, 3, 250); // a running task's heartbeat
    progress.taskStarted(99); // a stage this listener never saw: ignored
    progress.taskEnded(99, 9, true, 5);
    now.addAndGet(10_000);
    assertEquals(
        List.of(
            // 30 s for 1 task of 8: 7 left at 30 s each; 1,250 rows in 30 s
            "reconcile: count and digest 24 buckets (stage 3): 1 of 8 tasks done, 2 running, "
                + "1,250 rows read (42 rows/s), 30 s so far, ETA 3 min 30 s",
            "reconcile: stage 4 (count at Reconcile.java:330): 0 of 2 tasks done, 20 s so far, "
                + "ETA when the first task ends"),
        lines(progress));

    // the running task ends: its final count replaces its heartbeat's, not added to it
    progress.taskEnded(3, 3, true, 300);
    now.addAndGet(10_000);
    assertEquals(
        "reconcile: count and digest 24 buckets (stage 3): 2 of 8 tasks done, 1 running, "
            + "1,300 rows read (33 rows/s), 40 s so far, ETA 2 min 00 s",
        lines(progress).get(0));
    progress.stageCompleted(3);
    assertEquals(List.of(4), progress.snapshot().stream().map(StageProgress::stageId).toList());
  }

  @Test
  @Tag("unit")
  void countsInDescriptionsAreSingularForOne() {
    assertEquals("1 region", JobPhase.count(1, "region"));
    assertEquals("16 regions", JobPhase.count(16, "region"));
    assertEquals("0 buckets", JobPhase.count(0, "bucket"));
  }

  @Test
  @Tag("spark")
  void aPhaseNamesItsJobsStagesAndPutsBackTheDescriptionBeforeIt() {
    SparkContext sc = SharedSpark.session().sparkContext();
    assertNull(sc.getLocalProperty(JobPhase.DESCRIPTION));
    try (JobPhase outer = JobPhase.start(sc, "scan: read and decode %d regions", 16)) {
      assertEquals("scan: read and decode 16 regions", sc.getLocalProperty(JobPhase.DESCRIPTION));
      try (JobPhase inner = JobPhase.start(sc, "scan: report %s", "top_devices")) {
        assertEquals("scan: report top_devices", sc.getLocalProperty(JobPhase.DESCRIPTION));
      }
      assertEquals("scan: read and decode 16 regions", sc.getLocalProperty(JobPhase.DESCRIPTION));
    }
    assertNull(sc.getLocalProperty(JobPhase.DESCRIPTION));
  }

  @Test
  @Tag("spark")
  void reportsTheRunningStageOfARealJobUnderItsPhase(@TempDir Path dir) throws Exception {
    // four files of 1,000 lines: four tasks reading through Hadoop's input format, which counts the
    // records read
    for (int f = 0; f < 4; f++) {
      Files.write(
          dir.resolve("part-" + f + ".txt"),
          IntStream.range(0, 1_000).mapToObj(Integer::toString).toList());
    }
    SparkContext sc = SharedSpark.session().sparkContext();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ProgressListener progress = ProgressListener.install(sc, "test", out, 1)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
      // the description is a property of the thread that starts the job: the phase opens there
      CompletableFuture<Long> job =
          CompletableFuture.supplyAsync(
              () -> {
                try (JobPhase phase = JobPhase.start(sc, "test: count %d files", 4)) {
                  return jsc.textFile(dir.toString())
                      .mapPartitionsWithIndex(
                          (i, it) -> {
                            if (i >= 2) {
                              RELEASE.await();
                            }
                            return it;
                          },
                          false)
                      .count();
                }
              });
      Poll.until(
          () -> halfWay(progress) != null,
          WAIT,
          STEP,
          () -> new IllegalStateException("stage never half done"));
      StageProgress half = halfWay(progress);
      assertEquals("test", half.job());
      assertEquals("test: count 4 files", half.description());
      assertTrue(half.name().contains("count at ProgressListenerTest.java"), half.name());
      assertEquals(2_000, half.rows(), "the two finished tasks read 1,000 rows each");
      // the printing thread reports the running stage under its phase once it has run a period
      Poll.until(
          () ->
              bytes
                  .toString(StandardCharsets.UTF_8)
                  .contains(
                      "test: count 4 files (stage "
                          + half.stageId()
                          + "): 2 of 4 tasks done, 2 running"),
          WAIT,
          STEP,
          () -> new IllegalStateException("no progress line: " + bytes));
      RELEASE.countDown();
      assertEquals(4_000L, job.get());
      Poll.until(
          () -> progress.snapshot().isEmpty(),
          WAIT,
          STEP,
          () -> new IllegalStateException("stage still listed"));
    }
  }

  static StageProgress halfWay(ProgressListener progress) {
    return progress.snapshot().stream()
        .filter(p -> p.tasksTotal() == 4 && p.tasksDone() == 2)
        .findFirst()
        .orElse(null);
  }
}
