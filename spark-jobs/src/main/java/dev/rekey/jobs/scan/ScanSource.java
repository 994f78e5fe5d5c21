package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RekeyException;

/**
 * What the scan reads: a live table (through the RegionServers), a snapshot (its files, no
 * RegionServer load), or a live table through a snapshot the job takes and deletes ({@code
 * --via-snapshot}).
 */
public record ScanSource(Kind kind, String name) {
  public enum Kind {
    TABLE,
    SNAPSHOT,
    TABLE_VIA_SNAPSHOT
  }

  public ScanSource {
    if (name == null || name.isBlank()) {
      throw RekeyException.usage(
          "Missing " + (kind == Kind.SNAPSHOT ? "--snapshot" : "--table") + " name");
    }
  }

  public static ScanSource table(String name) {
    return new ScanSource(Kind.TABLE, name);
  }

  public static ScanSource snapshot(String name) {
    return new ScanSource(Kind.SNAPSHOT, name);
  }

  public static ScanSource tableViaSnapshot(String table) {
    return new ScanSource(Kind.TABLE_VIA_SNAPSHOT, table);
  }

  /** From the CLI: exactly one of --table and --snapshot; --via-snapshot goes with --table. */
  public static ScanSource of(String table, String snapshot, boolean viaSnapshot) {
    if ((table == null) == (snapshot == null)) {
      throw RekeyException.usage(
          "Give exactly one of --table T (live table) or --snapshot S (its files, no load on "
              + "the RegionServers)");
    }
    if (viaSnapshot && table == null) {
      throw RekeyException.usage(
          "--via-snapshot reads a live --table through a snapshot taken for the scan; "
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
