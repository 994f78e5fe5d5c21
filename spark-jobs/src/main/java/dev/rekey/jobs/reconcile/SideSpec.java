package dev.rekey.jobs.reconcile;

import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;

/**
 * One side of a reconciliation: a live table or a snapshot, and the layout its row keys are written
 * in.
 *
 * @param role "old" or "new", for messages and option names
 */
public record SideSpec(String role, String table, String snapshot, KeyLayout layout)
    implements Serializable {
  public SideSpec {
    if ((table == null) == (snapshot == null)) {
      throw new IllegalArgumentException(
          "Give exactly one of --"
              + role
              + "-table and --"
              + role
              + "-snapshot"
              + (table != null ? " (got both: " + table + ", " + snapshot + ")" : ""));
    }
    if (layout == null) {
      throw new IllegalArgumentException(
          "--"
              + role
              + "-layout is required: the layout file the "
              + role
              + " side's row keys are written in (e.g. conf/layouts/telemetry-v1.yaml)");
    }
  }

  public static SideSpec table(String role, String table, KeyLayout layout) {
    return new SideSpec(role, table, null, layout);
  }

  public static SideSpec snapshot(String role, String snapshot, KeyLayout layout) {
    return new SideSpec(role, null, snapshot, layout);
  }

  public boolean isSnapshot() {
    return snapshot != null;
  }

  /** "table telemetry_v1" or "snapshot telemetry_v1_snap". */
  public String describe() {
    return isSnapshot() ? "snapshot " + snapshot : "table " + table;
  }
}
