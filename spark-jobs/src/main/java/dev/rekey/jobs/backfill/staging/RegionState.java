package dev.rekey.jobs.backfill.staging;

/**
 * The per-region ledger: a region moves WRITTEN → LOADED → VERIFIED; --resume redoes whatever is
 * not VERIFIED.
 */
public enum RegionState {
  /** Planned only (dry run). */
  PLANNED,
  /** HFiles committed in the staging dir. */
  WRITTEN,
  /** HFiles bulk-loaded into the target table (the staging copy is kept). */
  LOADED,
  /**
   * Rows counted in the table equal the manifest's; the staging files of the region are removed.
   */
  VERIFIED
}
