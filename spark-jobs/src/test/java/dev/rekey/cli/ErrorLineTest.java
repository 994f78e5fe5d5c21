package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ErrorLineTest {
  @Test
  void aWrappedFailureEndsWithItsInnermostCause() {
    // the shape Spark reports a task's disk error in: the task's stack trace inside the stage
    // failure's message
    IOException disk =
        new IOException("Mkdirs failed to create file:/data/staging/attempts/_temporary/0");
    SparkException stage =
        new SparkException(
            "Job aborted due to stage failure: Task 0 in stage 1.0 failed 1 times, "
                + "most recent failure: "
                + disk
                + "\n\tat org.apache.hadoop.fs.ChecksumFileSystem.create(...)",
            disk);
    SparkException job = new SparkException("Job aborted.", stage);
    assertEquals(
        "Error: Job aborted. (cause: IOException: Mkdirs failed to create "
            + "file:/data/staging/attempts/_temporary/0; run with --verbose for the stack trace)",
        ErrorLine.of(job, false));
    assertEquals(
        "Error: Job aborted. (cause: IOException: Mkdirs failed to create "
            + "file:/data/staging/attempts/_temporary/0)",
        ErrorLine.of(job, true));
  }

  @Test
  void aRekeyExceptionIsItsMessageAndAnUnwrappedOneIsItsFirstLine() {
    assertEquals(
        "Error: Cannot backfill t: why (next)",
        ErrorLine.of(new RekeyException("Cannot backfill t: why (next)"), false));
    assertEquals(
        "Error: No space left on device (run with --verbose for the stack trace)",
        ErrorLine.of(new IOException("No space left on device\n\tat somewhere"), false));
    assertEquals(
        "Error: java.lang.NullPointerException (run with --verbose for the stack trace)",
        ErrorLine.of(new NullPointerException(), false));
  }
}
