package dev.rekey.cli;

import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.admin.replicate.ReplicationStatus;
import dev.rekey.common.ClusterSite;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.replication.ReplicationSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * rekey replicate start|status|stop: a replication peer whose endpoint rekeys every edit of the old
 * table into the new one(s), inside the source's RegionServers (docs/replication.md).
 */
@Command(
    name = "replicate",
    mixinStandardHelpOptions = true,
    description =
        "Replicate every edit of the old table into the new table(s) under the new key: start (scope +"
            + " peer), status (per RegionServer: edits shipped, lag, age of the last shipped edit),"
            + " stop (peer and scope removed).",
    footer = {"", "Example:", "  bin/rekey replicate status"})
public final class ReplicateCommand implements Callable<Integer> {
  enum Action {
    start,
    status,
    stop
  }

  @Mixin GlobalOptions global;

  @Parameters(
      index = "0",
      paramLabel = "start|status|stop",
      description = "What to do: ${COMPLETION-CANDIDATES}.")
  Action action;

  @Option(
      names = "--source-table",
      paramLabel = "T",
      description = "The old table (start, stop; status: only its peer).")
  String sourceTable;

  @Option(
      names = "--source-layout",
      paramLabel = "L1",
      description = "Layout of the old keys (file or name under conf/layouts; start).")
  String sourceLayout;

  @Option(
      names = "--target-table",
      paramLabel = "T2",
      description =
          "An existing new table (start; repeatable, paired in order with --target-layout).")
  List<String> targetTables = new ArrayList<>();

  @Option(
      names = "--target-layout",
      paramLabel = "L2",
      description = "Layout of the new keys of each --target-table (start).")
  List<String> targetLayouts = new ArrayList<>();

  /** The new tables' cluster, when it is not the old table's (--hbase-site): start. */
  @Mixin SiteOption.New newSite;

  @Option(
      names = "--quarantine-table",
      paramLabel = "Q",
      defaultValue = ReplicationSettings.DEFAULT_QUARANTINE_TABLE,
      description =
          "Where edits whose key cannot be rekeyed go, created if absent (start; default:"
              + " ${DEFAULT-VALUE}).")
  String quarantineTable;

  @Override
  public Integer call() throws IOException {
    global.applyLogging();
    ReplicationSettings settings = action == Action.start ? settings() : null;
    if (action == Action.stop && sourceTable == null) {
      throw RekeyException.usage("Cannot stop replicating: give the old table with --source-table");
    }
    ClusterSite newCluster = newSite.site();
    org.apache.hadoop.conf.Configuration targetConf = newCluster == null ? null : newCluster.conf();
    try (Connection conn = ConnectionFactory.createConnection(global.hbaseConf());
        Connection targets =
            targetConf == null ? null : ConnectionFactory.createConnection(targetConf)) {
      ReplicationPeers peers = new ReplicationPeers(conn, targets == null ? conn : targets);
      switch (action) {
        case start -> System.out.println(peers.start(settings));
        case stop -> System.out.println(peers.stop(sourceTable));
        case status -> {
          List<ReplicationStatus> all = peers.status(sourceTable);
          if (all.isEmpty()) {
            System.out.println(
                sourceTable == null
                    ? "no rekey replication peers (start one with `rekey replicate start`)"
                    : "no rekey replication peer for " + sourceTable);
          }
          all.forEach(s -> System.out.println(s.console()));
        }
      }
    }
    return ExitCodes.OK;
  }

  /** start's options, checked before any connection: the layouts travel as their files' text. */
  private ReplicationSettings settings() {
    if (sourceTable == null || sourceLayout == null || targetTables.isEmpty()) {
      throw RekeyException.usage(
          "Cannot start replicating: give --source-table, --source-layout, --target-table and"
              + " --target-layout");
    }
    if (targetTables.size() != targetLayouts.size()) {
      throw RekeyException.usage(
          "Cannot start replicating %s: %d --target-table for %d --target-layout (give one layout"
              + " per target table, in the same order)",
          sourceTable, targetTables.size(), targetLayouts.size());
    }
    List<ReplicationSettings.Target> targets = new ArrayList<>();
    for (int i = 0; i < targetTables.size(); i++) {
      targets.add(
          new ReplicationSettings.Target(
              targetTables.get(i), layoutText(targetLayouts.get(i), "--target-layout")));
    }
    return new ReplicationSettings(
        sourceTable,
        layoutText(sourceLayout, "--source-layout"),
        targets,
        quarantineTable,
        targetCluster());
  }

  /** What of --new-hbase-site the peer carries to the endpoint (none: the source's cluster). */
  private java.util.Map<String, String> targetCluster() {
    ClusterSite newCluster = newSite.site();
    return newCluster == null
        ? java.util.Map.of()
        : ReplicationSettings.clusterOf(newCluster.conf());
  }

  private static String layoutText(String arg, String option) {
    // loaded first: a bad layout is refused here with the loader's message
    String source = LayoutFiles.load(arg, option).source();
    try {
      return Files.readString(java.nio.file.Path.of(source), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw RekeyException.usage("Cannot read layout %s (%s): %s", source, option, e.getMessage());
    }
  }
}
