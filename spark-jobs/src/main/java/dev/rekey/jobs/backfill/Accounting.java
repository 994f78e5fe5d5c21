package dev.rekey.jobs.backfill;

/** {@code read = written + quarantined + filtered} (DESIGN §6): rows, not cells. */
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
