package dev.rekey.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * A Spark listener from the test classpath ({@code spark.extraListeners}) that writes one line per
 * task attempt that started or ended to the file named by {@link #FILE}: {@code start|end stage
 * partition attempt speculative [reason]}. Tests read it to know that speculative copies really
 * ran, without parsing Spark's logs.
 */
public final class SpeculativeTasks extends SparkListener {
  public static final String FILE = "spark.rekey.test.taskLog";

  private final Path file;

  public SpeculativeTasks(SparkConf conf) {
    this.file = Path.of(conf.get(FILE));
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    append(
        String.format(
            "start %d %d %d %s",
            e.stageId(),
            e.taskInfo().index(),
            e.taskInfo().attemptNumber(),
            e.taskInfo().speculative()));
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    append(
        String.format(
            "end %d %d %d %s %s",
            e.stageId(),
            e.taskInfo().index(),
            e.taskInfo().attemptNumber(),
            e.taskInfo().speculative(),
            e.reason().getClass().getSimpleName()));
  }

  private synchronized void append(String line) {
    try {
      Files.writeString(
          file,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
