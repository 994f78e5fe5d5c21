package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.S3Fixture;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * S3 as the staging dir and the nightly report's home, on a real S3 endpoint (S3Proxy): the HFiles
 * written to s3a://, bulk-loaded from there into the embedded server (whose root is local: the
 * RegionServer copies each file in), verified, the ledger on S3, a scan's report written to s3a://
 * and read back whole; the keys nowhere in what the jobs wrote or said; wrong keys refused before
 * the read. The s3 tier: {@code -Dgroups=s3} (S3Proxy starts in ~15 s; the class runs in ~1-2 min).
 */
@Tag("s3")
class BackfillS3IT {
  private static S3Fixture s3;

  @BeforeAll
  static void start() {
    s3 = new S3Fixture("backfill");
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aBackfillStagedOnS3LoadsAndVerifiesAndANightlyReportOnS3ReadsBackWhole() throws Exception {
    BackfillFixture f = new BackfillFixture("bfs3", 2_000, 10);
    f.snapshot();
    Configuration conf = s3.conf();
    String staging = s3.uri("staging/" + f.target.getNameAsString());
    List<String> said = new ArrayList<>();
    BackfillResult r =
        new Backfill(SharedSpark.session(), conf, f.options().staging(staging).build())
            .execute(said::add);
    assertTrue(r.verified(), r.lines().toString());
    f.assertTablesEqual();
    said.add(r.console());
    said.add(r.toJson());

    // the ledger is on S3, every region verified; nothing left in the loader's copies
    Staging dir = new Staging(staging, conf);
    assertEquals("s3a", dir.fs.getScheme());
    Manifest m = dir.readJson(dir.manifest(), Manifest.class);
    assertTrue(m.regions().stream().allMatch(e -> e.state() == RegionState.VERIFIED), "ledger");
    assertFalse(dir.fs.exists(dir.loadRoot()), "the loader's copies are gone");

    // the nightly scan of the new table, its report written to s3a:// and read back whole
    String out = s3.uri("nightly/" + f.target.getNameAsString());
    ScanResult scan =
        new ScanJob(
                SharedSpark.session(),
                conf,
                ScanOptions.builder()
                    .table(f.target.getNameAsString())
                    .layout(Layouts.shipped("telemetry-v2"))
                    .window(
                        new TimeWindow(
                            TelemetryGenerator.DEFAULT_START,
                            TelemetryGenerator.DEFAULT_START + 86_400_000L))
                    .report(
                        ReportFile.load(
                            ReportFile.resolve("device_window_counts", SharedHBase.rekeyHome())))
                    .out(out)
                    .build())
            .execute(said::add);
    assertEquals(2_000, scan.rows());
    Path summary = new Path(out, "summary.json");
    FileSystem fs = summary.getFileSystem(conf);
    JsonNode json;
    try (InputStream in = fs.open(summary)) {
      json = new ObjectMapper().readTree(in);
    }
    assertEquals(2_000, json.get("totals").get("rows").asLong(), json.toString());
    assertEquals(scan.toJson(), new String(readAll(fs, summary)).strip(), "read back whole");
    said.add(scan.console());

    // the old and new tables reconciled, the report written to s3a:// and read back whole
    String rec = s3.uri("reconcile/" + f.target.getNameAsString());
    ReconcileResult reconciled =
        new Reconcile(
                SharedSpark.session(),
                conf,
                ReconcileOptions.builder()
                    .old(SideSpec.snapshot("old", f.snapshot, Layouts.shipped("telemetry-v1")))
                    .neu(
                        SideSpec.table(
                            "new", f.target.getNameAsString(), Layouts.shipped("telemetry-v2")))
                    .from(TelemetryGenerator.DEFAULT_START)
                    .to(TelemetryGenerator.DEFAULT_START + 86_400_000L)
                    .bucket("1h")
                    .out(rec)
                    .build())
            .execute(said::add);
    assertTrue(reconciled.matches(), reconciled.toString());
    Path recJson = new Path(rec, ReconcileReport.JSON);
    assertEquals(
        Json.pretty(ReconcileReport.json(reconciled)).strip(),
        new String(readAll(fs, recJson), StandardCharsets.UTF_8).strip(),
        "reconcile.json read back whole");
    String page =
        new String(readAll(fs, new Path(rec, ReconcileReport.HTML)), StandardCharsets.UTF_8);
    assertTrue(page.strip().endsWith("</html>"), "reconcile.html whole");
    assertFalse(fs.exists(new Path(rec, ReconcileReport.JSON + ".tmp")), "no .tmp left");

    // the keys: in no file the jobs wrote (on S3, in the run dirs) and in nothing they said
    assertEquals(
        List.of(),
        s3.filesHolding(s3.endpoint.dataDir(), SharedHBase.runRoot().resolve("backfill-staging")));
    for (String line : said) {
      assertFalse(line.contains(s3.secretKey) || line.contains(s3.accessKey), line);
    }
  }

  @Test
  void wrongKeysAreRefusedBeforeTheReadNamingTheEndpoint() throws Exception {
    BackfillFixture f = new BackfillFixture("bfs3keys", 100, 4);
    f.snapshot();
    Configuration conf = s3.conf();
    // a filesystem of its own: Hadoop caches one per bucket and user, and the other test's must not
    // be this one's, with the wrong keys
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    // a credential file of other keys, as a user who copied the wrong one
    S3Fixture.writeCredentials(
        conf, SharedHBase.runRoot().resolve("s3-wrong-keys.jceks"), "AKIAWRONG", "wrong-secret");
    String staging = s3.uri("staging/" + f.target.getNameAsString());
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () ->
                new Backfill(SharedSpark.session(), conf, f.options().staging(staging).build())
                    .execute(s -> {}));
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    assertTrue(e.getMessage().contains(s3.url), e.getMessage());
    assertTrue(e.getMessage().contains("credentials"), e.getMessage());
    assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
    assertEquals(0, SharedHBase.storeFileCount(f.target), "nothing loaded");
  }

  private static byte[] readAll(FileSystem fs, Path p) throws Exception {
    try (InputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }
}
