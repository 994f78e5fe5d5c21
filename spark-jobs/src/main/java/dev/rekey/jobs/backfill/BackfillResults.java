package dev.rekey.jobs.backfill;

import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The results of a backfill run, one per target ({@link Backfill#executeAll}), in the order the
 * targets were given. One target's prints and renders exactly as its {@link BackfillResult};
 * several print one after the other, and the exit code is the worst of them (3 when any target is
 * not verified).
 */
public record BackfillResults(List<BackfillResult> targets) implements JobResult {
  public BackfillResults {
    targets = List.copyOf(targets);
  }

  /** The result for target table {@code table}. */
  public BackfillResult of(String table) {
    return targets.stream()
        .filter(r -> r.targetTable().equals(table))
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException(String.format("no target %s in %s", table, this)));
  }

  @Override
  public int exitCode() {
    return targets.stream().mapToInt(BackfillResult::exitCode).max().orElse(0);
  }

  @Override
  public String console() {
    return targets.stream().map(BackfillResult::console).collect(Collectors.joining());
  }

  /** One target: its own JSON; several: a JSON list of them. */
  @Override
  public String toJson() {
    return targets.size() == 1 ? targets.get(0).toJson() : Json.pretty(targets);
  }
}
