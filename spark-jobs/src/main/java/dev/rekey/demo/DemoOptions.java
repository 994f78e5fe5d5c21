package dev.rekey.demo;

import dev.rekey.jobs.common.RekeyException;
import java.nio.file.Path;

/**
 * What the demo runs with, validated when built.
 *
 * @param rows synthetic readings to write (default 1,000,000)
 * @param devices devices they come from
 * @param runDir the embedded server's run directory
 * @param stop stop the embedded server at the end
 * @param writers how the new table gets the writes made during the migration
 */
public record DemoOptions(long rows, int devices, Path runDir, boolean stop, Writers writers) {
  /**
   * The migration's second step: the writers write both tables, or replication does it for them.
   */
  public enum Writers {
    /** The client's DualWriter writes both tables. */
    dual,
    /** The writer writes telemetry_v1 only; {@code rekey replicate} carries its edits. */
    replication
  }

  public DemoOptions(long rows, int devices, Path runDir, boolean stop) {
    this(rows, devices, runDir, stop, Writers.dual);
  }

  public DemoOptions {
    if (rows < 1) {
      throw RekeyException.usage(
          "Cannot run the demo: --rows " + rows + " is not a count of rows (give 1 or more)");
    }
    if (devices < 1 || devices > rows) {
      throw RekeyException.usage(
          "Cannot run the demo: --devices "
              + devices
              + " is out of range (give 1 to --rows, "
              + rows
              + ")");
    }
  }
}
