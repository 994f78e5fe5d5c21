package dev.rekey.jobs.repair;

import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The results of a repair run, one per new table ({@link Repair#executeAll}), in the order the
 * tables were given; the exit code is the worst of them (3 when a bucket of any table still
 * differs).
 */
public record RepairResults(List<RepairResult> tables) implements JobResult {
  public RepairResults {
    tables = List.copyOf(tables);
  }

  @Override
  public int exitCode() {
    return tables.stream().mapToInt(RepairResult::exitCode).max().orElse(0);
  }

  @Override
  public String console() {
    return tables.stream().map(RepairResult::console).collect(Collectors.joining());
  }

  /** One table: its own JSON; several: a JSON list of them. */
  @Override
  public String toJson() {
    return tables.size() == 1 ? tables.get(0).toJson() : Json.pretty(tables);
  }
}
