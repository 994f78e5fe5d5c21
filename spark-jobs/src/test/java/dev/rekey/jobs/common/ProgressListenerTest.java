package dev.rekey.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedSpark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listener on a real local Spark job: four tasks of which two finish and two wait on a latch,
 * so the stage is caught half-way; then everything finishes and the stage is gone. Local mode runs
 * tasks in this JVM, so the tasks see the static latch.
 */
@Tag("spark")
class ProgressListenerTest {
  static final CountDownLatch RELEASE = new CountDownLatch(1);
  static final Duration WAIT = Duration.ofSeconds(60);
  static final Duration STEP = Duration.ofMillis(50);

  static StageProgress halfWay(ProgressListener progress) {
    return progress.snapshot().stream()
        .filter(p -> p.tasksTotal() == 4 && p.tasksDone() == 2)
        .findFirst()
        .orElse(null);
  }

  @Test
  void reportsTasksDoneOfTotalAndRowsReadWhileAStageRuns(@TempDir Path dir) throws Exception {
    // four files of 1,000 lines: four tasks reading through Hadoop's input format, which counts the
    // records read
    for (int f = 0; f < 4; f++) {
      Files.write(
          dir.resolve("part-" + f + ".txt"),
          IntStream.range(0, 1_000).mapToObj(Integer::toString).toList());
    }
    SparkSession spark = SharedSpark.session();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ProgressListener progress =
        ProgressListener.install(spark.sparkContext(), "test", out, 1)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      CompletableFuture<Long> job =
          CompletableFuture.supplyAsync(
              () ->
                  jsc.textFile(dir.toString())
                      .mapPartitionsWithIndex(
                          (i, it) -> {
                            if (i >= 2) {
                              RELEASE.await();
                            }
                            return it;
                          },
                          false)
                      .count());
      Poll.until(
          () -> halfWay(progress) != null,
          WAIT,
          STEP,
          () -> new IllegalStateException("stage never half done"));
      StageProgress half = halfWay(progress);
      assertEquals("test", half.job());
      assertTrue(half.name().contains("count at ProgressListenerTest.java"), half.name());
      assertEquals(2_000, half.rows(), "the two finished tasks read 1,000 rows each");
      assertTrue(half.etaSeconds() >= 0);
      // the printing thread reports the running stage once it has run a period
      Poll.until(
          () -> bytes.toString(StandardCharsets.UTF_8).contains("2 of 4 tasks done, 2 running"),
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
    assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("test: stage "), bytes.toString());
  }
}
