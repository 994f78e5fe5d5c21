package dev.rekey.cli;

import dev.rekey.common.RekeyException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * On an HBase with authorization (AccessController), the rights a command needs on each table,
 * asked of HBase for the logged-in user before any read: a missing one is refused in one line that
 * names it and the grant that adds it, exit 2, instead of a job failing later with an
 * AccessDeniedException on an executor (or, for a snapshot's files, an HDFS permission error).
 *
 * <p>What each command needs (the least that works, as run on the kerberized stack): reading a
 * table or a snapshot of it: {@code R} (a snapshot's files are readable through HDFS ACLs HBase
 * sets for users with READ on the table, SnapshotScannerHDFSAclController); taking a snapshot (scan
 * --via-snapshot, a backfill's verification of cells): {@code A}; bulk loading (backfill): {@code
 * C}.
 */
final class TableRights {
  /** A table a command reads or writes, or a snapshot it reads, and the rights it needs there. */
  record Need(String table, String snapshot, String actions, String why) {
    static Need table(String table, String actions, String why) {
      return new Need(table, null, actions, why);
    }

    static Need snapshot(String snapshot, String why) {
      return new Need(null, snapshot, "R", why);
    }
  }

  /** A command that declares the table rights it needs. */
  interface Needs {
    List<Need> tableRights();
  }

  private TableRights() {}

  static void check(Configuration conf, List<Need> needs) {
    if (needs.isEmpty() || !conf.getBoolean("hbase.security.authorization", false)) {
      return;
    }
    String user;
    try {
      user = UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return; // the login check said what is wrong
    }
    Map<String, Need> byTable = new LinkedHashMap<>();
    for (Need n : needs) {
      String table = n.table() != null ? n.table() : snapshotTable(conf, n.snapshot(), user);
      if (table == null) {
        continue; // no such snapshot: the command says so itself
      }
      Need merged = byTable.get(table);
      byTable.put(
          table,
          merged == null
              ? new Need(table, n.snapshot(), n.actions(), n.why())
              : new Need(
                  table,
                  merged.snapshot(),
                  union(merged.actions(), n.actions()),
                  merged.why() + "; " + n.why()));
    }
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      for (Need n : byTable.values()) {
        TableName t = TableName.valueOf(n.table());
        List<Permission> asked = new ArrayList<>();
        for (char a : n.actions().toCharArray()) {
          asked.add(Permission.newBuilder(t).withActions(action(a)).build());
        }
        List<Boolean> has = admin.hasUserPermissions(asked);
        StringBuilder missing = new StringBuilder();
        for (int i = 0; i < asked.size(); i++) {
          if (!has.get(i)) {
            missing.append(n.actions().charAt(i));
          }
        }
        if (missing.length() > 0) {
          throw RekeyException.usage(
              "Cannot run as %s: it lacks %s on table %s, needed to %s. An HBase admin adds it"
                  + " with: grant '%s', '%s', '%s'",
              user, names(missing.toString()), n.table(), n.why(), user, n.actions(), n.table());
        }
      }
    } catch (IOException e) {
      // cannot ask (an older server without hasUserPermissions): the job meets the same rights
    }
  }

  /**
   * The table a snapshot was taken of, read from its description on the filesystem as this user;
   * null when there is no such snapshot. No access to it is refused here: HBase gives a user read
   * access to a snapshot's files with READ on its table.
   */
  private static String snapshotTable(Configuration conf, String snapshot, String user) {
    try {
      Path root = CommonFSUtils.getRootDir(conf);
      FileSystem fs = root.getFileSystem(conf);
      Path dir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, root);
      return SnapshotDescriptionUtils.readSnapshotInfo(fs, dir).getTable();
    } catch (AccessControlException e) {
      throw RekeyException.usage(
          "Cannot read snapshot %s as %s: HBase gives a user its files with READ on the"
              + " snapshot's table (the table needs hbase.acl.sync.to.hdfs.enable=true). An HBase"
              + " admin adds it with: grant '%s', 'R', 'TABLE_OF_%s'",
          snapshot, user, user, snapshot);
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      if (e.getCause() instanceof AccessControlException
          || String.valueOf(e.getMessage()).contains("Permission denied")) {
        throw RekeyException.usage(
            "Cannot read snapshot %s as %s: HBase gives a user its files with READ on the"
                + " snapshot's table (the table needs hbase.acl.sync.to.hdfs.enable=true). An"
                + " HBase admin adds it with: grant '%s', 'R', 'TABLE_OF_%s'",
            snapshot, user, user, snapshot);
      }
      return null;
    }
  }

  private static Permission.Action action(char c) {
    return switch (c) {
      case 'R' -> Permission.Action.READ;
      case 'W' -> Permission.Action.WRITE;
      case 'X' -> Permission.Action.EXEC;
      case 'C' -> Permission.Action.CREATE;
      case 'A' -> Permission.Action.ADMIN;
      default -> throw new IllegalArgumentException("no HBase action " + c);
    };
  }

  private static String names(String actions) {
    List<String> n = new ArrayList<>();
    for (char c : actions.toCharArray()) {
      n.add(action(c).name());
    }
    return String.join(" and ", n);
  }

  private static String union(String a, String b) {
    StringBuilder s = new StringBuilder();
    for (char c : "RWXCA".toCharArray()) {
      if (a.indexOf(c) >= 0 || b.indexOf(c) >= 0) {
        s.append(c);
      }
    }
    return s.toString();
  }
}
