package dev.rekey.demo;

import java.nio.file.Path;

/**
 * @param rows synthetic readings to write (default 1,000,000)
 * @param devices devices they come from
 * @param runDir the embedded server's run directory
 * @param stop stop the embedded server at the end
 */
public record DemoOptions(long rows, int devices, Path runDir, boolean stop) {
  public DemoOptions {
    if (rows < 1) {
      throw new IllegalArgumentException("--rows must be at least 1 (got " + rows + ")");
    }
    if (devices < 1 || devices > rows) {
      throw new IllegalArgumentException(
          "--devices must be between 1 and --rows (got " + devices + ")");
    }
  }
}
