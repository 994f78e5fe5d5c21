package dev.rekey.admin.checkconfig;

import dev.rekey.admin.checkconfig.ConfigFinding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The HBase client timeout and retry rules (operation timeout > rpc timeout × retries; rpc timeout
 * ≥ 5 s, retries ≥ 5) (and the scan/WAL advice next to them), as pure functions over a
 * configuration's properties. A key that is absent takes HBase 2.6's default from hbase-default.xml
 * (written below), so the rules give the same answer for a bare map and for a loaded {@code
 * Configuration}.
 */
public final class ClientConfigRules {
  public static final String RPC_TIMEOUT = "hbase.rpc.timeout";
  public static final String OPERATION_TIMEOUT = "hbase.client.operation.timeout";
  public static final String RETRIES = "hbase.client.retries.number";
  public static final String SCANNER_TIMEOUT = "hbase.client.scanner.timeout.period";
  public static final String SCANNER_CACHING = "hbase.client.scanner.caching";

  /**
   * TableInputFormat.SCAN_CACHEDROWS: the caching of the scans Spark/MapReduce jobs run (overrides
   * the above).
   */
  public static final String MR_SCAN_CACHING = "hbase.mapreduce.scan.cachedrows";

  /**
   * TableInputFormat.SCAN_CACHEBLOCKS: block cache for the full-table scans of Spark/MapReduce
   * jobs.
   */
  public static final String MR_SCAN_CACHEBLOCKS = "hbase.mapreduce.scan.cacheblocks";

  public static final String WAL_PROVIDER = "hbase.wal.provider";

  /** HBase 2.6 defaults (hbase-default.xml). */
  static final long DEFAULT_RPC_TIMEOUT_MS = 60_000;

  static final long DEFAULT_OPERATION_TIMEOUT_MS = 1_200_000;
  static final long DEFAULT_RETRIES = 15;
  static final long DEFAULT_SCANNER_TIMEOUT_MS = 60_000;

  /**
   * HBase client guidance for applications: rpc timeout no less than 5 s, retries no less than 5.
   */
  public static final long MIN_RPC_TIMEOUT_MS = 5_000;

  public static final long MIN_RETRIES = 5;

  /**
   * The assumed slowest rate one scanner's next() batch is produced at, rows per second: a scan
   * whose filter skips most rows, or that reads cold HFiles from disk, can fall to about a thousand
   * returned rows a second. A batch of {@code caching} rows must arrive within the scanner timeout,
   * or the scanner lease expires and the retry repeats the same too-large batch.
   */
  public static final long DEFAULT_ASSUMED_SCAN_ROWS_PER_SECOND = 1_000;

  private ClientConfigRules() {}

  /** Every rule, in a fixed order. */
  public static List<ConfigFinding> checkAll(
      Map<String, String> conf, long assumedScanRowsPerSecond) {
    List<ConfigFinding> out = new ArrayList<>();
    out.addAll(operationTimeoutCoversRetries(conf));
    out.addAll(rpcTimeoutAtLeast5s(conf));
    out.addAll(retriesAtLeast5(conf));
    out.addAll(scannerBatchFitsTimeout(conf, assumedScanRowsPerSecond));
    out.addAll(walEnabled(conf));
    out.addAll(blockCacheOffForFullScans(conf));
    return out;
  }

