package dev.rekey.jobs.backfill;

/**
 * {@code read = written + quarantined + filtered} (docs/reliability.md: nothing is lost silently):
 * rows, not cells.
 */
public record Accounting(long read, long written, long quarantined, long filtered) {
  public boolean balances() {
    return read == written + quarantined + filtered;
  }

  public String line() {
    return String.format(
        "read %,d = written %,d + quarantined %,d + filtered %,d%s",
        read, written, quarantined, filtered, balances() ? "" : "  (DOES NOT BALANCE)");
  }
}
