package dev.rekey.targets;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;

/**
 * A table and the layout of its keys, optionally read through one of its snapshots: what every
 * command that takes several tables repeats ({@code --target TABLE=LAYOUT}), and what a job runs
 * once per table (backfill's targets, the new tables reconcile compares and repair repairs).
 * Checked where it is used: each job names its own options in its messages.
 *
 * @param table the table's name ({@code ns:table} or {@code table})
 * @param layout the layout its row keys are written in
 * @param snapshot a snapshot of the table to read instead of its live rows, or null
 */
public record Target(String table, KeyLayout layout, String snapshot) {
  /** The option that gives a target, as its messages name it. */
  public static final String OPTION = "--target";

  /** The live table {@code table} with keys in {@code layout}. */
  public static Target of(String table, KeyLayout layout) {
    return new Target(table, layout, null);
  }

  /**
   * A {@code TABLE=LAYOUT} value: the table and its layout (a file, or a name from conf/layouts); a
   * value of another shape, or a layout that does not load, is a usage error naming it.
   */
  public static Target parse(String value) {
    int eq = value.indexOf('=');
    if (eq <= 0 || eq == value.length() - 1) {
      throw RekeyException.usage(
          "Invalid %s '%s': expected TABLE=LAYOUT (e.g. %s"
              + " telemetry_by_device=telemetry-by-device)",
          OPTION, value, OPTION);
    }
    return of(
        value.substring(0, eq), LayoutFiles.load(value.substring(eq + 1), OPTION + " " + value));
  }

  /** What a job reads of this target: its snapshot when it has one, else the live table. */
  public Source source() {
    return snapshot == null ? Source.table(table) : Source.snapshot(snapshot);
  }

  /** The name of this target's own folder (report, staging): see {@link #folderName(String)}. */
  public String folderName() {
    return folderName(table);
  }

  /**
   * The folder (or file name part) a table's own files go in: its name with the namespace's {@code
   * :} as {@code _} ({@code ns:t} → {@code ns_t}), as a path segment may not hold a colon on every
   * filesystem (Hadoop's Path reads {@code ns:t} as a scheme).
   */
  public static String folderName(String table) {
    return table.replace(':', '_');
  }
}
