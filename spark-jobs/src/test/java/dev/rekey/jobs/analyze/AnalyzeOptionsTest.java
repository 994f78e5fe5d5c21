package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.Source;
import dev.rekey.testing.Layouts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

@Tag("unit")
class AnalyzeOptionsTest {
  private static RekeyException usage(Executable e) {
    RekeyException r = assertThrows(RekeyException.class, e);
    assertEquals(ExitCodes.USAGE, r.exitCode(), r.getMessage());
    return r;
  }

  @Test
  void aSampleBelowTheMinimumIsAUsageError() {
    assertEquals(
        "Cannot analyze snapshot s: --sample 10 is too small (give at least "
            + AnalyzeOptions.MIN_SAMPLE
            + ")",
        usage(() -> AnalyzeOptions.builder().source(Source.snapshot("s")).sample(10).build())
            .getMessage());
  }

  @Test
  void optionsBuiltWithoutTheBuilderAreCheckedToo() {
    assertEquals(
        "Cannot analyze snapshot s: --servers 0 is not a count of servers (give 1 or more)",
        usage(
                () ->
                    new AnalyzeOptions(
                        Source.snapshot("s"),
                        Layouts.shipped("telemetry-v1"),
                        AnalyzeOptions.DEFAULT_SAMPLE,
                        0,
                        TimeWindow.ALL,
                        null,
                        null,
                        null,
                        null))
            .getMessage());
  }

  @Test
  void aSecondLayoutWithoutSplitsIsAUsageError() {
    assertEquals(
        "Cannot analyze snapshot s: --layout2 needs --splits (hex:N, uniform:N, natural[:N] or a"
            + " split file)",
        usage(
                () ->
                    AnalyzeOptions.builder()
                        .source(Source.snapshot("s"))
                        .layout(Layouts.shipped("telemetry-v1"))
                        .simulate(Layouts.shipped("telemetry-v2"), null)
                        .build())
            .getMessage());
  }
}
