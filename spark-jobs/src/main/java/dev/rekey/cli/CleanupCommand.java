package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TableNames;
import dev.rekey.read.TemporarySnapshots;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * rekey cleanup: removes the temporary snapshots (and their restore dirs) that killed runs left
 * behind.
 */
@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    description =
        "Remove temporary rekey_* snapshots (verify, scan, reconcile, repair) and their restore dirs left by runs "
            + "that were killed; a leaked snapshot keeps its HFiles on disk after every compaction.",
    footer = {"", "Example:", "  bin/rekey cleanup --older-than PT1H --dry-run"})
public final class CleanupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin GlobalOptions global;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION",
      defaultValue = "PT6H",
      description =
          "Only snapshots taken longer ago than this, so that running jobs keep theirs (ISO-8601 duration, "
              + "e.g. PT30M; default: ${DEFAULT-VALUE}).")
  String olderThan;

  @Option(
      names = "--table",
      paramLabel = "T",
      description = "Only the temporary snapshots of this table.")
  String table;

  @Option(names = "--dry-run", description = "List what would be removed; remove nothing.")
  boolean dryRun;

  @Override
  public Integer call() throws Exception {
    global.applyLogging();
    Duration age;
    try {
      age = Duration.parse(olderThan);
    } catch (java.time.format.DateTimeParseException e) {
      throw RekeyException.usage(
          "Invalid --older-than '%s': expected an ISO-8601 duration such as PT6H or PT30M",
          olderThan);
    }
    TableName t = table == null ? null : TableNames.parse(table, "clean up after");
    PrintWriter out = spec.commandLine().getOut();
    try (Connection conn = ConnectionFactory.createConnection(global.hbaseConf());
        Admin admin = conn.getAdmin()) {
      List<TemporarySnapshots.Leftover> found =
          TemporarySnapshots.find(
              admin,
              conn.getConfiguration(),
              TemporarySnapshots.PREFIX,
              t,
              System.currentTimeMillis() - age.toMillis());
      for (TemporarySnapshots.Leftover l : found) {
        out.println((dryRun ? "would remove " : "removing ") + l.describe());
      }
      if (!dryRun) {
        TemporarySnapshots.remove(admin, conn.getConfiguration(), found);
      }
      out.printf(
          "%s %d temporary snapshot(s) taken more than %s ago%s%n",
          dryRun ? "Would remove" : "Removed",
          found.size(),
          olderThan,
          t == null ? "" : " of " + t);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
