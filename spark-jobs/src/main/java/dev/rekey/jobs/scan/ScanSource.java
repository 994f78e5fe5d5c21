package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RekeyException;

/** What the scan reads: a live table (through the RegionServers) or a snapshot (its files, no RegionServer load). */
public record ScanSource(Kind kind, String name) {
  public enum Kind { TABLE, SNAPSHOT }

  public ScanSource {
    if (name == null || name.isBlank()) {
      throw RekeyException.usage("Missing " + (kind == Kind.TABLE ? "--table" : "--snapshot") + " name");
    }
  }

  public static ScanSource table(String name) {
    return new ScanSource(Kind.TABLE, name);
  }

  public static ScanSource snapshot(String name) {
    return new ScanSource(Kind.SNAPSHOT, name);
  }

  /** From the CLI: exactly one of --table and --snapshot. */
  public static ScanSource of(String table, String snapshot) {
    if ((table == null) == (snapshot == null)) {
      throw RekeyException.usage("Give exactly one of --table T (live table) or --snapshot S (its files, no load on "
          + "the RegionServers)");
    }
    return table != null ? table(table) : snapshot(snapshot);
  }

  @Override
  public String toString() {
    return (kind == Kind.TABLE ? "table " : "snapshot ") + name;
  }
}
