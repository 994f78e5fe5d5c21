package dev.rekey.bench;

/** The backfill benches' result records (bench/record.py, bench "backfill"). */
final class BackfillRecords {
  private BackfillRecords() {}

  /**
   * Appends one result to the benches' records (bench/record.py): round {@code round} (a warm-up
   * round is recorded as such and left out of the figures), the ratio baseline / rekey, the target
   * ratio or none.
   */
  static void record(
      int round,
      boolean warmUp,
      long rows,
      String variant,
      String baseline,
      double rekeySeconds,
      double baseSeconds,
      Double target)
      throws Exception {
    java.nio.file.Path home = java.nio.file.Path.of(System.getProperty("rekey.home", ".."));
    Process p =
        new ProcessBuilder(
                "python3",
                home.resolve("bench/record.py").toString(),
                "backfill",
                Integer.toString(round),
                variant,
                baseline,
                Long.toString(rows),
                Double.toString(rekeySeconds),
                Double.toString(baseSeconds),
                Double.toString(baseSeconds / rekeySeconds),
                target == null ? "" : Double.toString(target),
                warmUp ? "warm-up" : "")
            .inheritIO()
            .start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bench/record.py failed");
    }
  }
}
