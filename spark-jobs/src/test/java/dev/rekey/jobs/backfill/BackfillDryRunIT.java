package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --dry-run} in-process against the shared embedded HBase server: the plan first, then the
 * rows, files and skew the data gives each target region, nothing written; and on the in-order path
 * the rows and files the write then makes.
 */
@Tag("e2e")
class BackfillDryRunIT {
  private static BackfillResult run(BackfillOptions o) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  @Test
  void dryRunPlansWithoutWriting() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_dry", 1_000, 10);
    f.snapshot();
    List<String> printed = new java.util.ArrayList<>();
    BackfillResult r =
        new Backfill(
                SharedSpark.session(),
                SharedHBase.conf(),
                f.options().dryRun(true).sortAlways(true).splitsPerRegion(2).build())
            .execute(printed::add);
    // the plan comes first, decided before any row is read: the path and why, the families, and
    // per region the source regions feeding it and the files expected (2 sub-partitions x 1
    // family)
    assertEquals("Plan: sorted by target key (shuffle): --write-path sort", printed.get(0));
    assertTrue(
        printed.stream()
            .anyMatch(l -> l.startsWith("  family d: copies ") && l.endsWith("; no TTL")),
        String.join("\n", printed));
    assertTrue(
        printed.stream().anyMatch(l -> l.matches("  7 +07 +\\S+ +[0-9,]+ +2")),
        String.join("\n", printed));
    assertTrue(r.dryRun());
    assertEquals(new Accounting(1_000, 1_000, 0, 0), r.accounting());
    assertEquals(16, r.regions().size());
    assertTrue(
        r.regions().stream().allMatch(e -> e.files() == 2 && e.bytes() > 0), r.lines().toString());
    assertTrue(r.lines().stream().anyMatch(l -> l.contains("skew max/mean")));
    assertEquals(
        0,
        BackfillIT.countRows(
            SharedHBase.connection().getTable(f.target), new byte[0], new byte[0]));
    assertFalse(Files.exists(f.staging.resolve("_manifest.json")));
  }

  @Test
  void aDryRunInSourceOrderExpectsTheRowsAndFilesTheWriteMakes() throws Exception {
    // more source regions than write tasks: each task reads a run of them, and writes one file
    // per region and bucket for the whole run
    BackfillFixture f =
        new BackfillFixture("bf_dryio", 1_000, 10, 1, "d:bloom=row,encoding=fast_diff", 12);
    f.snapshot();
    BackfillResult dry = run(f.options().dryRun(true).build());
    BackfillResult written = run(f.options().build());
    assertTrue(written.writePath().startsWith("written in source order"), written.writePath());
    assertEquals(dry.writePath(), written.writePath());
    // read in the write's own tasks: one file per (task, salt bucket) a region receives
    assertEquals(
        written.regions().stream().map(e -> e.rows() + " rows, " + e.files() + " files").toList(),
        dry.regions().stream().map(e -> e.rows() + " rows, " + e.files() + " files").toList());
    assertEquals(dry.accounting(), written.accounting());
  }
}
