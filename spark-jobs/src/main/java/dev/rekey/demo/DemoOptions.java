package dev.rekey.demo;

import dev.rekey.common.RekeyException;
import java.nio.file.Path;

/**
 * What the demo runs with, validated when built.
 *
 * @param rows synthetic readings to write (default 1,000,000)
 * @param devices devices they come from
 * @param runDir the embedded server's run directory
 * @param stop stop the embedded server at the end
 * @param writers how the new tables get the writes of the migration window
 */
public record DemoOptions(long rows, int devices, Path runDir, boolean stop, Writers writers) {
  /**
   * DUAL: the writer writes every table (rekey-client's DualWriter); REPLICATION: it writes the old
   * table alone and a rekeying replication peer brings its edits to the new ones.
   */
  public enum Writers {
    DUAL,
    REPLICATION
  }

  public DemoOptions(long rows, int devices, Path runDir, boolean stop) {
    this(rows, devices, runDir, stop, Writers.DUAL);
  }

  public DemoOptions {
    if (rows < 1) {
      throw RekeyException.usage(
          "Cannot run the demo: --rows %d is not a count of rows (give 1 or more)", rows);
    }
    if (devices < 1 || devices > rows) {
      throw RekeyException.usage(
          "Cannot run the demo: --devices %d is out of range (give 1 to --rows, %d)",
          devices, rows);
    }
  }
}