  /** {@code hbase.client.operation.timeout > hbase.rpc.timeout × hbase.client.retries.number}. */
  public static List<ConfigFinding> operationTimeoutCoversRetries(Map<String, String> conf) {
    Setting op = number(conf, OPERATION_TIMEOUT, DEFAULT_OPERATION_TIMEOUT_MS);
    Setting rpc = number(conf, RPC_TIMEOUT, DEFAULT_RPC_TIMEOUT_MS);
    Setting retries = number(conf, RETRIES, DEFAULT_RETRIES);
    long product = rpc.value * retries.value;
    if (op.value > product) {
      return List.of();
    }
    return List.of(
        new ConfigFinding(
            Severity.VIOLATION,
            OPERATION_TIMEOUT,
            op.shown,
            String.format(
                Locale.ROOT,
                "operation timeout must exceed rpc timeout x retries so the retries fit: %,d ms <= "
                    + "%,d ms x %d = %,d ms (%s = %s, %s = %s)",
                op.value,
                rpc.value,
                retries.value,
                product,
                RPC_TIMEOUT,
                rpc.shown,
                RETRIES,
                retries.shown),
            String.format(
                Locale.ROOT,
                "set %s above %,d (e.g. %d), or lower %s or %s",
                OPERATION_TIMEOUT,
                product,
                roundUp(product + 1),
                RPC_TIMEOUT,
                RETRIES)));
  }

  /** {@code hbase.rpc.timeout ≥ 5 s}. */
  public static List<ConfigFinding> rpcTimeoutAtLeast5s(Map<String, String> conf) {
    return atLeast(
        conf,
        RPC_TIMEOUT,
        DEFAULT_RPC_TIMEOUT_MS,
        MIN_RPC_TIMEOUT_MS,
        "rpc timeout should be at least %,d ms: a GC pause or a region move makes shorter calls"
            + " fail (%,d ms < %,d ms)");
  }

  /** {@code hbase.client.retries.number ≥ 5}. */
  public static List<ConfigFinding> retriesAtLeast5(Map<String, String> conf) {
    return atLeast(
        conf,
        RETRIES,
        DEFAULT_RETRIES,
        MIN_RETRIES,
        "retries should be at least %d: fewer fail requests during a region move or a RegionServer"
            + " restart (%d < %d)");
  }

  /**
   * A setting below its minimum (HBase client guidance): a violation whose message is {@code
   * problem} formatted with the minimum, the value and the minimum again.
   */
  private static List<ConfigFinding> atLeast(
      Map<String, String> conf, String key, long defaultValue, long min, String problem) {
    Setting setting = number(conf, key, defaultValue);
    if (setting.value >= min) {
      return List.of();
    }
    return List.of(
        new ConfigFinding(
            Severity.VIOLATION,
            key,
            setting.shown,
            String.format(Locale.ROOT, problem, min, setting.value, min),
            String.format(
                Locale.ROOT,
                "set %s to at least %d and keep %s above rpc timeout x retries",
                key,
                min,
                OPERATION_TIMEOUT)));
  }

  /**
   * One next() batch of {@code caching} rows, produced at the assumed slowest rate, must finish
   * within the scanner timeout: {@code caching ÷ rows/s < hbase.client.scanner.timeout.period}. The
   * job caching ({@value #MR_SCAN_CACHING}) is checked if set, else the client caching; an unset
   * caching (HBase's default, unlimited rows bounded by {@code
   * hbase.client.scanner.max.result.size}) is not a row-count problem.
   */
  public static List<ConfigFinding> scannerBatchFitsTimeout(
      Map<String, String> conf, long assumedRowsPerSecond) {
    if (assumedRowsPerSecond <= 0) {
      throw new IllegalArgumentException(
          "assumed scan rows per second must be > 0, got " + assumedRowsPerSecond);
    }
    Setting timeout = number(conf, SCANNER_TIMEOUT, DEFAULT_SCANNER_TIMEOUT_MS);
    List<ConfigFinding> out = new ArrayList<>();
    for (String key : List.of(MR_SCAN_CACHING, SCANNER_CACHING)) {
      if (!conf.containsKey(key)) {
        continue;
      }
      Setting caching = number(conf, key, Integer.MAX_VALUE);
      if (caching.value >= Integer.MAX_VALUE) {
        continue; // unlimited rows: the batch is bounded by bytes (max.result.size), not rows
      }
      double batchMs = caching.value * 1000.0 / assumedRowsPerSecond;
      if (batchMs >= timeout.value) {
        long maxCaching = Math.max(1, (timeout.value / 2) * assumedRowsPerSecond / 1000);
        out.add(
            new ConfigFinding(
                Severity.VIOLATION,
                key,
                caching.shown,
                String.format(
                    Locale.ROOT,
                    "one scanner batch of %,d rows at an assumed %,d rows/s (a filtered or "
                        + "cold scan) takes %,.0f ms, not within %s = %,d ms: the scanner lease expires and the retry "
                        + "repeats the same batch",
                    caching.value,
                    assumedRowsPerSecond,
                    batchMs,
                    SCANNER_TIMEOUT,
                    timeout.value),
                String.format(
                    Locale.ROOT,
                    "set %s to at most %,d (half the timeout's worth of rows), or raise %s "
                        + "above %,d ms",
                    key,
                    maxCaching,
                    SCANNER_TIMEOUT,
                    (long) Math.ceil(batchMs) * 2)));
      }
      break; // only the caching the scans actually use
    }
    return out;
  }

