package dev.rekey.demo;

import dev.rekey.common.RekeyException;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Table;

/**
 * A demo story run through a cluster's spark-submit ({@link ClusterDemo}, {@link TwoClusterDemo}):
 * its size, the application jar, and its output — numbered step headings, the lines under them
 * indented, and each submission's time and outcome.
 */
abstract class ClusterStory {
  protected final long rows;
  protected final int devices;
  protected final Path jar;
  protected final PrintStream out;
  private final Steps steps;

  ClusterStory(long rows, int devices, Path jar, PrintStream out) {
    this.rows = rows;
    this.devices = devices;
    this.jar = jar;
    this.out = out;
    this.steps = new Steps(out);
  }

  /**
   * @return 0 when every step did what the story expects
   */
  public abstract int run() throws Exception;

  /** Refuses to run {@code what} (e.g. "the demo on the cluster") when the cluster is down. */
  static void requireRunning(ClusterStack cluster, String what) {
    if (!cluster.running()) {
      throw RekeyException.cannot(
          "Cannot run %s: %s is not running in %s (start it with `bin/rekey cluster start`, see"
              + " `bin/rekey cluster status`)",
          what, cluster.describe(), cluster.dir());
    }
  }

  /** The next numbered heading, its title {@link String#format formatted}. */
  void step(String title, Object... args) {
    steps.next(title, args);
  }

  /** The story's numbered headings, for a demo part that writes its own ({@link DemoPart}). */
  Steps steps() {
    return steps;
  }

  void indent(String line) {
    out.println("  " + line);
  }

  /**
   * An HBase client's comparison of {@code neu} with {@code old} by natural key, every cell and
   * version, timestamps included ({@link TableContents}): the line that says so, and 1 when they
   * differ, else 0. {@code oldRows}: the old table's contents, read once for several new tables.
   */
  int equalByNaturalKey(
      Map<String, List<String>> oldRows,
      TableName old,
      Connection conn,
      TableName neu,
      KeyLayout layout)
      throws IOException {
    Map<String, List<String>> newRows = TableContents.byNaturalKey(conn, neu, layout);
    if (oldRows.equals(newRows)) {
      out.printf(
          "  %s equals %s: %,d rows, %,d cells%n",
          neu, old, newRows.size(), TableContents.cells(newRows));
      return 0;
    }
    out.printf(
        "  %s does NOT equal %s: %,d rows in %s, %,d in %s%n",
        neu, old, newRows.size(), neu, oldRows.size(), old);
    return 1;
  }

  /**
   * Deletes the rows of {@code n} readings from a third of the way into {@code gen}'s day from
   * {@code table} with a plain client (a Delete per row: markers a re-put cell hides behind).
   */
  void deleteReadings(
      Connection conn, TableName table, KeyLayout layout, TelemetryGenerator gen, int n)
      throws IOException {
    try (Table t = conn.getTable(table)) {
      for (long i = gen.rows() / 3; i < gen.rows() / 3 + n; i++) {
        TelemetryReading r = gen.reading(i);
        t.delete(new Delete(layout.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId()))));
      }
    }
    out.printf("  deleted %d rows of %s%n", n, table);
  }

  /** {@link #report(ClusterSubmit.Outcome, int)} of a submission expected to exit 0. */
  int report(ClusterSubmit.Outcome o) {
    return report(o, 0);
  }

  /**
   * A submission's time and, when it did not end as the story expects ({@code expectedExit}, and a
   * cluster-mode driver FINISHED), the line that says so: 1 then, else 0.
   */
  int report(ClusterSubmit.Outcome o, int expectedExit) {
    out.printf(
        "  (spark-submit: %.1f s from submission to exit, exit %d)%n", o.seconds(), o.exitCode());
    if (o.exitCode() == expectedExit
        && (o.driverState() == null || o.driverState().equals("FINISHED"))) {
      return 0;
    }
    out.printf(
        "  FAILED (exit %d%s, expected %d): see %s%n",
        o.exitCode(),
        o.driverState() != null ? ", driver " + o.driverState() : "",
        expectedExit,
        o.log());
    return 1;
  }
}
