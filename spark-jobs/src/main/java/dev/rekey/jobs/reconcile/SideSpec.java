package dev.rekey.jobs.reconcile;

import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;

/**
 * One side of a reconciliation: what is read (a live table, a snapshot, or a live table through a
 * snapshot taken for the run) and the layout its row keys are written in.
 *
 * @param role "old" or "new", for messages and option names
 */
public record SideSpec(String role, Source source, KeyLayout layout) implements Serializable {
  public SideSpec {
    if (source == null) {
      throw new IllegalArgumentException(
          "Give --" + role + "-table or --" + role + "-snapshot: what the " + role + " side reads");
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
    return new SideSpec(role, Source.table(table), layout);
  }

  public static SideSpec snapshot(String role, String snapshot, KeyLayout layout) {
    return new SideSpec(role, Source.snapshot(snapshot), layout);
  }

  /** This side read through a snapshot taken for the run, if it is a live table. */
  public SideSpec viaSnapshot() {
    return source.kind() == Source.Kind.TABLE
        ? new SideSpec(role, Source.tableViaSnapshot(source.name()), layout)
        : this;
  }

  public boolean isSnapshot() {
    return source.kind() == Source.Kind.SNAPSHOT;
  }

  /** "table telemetry_v1" or "snapshot telemetry_v1_snap". */
  public String describe() {
    return (isSnapshot() ? "snapshot " : "table ") + source.name();
  }
}
