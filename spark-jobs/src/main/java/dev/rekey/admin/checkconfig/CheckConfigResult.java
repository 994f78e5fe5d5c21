package dev.rekey.admin.checkconfig;

import dev.rekey.admin.checkconfig.ConfigFinding.Severity;
import dev.rekey.common.ExitCodes;
import java.util.List;

/**
 * The outcome of check-config: where the configuration came from, the assumption the scanner rule
 * used and the findings. Exit 0 when there is no violation (and, with {@code strict}, no warning),
 * else 3.
 */
public record CheckConfigResult(
    String source, long assumedScanRowsPerSecond, List<ConfigFinding> findings) {
  public CheckConfigResult {
    findings = List.copyOf(findings);
  }

  public long violations() {
    return findings.stream().filter(f -> f.severity() == Severity.VIOLATION).count();
  }

  public long warnings() {
    return findings.stream().filter(f -> f.severity() == Severity.WARNING).count();
  }

  public int exitCode(boolean strict) {
    return violations() > 0 || (strict && warnings() > 0) ? ExitCodes.MISMATCH : ExitCodes.OK;
  }
}
