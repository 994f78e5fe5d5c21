package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.LayoutFiles;
import dev.rekey.rowkey.KeyLayout;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Several targets in one run: each target's share of the options (plan layer, no Spark). */
@Tag("unit")
class BackfillTargetsTest {
  private static final KeyLayout V1 = LayoutFiles.load("telemetry-v1", "test");
  private static final KeyLayout V2 = LayoutFiles.load("telemetry-v2", "test");
  private static final KeyLayout BY_DEVICE = LayoutFiles.load("telemetry-by-device", "test");

  @Test
  void eachTargetGetsItsOwnTableLayoutAndStagingSubdir() {
    BackfillOptions o =
        BackfillOptions.builder()
            .sourceSnapshot("snap")
            .sourceLayout(V1)
            .target("telemetry_v2", V2)
            .target("ns:by_device", BY_DEVICE)
            .staging("/stage")
            .build();
    assertTrue(o.severalTargets());
    assertEquals("telemetry_v2", o.targetTable(), "the first target is the options' target");
    BackfillOptions second = o.forTarget(o.targets().get(1));
    assertEquals("ns:by_device", second.targetTable());
    assertSame(BY_DEVICE, second.targetLayout());
    assertEquals(List.of(o.targets().get(1)), second.targets());
    assertEquals("/stage/backfill-ns_by_device", second.staging());
    assertEquals(
        "/home/u/.rekey-staging/backfill-telemetry_v2",
        BackfillOptions.builder()
            .sourceSnapshot("snap")
            .sourceLayout(V1)
            .target("telemetry_v2", V2)
            .target("by_device", BY_DEVICE)
            .build()
            .forTarget(o.targets().get(0))
            .stagingOr("/home/u/.rekey-staging"));
  }

  @Test
  void oneTargetIsTheOptionsAsTheyAre() {
    BackfillOptions o =
        BackfillOptions.builder()
            .sourceSnapshot("snap")
            .sourceLayout(V1)
            .targetTable("telemetry_v2")
            .targetLayout(V2)
            .staging("/stage/x")
            .build();
    assertEquals(1, o.targets().size());
    assertSame(o, o.forTarget(o.targets().get(0)));
    assertEquals("/stage/x", o.stagingOr("/ignored"));
  }
}
