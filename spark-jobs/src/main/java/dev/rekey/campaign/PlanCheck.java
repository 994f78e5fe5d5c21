package dev.rekey.campaign;

import dev.rekey.common.RekeyException;
import dev.rekey.read.RegionReader;
import dev.rekey.read.SnapshotPresence;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableSnapshotScanner;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * The plan's checks that need the cluster (run layer), after {@link PlanParser}'s and before any
 * step runs: each source exists (a table, or a snapshot the filesystem holds, unexpired), and a
 * sample of its first row keys decodes with its {@code old_layout}. Every problem is one line; any
 * problem is a usage error (exit 2) and nothing has been done.
 */
public final class PlanCheck {
  /** Row keys read from each source to check its old_layout against. */
  public static final int SAMPLE_KEYS = 100;

  private PlanCheck() {}

  /** Throws a usage RekeyException listing every problem; returns when there is none. */
  public static void check(CampaignPlan plan, Connection conn, Configuration conf)
      throws IOException {
    List<String> problems = new ArrayList<>();
    try (Admin admin = conn.getAdmin()) {
      for (int i = 0; i < plan.tables().size(); i++) {
        CampaignPlan.TablePlan t = plan.tables().get(i);
        String at = "tables[" + i + "].source";
        List<byte[]> keys;
        if (t.sourceTable() != null) {
          TableName name = TableName.valueOf(t.sourceTable());
          if (!admin.tableExists(name)) {
            problems.add(
                String.format(
                    "%s.table: table %s does not exist (list tables with `list` in the HBase"
                        + " shell)",
                    at, name));
            continue;
          }
          keys = tableKeys(conn, name);
        } else {
          Optional<String> gone = SnapshotPresence.problem(conf, t.sourceSnapshot());
          if (gone.isPresent()) {
            problems.add(
                String.format(
                    "%s.snapshot: %s (list snapshots with `list_snapshots` in the HBase shell)",
                    at, gone.get()));
            continue;
          }
          keys = snapshotKeys(conf, t.sourceSnapshot());
        }
        for (byte[] k : keys) {
          try {
            t.oldLayout().decode(k);
          } catch (RuntimeException e) {
            problems.add(
                String.format(
                    "tables[%d].old_layout: layout %s does not decode the row key 0x%s of %s (%s):"
                        + " give the layout the old keys are written in",
                    i, t.oldLayout().name(), Hex.of(k), t.describeSource(), e.getMessage()));
            break;
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      throw RekeyException.usage(
          "Campaign plan %s has %d problem(s) on the cluster; nothing was run:%n  %s",
          plan.file(), problems.size(), String.join(System.lineSeparator() + "  ", problems));
    }
  }

  private static List<byte[]> tableKeys(Connection conn, TableName name) throws IOException {
    List<byte[]> out = new ArrayList<>();
    Scan scan = new Scan().setFilter(new FirstKeyOnlyFilter()).setLimit(SAMPLE_KEYS);
    try (Table t = conn.getTable(name);
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        out.add(r.getRow());
      }
    }
    return out;
  }

  /** The snapshot's first keys, read from its files (restored as links, removed after). */
  private static List<byte[]> snapshotKeys(Configuration conf, String snapshot) throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path restore =
        new Path(RegionReader.defaultRestoreRoot(fs), "campaign-check-" + UUID.randomUUID());
    List<byte[]> out = new ArrayList<>();
    try (TableSnapshotScanner s =
        new TableSnapshotScanner(
            conf, root, restore, snapshot, new Scan().setFilter(new FirstKeyOnlyFilter()))) {
      for (Result r = s.next(); r != null && out.size() < SAMPLE_KEYS; r = s.next()) {
        out.add(r.getRow());
      }
    } finally {
      fs.delete(restore, true);
    }
    return out;
  }
}
