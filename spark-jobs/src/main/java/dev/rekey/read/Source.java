package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.Serializable;

/**
 * What a job reads: a live table (through the RegionServers), a snapshot (its files, no
 * RegionServer load), or a live table through a snapshot the job takes and deletes ({@code
 * --via-snapshot}).
 */
public record Source(Kind kind, String name) implements Serializable {
  public enum Kind {
    TABLE,
    SNAPSHOT,
    TABLE_VIA_SNAPSHOT
  }

  public Source {
    if (name == null || name.isBlank()) {
      throw RekeyException.usage(
          "Missing " + (kind == Kind.SNAPSHOT ? "--snapshot" : "--table") + " name");
    }
  }

  public static Source table(String name) {
    return new Source(Kind.TABLE, name);
  }

  public static Source snapshot(String name) {
    return new Source(Kind.SNAPSHOT, name);
  }

  public static Source tableViaSnapshot(String table) {
    return new Source(Kind.TABLE_VIA_SNAPSHOT, table);
  }

  /** From the CLI: exactly one of --table and --snapshot; --via-snapshot goes with --table. */
  public static Source of(String table, String snapshot, boolean viaSnapshot) {
    if ((table == null) == (snapshot == null)) {
      throw RekeyException.usage(
          "Give exactly one of --table T (live table) or --snapshot S (its files, no load on "
              + "the RegionServers)");
    }
    if (viaSnapshot && table == null) {
      throw RekeyException.usage(
          "--via-snapshot reads a live --table through a snapshot taken for the job; "
              + "--snapshot "
              + snapshot
              + " is read from its files already (drop --via-snapshot)");
    }
    return table == null
        ? snapshot(snapshot)
        : viaSnapshot ? tableViaSnapshot(table) : table(table);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case TABLE -> "table " + name;
      case SNAPSHOT -> "snapshot " + name;
      case TABLE_VIA_SNAPSHOT -> "table " + name + " (via a snapshot)";
    };
  }
}
