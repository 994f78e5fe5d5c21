package dev.rekey.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.JobResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-target loop: order, headers, the exit code of several (no Spark, no HBase). */
@Tag("unit")
class EachTargetTest {
  private record Exit(int exitCode) implements JobResult {
    @Override
    public String console() {
      return "";
    }

    @Override
    public String toJson() {
      return "{}";
    }
  }

  @Test
  void severalTargetsRunInOrderEachAfterItsHeader() {
    List<String> lines = new ArrayList<>();
    List<Integer> results =
        EachTarget.run(
            List.of("a", "b"),
            t -> "header " + t,
            lines::add,
            t -> {
              lines.add("run " + t);
              return t.length();
            });
    assertEquals(List.of("header a", "run a", "header b", "run b"), lines);
    assertEquals(List.of(1, 1), results);
  }

  @Test
  void oneTargetRunsWithoutAHeader() {
    List<String> lines = new ArrayList<>();
    EachTarget.run(List.of("a"), t -> "header " + t, lines::add, t -> lines.add("run " + t));
    assertEquals(List.of("run a"), lines);
  }

  @Test
  void theExitCodeIsTheWorstAndTheHeaderNamesTableAndLayout() {
    assertEquals(
        ExitCodes.MISMATCH,
        EachTarget.exitCode(
            List.of(new Exit(ExitCodes.OK), new Exit(ExitCodes.MISMATCH), new Exit(0))));
    assertEquals(ExitCodes.OK, EachTarget.exitCode(List.of()));
    assertEquals(
        "Target t2 (layout telemetry-v2):",
        EachTarget.header("t2", Target.parse("t2=telemetry-v2").layout()));
  }
}
