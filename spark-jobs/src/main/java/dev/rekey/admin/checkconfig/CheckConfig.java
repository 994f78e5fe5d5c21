package dev.rekey.admin.checkconfig;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.RekeyException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** The check-config action: rules over a configuration's properties (no cluster contact). */
public final class CheckConfig {
  private final Map<String, String> properties;
  private final String source;
  private long assumedScanRowsPerSecond = ClientConfigRules.DEFAULT_ASSUMED_SCAN_ROWS_PER_SECOND;

  private CheckConfig(Map<String, String> properties, String source) {
    this.properties = Map.copyOf(properties);
    this.source = source;
  }

  public static CheckConfig of(Map<String, String> properties, String source) {
    return new CheckConfig(properties, source);
  }

  /**
   * A loaded configuration (hbase-default.xml + the site file), so unset keys show HBase's
   * defaults.
   */
  public static CheckConfig of(Configuration conf, String source) {
    return new CheckConfig(HBaseConfigs.toMap(conf), source);
  }

  public CheckConfig assumedScanRowsPerSecond(long rowsPerSecond) {
    if (rowsPerSecond <= 0) {
      throw RekeyException.usage(
          "Cannot check %s: --scan-rows-per-sec must be > 0, got %s", source, rowsPerSecond);
    }
    this.assumedScanRowsPerSecond = rowsPerSecond;
    return this;
  }

  public CheckConfigResult execute() {
    try {
      return new CheckConfigResult(
          source,
          assumedScanRowsPerSecond,
          ClientConfigRules.checkAll(properties, assumedScanRowsPerSecond));
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage("%s in %s", e.getMessage(), source);
    }
  }
}