  /**
   * WAL disabled: a {@code hbase.wal.provider} of {@code disabled}, or any {@code *durability}
   * setting (for example HBase Import's {@code import.wal.durability}) of {@code SKIP_WAL}. Seed
   * 003: rows written since the last flush are lost when a RegionServer dies.
   */
  public static List<ConfigFinding> walEnabled(Map<String, String> conf) {
    List<ConfigFinding> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(conf).entrySet()) {
      String key = e.getKey();
      String value = e.getValue() == null ? "" : e.getValue().trim();
      boolean providerOff = key.equals(WAL_PROVIDER) || key.equals("hbase.wal.meta_provider");
      if (providerOff && value.equalsIgnoreCase("disabled")) {
        out.add(
            new ConfigFinding(
                Severity.WARNING,
                key,
                value,
                "the write-ahead log is disabled: every edit not yet flushed is lost when a RegionServer dies",
                String.format(
                    "remove %s (default: the filesystem WAL) unless losing unflushed data is"
                        + " acceptable",
                    key)));
      } else if (key.toLowerCase(Locale.ROOT).endsWith("durability")
          && value.equalsIgnoreCase("SKIP_WAL")) {
        out.add(
            new ConfigFinding(
                Severity.WARNING,
                key,
                value,
                "SKIP_WAL durability: writes bypass the write-ahead log and are lost if a RegionServer dies before "
                    + "the memstore flushes",
                "set "
                    + key
                    + " to USE_DEFAULT (or ASYNC_WAL if about a second of loss is acceptable); for bulk "
                    + "backfills write HFiles and bulk-load them instead"));
      }
    }
    return out;
  }

  /**
   * Full-table scans (Spark/MapReduce jobs through TableInputFormat) with the block cache on: a
   * one-pass read of the whole table evicts the blocks the online readers need. HBase's guidance:
   * enable the block cache only for data that is read repeatedly.
   */
  public static List<ConfigFinding> blockCacheOffForFullScans(Map<String, String> conf) {
    String v = conf.get(MR_SCAN_CACHEBLOCKS);
    if (v == null || !v.trim().equalsIgnoreCase("true")) {
      return List.of();
    }
    return List.of(
        new ConfigFinding(
            Severity.WARNING,
            MR_SCAN_CACHEBLOCKS,
            v.trim(),
            "full-table job scans fill the RegionServers' block cache with blocks read once, evicting the online "
                + "readers' working set",
            "set "
                + MR_SCAN_CACHEBLOCKS
                + " to false (TableInputFormat's default; rekey's scans turn it off)"));
  }

  private record Setting(long value, String shown) {}

  private static Setting number(Map<String, String> conf, String key, long dflt) {
    String raw = conf.get(key);
    if (raw == null || raw.isBlank()) {
      return new Setting(dflt, dflt + " (default)");
    }
    try {
      return new Setting(Long.parseLong(raw.trim()), raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          String.format("Cannot check %s: '%s' is not a whole number", key, raw));
    }
  }

  private static long roundUp(long ms) {
    long step = ms >= 100_000 ? 10_000 : 1_000;
    return (ms + step - 1) / step * step;
  }
}
