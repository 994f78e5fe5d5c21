package dev.rekey.admin.checkconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.checkconfig.ConfigFinding.Severity;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Each check-config rule with a violating and a clean configuration. */
@Tag("unit")
class ClientConfigRulesTest {
  private static final Map<String, String> GOOD =
      Map.of(
          "hbase.rpc.timeout", "20000",
          "hbase.client.retries.number", "5",
          "hbase.client.operation.timeout", "120000",
          "hbase.client.scanner.timeout.period", "360000",
          "hbase.client.scanner.caching", "1000");

  private static Map<String, String> with(Map<String, String> base, String k, String v) {
    var m = new java.util.HashMap<>(base);
    m.put(k, v);
    return m;
  }

  private static ConfigFinding only(List<ConfigFinding> f) {
    assertEquals(1, f.size(), f.toString());
    return f.get(0);
  }

  @Test
  void operationTimeoutMustExceedRpcTimesRetries() {
    assertEquals(List.of(), ClientConfigRules.operationTimeoutCoversRetries(GOOD));
    // the seed's defaults: 60 s rpc x 15 retries = 900 s > 120 s operation timeout
    ConfigFinding f =
        only(
            ClientConfigRules.operationTimeoutCoversRetries(
                Map.of(
                    "hbase.rpc.timeout",
                    "60000",
                    "hbase.client.retries.number",
                    "15",
                    "hbase.client.operation.timeout",
                    "120000")));
    assertEquals(Severity.VIOLATION, f.severity());
    assertEquals("hbase.client.operation.timeout", f.key());
    assertEquals("120000", f.value());
    assertTrue(f.rule().contains("120,000 ms <= 60,000 ms x 15 = 900,000 ms"), f.rule());
    assertTrue(f.fix().contains("above 900,000 (e.g. 910000)"), f.fix());
    // equal is not enough: the last retry has no time left
    assertEquals(
        1,
        ClientConfigRules.operationTimeoutCoversRetries(
                with(GOOD, "hbase.client.operation.timeout", "100000"))
            .size());
  }

  @Test
  void hbaseDefaultsAreClean() {
    // 2.6 defaults: 60 s x 15 = 900 s < 1,200 s
    assertEquals(List.of(), ClientConfigRules.checkAll(Map.of(), 1000));
  }

  @Test
  void rpcTimeoutAtLeastFiveSeconds() {
    assertEquals(
        List.of(), ClientConfigRules.rpcTimeoutAtLeast5s(with(GOOD, "hbase.rpc.timeout", "5000")));
    ConfigFinding f =
        only(ClientConfigRules.rpcTimeoutAtLeast5s(with(GOOD, "hbase.rpc.timeout", "2000")));
    assertEquals("hbase.rpc.timeout", f.key());
    assertTrue(f.rule().contains("2,000 ms < 5,000 ms"), f.rule());
  }

  @Test
  void retriesAtLeastFive() {
    assertEquals(List.of(), ClientConfigRules.retriesAtLeast5(GOOD));
    ConfigFinding f =
        only(ClientConfigRules.retriesAtLeast5(with(GOOD, "hbase.client.retries.number", "2")));
    assertEquals("2", f.value());
    assertTrue(f.fix().contains("at least 5"), f.fix());
  }

  @Test
  void scannerBatchMustFitTheScannerTimeout() {
    assertEquals(List.of(), ClientConfigRules.scannerBatchFitsTimeout(GOOD, 1000));
    // 100,000 rows at 1,000 rows/s = 100 s > 60 s
    Map<String, String> bad =
        with(
            with(GOOD, "hbase.client.scanner.caching", "100000"),
            "hbase.client.scanner.timeout.period",
            "60000");
    ConfigFinding f = only(ClientConfigRules.scannerBatchFitsTimeout(bad, 1000));
    assertEquals("hbase.client.scanner.caching", f.key());
    assertTrue(
        f.rule().contains("100,000 rows at an assumed 1,000 rows/s")
            && f.rule().contains("100,000 ms"),
        f.rule());
    assertTrue(f.fix().contains("at most 30,000"), f.fix());
    // a faster assumed rate makes the same setting fine
    assertEquals(List.of(), ClientConfigRules.scannerBatchFitsTimeout(bad, 10_000));
    // the job caching overrides the client caching
    ConfigFinding mr =
        only(
            ClientConfigRules.scannerBatchFitsTimeout(
                with(GOOD, "hbase.mapreduce.scan.cachedrows", "500000"), 1000));
    assertEquals("hbase.mapreduce.scan.cachedrows", mr.key());
    // HBase's default caching (unlimited rows, bounded by bytes) is not a row-count problem
    assertEquals(List.of(), ClientConfigRules.scannerBatchFitsTimeout(Map.of(), 1000));
  }

  @Test
  void walDisabledIsAWarning() {
    assertEquals(
        List.of(),
        ClientConfigRules.walEnabled(with(GOOD, "import.wal.durability", "USE_DEFAULT")));
    ConfigFinding f =
        only(ClientConfigRules.walEnabled(with(GOOD, "import.wal.durability", "SKIP_WAL")));
    assertEquals(Severity.WARNING, f.severity());
    assertEquals("import.wal.durability", f.key());
    assertTrue(f.rule().contains("SKIP_WAL"), f.rule());
    assertEquals(
        "hbase.wal.provider",
        only(ClientConfigRules.walEnabled(with(GOOD, "hbase.wal.provider", "disabled"))).key());
  }

  @Test
  void blockCacheOnFullScansIsAWarning() {
    assertEquals(
        List.of(),
        ClientConfigRules.blockCacheOffForFullScans(
            with(GOOD, "hbase.mapreduce.scan.cacheblocks", "false")));
    ConfigFinding f =
        only(
            ClientConfigRules.blockCacheOffForFullScans(
                with(GOOD, "hbase.mapreduce.scan.cacheblocks", "true")));
    assertEquals(Severity.WARNING, f.severity());
    assertTrue(f.fix().contains("false"), f.fix());
  }

  @Test
  void exitCodes() {
    assertEquals(ExitCodes.OK, CheckConfig.of(GOOD, "good").execute().exitCode(false));
    CheckConfigResult violated =
        CheckConfig.of(with(GOOD, "hbase.client.retries.number", "1"), "bad").execute();
    assertEquals(ExitCodes.MISMATCH, violated.exitCode(false));
    CheckConfigResult warned =
        CheckConfig.of(with(GOOD, "hbase.mapreduce.scan.cacheblocks", "true"), "w").execute();
    assertEquals(ExitCodes.OK, warned.exitCode(false));
    assertEquals(ExitCodes.MISMATCH, warned.exitCode(true));
  }

  @Test
  void notANumberIsAUsageErrorNamingTheKeyAndFile() {
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> CheckConfig.of(with(GOOD, "hbase.rpc.timeout", "20s"), "site.xml").execute());
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertEquals(
        "Cannot check hbase.rpc.timeout: '20s' is not a whole number in site.xml", e.getMessage());
  }
}
