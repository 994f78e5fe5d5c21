package dev.rekey.jobs.backfill.staging;

/**
 * One target region in the manifest: its boundaries at write time (hex; end empty = last region),
 * what was written for it, and its ledger state.
 */
public record RegionEntry(
    int index,
    String name,
    String startHex,
    String endHex,
    long rows,
    long cells,
    long bytes,
    int files,
    RegionState state) {

  public RegionEntry withState(RegionState s) {
    return new RegionEntry(index, name, startHex, endHex, rows, cells, bytes, files, s);
  }

  public RegionEntry withFiles(int f) {
    return new RegionEntry(index, name, startHex, endHex, rows, cells, bytes, f, state);
  }
}
