package dev.rekey.targets;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.JobResult;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The loop of every job that runs once per target: each in the order given, its results gathered in
 * that order, and, with several, a header line before each target's lines so they can be told
 * apart.
 */
public final class EachTarget {
  private EachTarget() {}

  /**
   * {@code job} of each of {@code targets} in turn, its results in their order; with more than one
   * target, {@code header} of the next goes to {@code out} before its job runs.
   */
  public static <T, R> List<R> run(
      List<T> targets, Function<T, String> header, Consumer<String> out, Function<T, R> job) {
    List<R> results = new ArrayList<>(targets.size());
    for (T t : targets) {
      if (targets.size() > 1) {
        out.accept(header.apply(t));
      }
      results.add(job.apply(t));
    }
    return results;
  }

  /** The line before a target's progress: {@code Target T (layout L):}. */
  public static String header(String table, KeyLayout layout) {
    return String.format("Target %s (layout %s):", table, layout.name());
  }

  /** The exit code of a run of several: the worst one (3 when any target found a difference). */
  public static int exitCode(List<? extends JobResult> results) {
    return results.stream().mapToInt(JobResult::exitCode).max().orElse(ExitCodes.OK);
  }
}
