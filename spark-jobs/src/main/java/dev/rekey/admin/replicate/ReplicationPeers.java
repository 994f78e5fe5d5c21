package dev.rekey.admin.replicate;

import dev.rekey.common.RekeyException;
import dev.rekey.replication.Quarantine;
import dev.rekey.replication.ReplicationSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code rekey replicate start|status|stop} against a cluster: the replication scope of the source
 * table's families and the peer that names the rekeying endpoint ({@link ReplicationSettings}).
 */
public final class ReplicationPeers {
  /**
   * Peer configuration key: the source families whose scope {@code start} set (and {@code stop}
   * puts back to 0); families already replicated are left as they were.
   */
  public static final String SCOPE_SET = "rekey.replicate.scope.set";

  private final Connection conn;

  /** The targets' cluster: {@link #conn}'s, or another's (a peer with a target cluster). */
  private final Connection targetConn;

  public ReplicationPeers(Connection conn) {
    this(conn, conn);
  }

  /**
   * Peers of the source cluster {@code conn} whose targets are on the cluster of {@code targetConn}
   * (checked and given the quarantine table there).
   */
  public ReplicationPeers(Connection conn, Connection targetConn) {
    this.conn = conn;
    this.targetConn = targetConn;
  }

  /**
   * Starts replicating: refuses with the fix when the cluster, the tables or a peer are in the way.
   */
  public String start(ReplicationSettings settings) throws IOException {
    String what = "start replicating " + settings.sourceTable();
    try (Admin admin = conn.getAdmin()) {
      Optional<ReplicationPeerDescription> existing = peer(admin, settings.peerId(), what);
      if (existing.isPresent()) {
        throw RekeyException.cannot(
            "Cannot %s: replication peer %s already exists (%s; see it with `rekey replicate status"
                + " --source-table %s`, remove it with `rekey replicate stop --source-table %s`)",
            what,
            settings.peerId(),
            existing.get().isEnabled() ? "enabled" : "disabled",
            settings.sourceTable(),
            settings.sourceTable());
      }
      try {
        settings.rekeyers();
      } catch (IllegalArgumentException e) {
        throw RekeyException.usage("Cannot %s: %s", what, e.getMessage());
      }
      TableDescriptor source = descriptor(admin, settings.sourceTable(), what, "--source-table");
      startOnTargets(settings, source, what);
      List<String> scoped = new ArrayList<>();
      for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
        if (f.getScope() == HConstants.REPLICATION_SCOPE_LOCAL) {
          scoped.add(f.getNameAsString());
        }
      }
      Map<String, String> conf = new HashMap<>(settings.toPeerConfiguration());
      conf.put(SCOPE_SET, String.join(",", scoped));
      ReplicationPeerConfig peer =
          ReplicationPeerConfig.newBuilder()
              .setReplicationEndpointImpl(ReplicationSettings.ENDPOINT_CLASS)
              .setReplicateAllUserTables(false)
              .setTableCFsMap(Map.of(source.getTableName(), List.of()))
              .putAllConfiguration(conf)
              .build();
      try {
        admin.addReplicationPeer(settings.peerId(), peer);
      } catch (IOException e) {
        if (String.valueOf(e.getMessage()).contains("Can not instantiate")) {
          throw RekeyException.cannot(
              "Cannot %s: the cluster cannot load the replication endpoint %s (put"
                  + " replication/target/rekey-replication-*.jar and rowkey/target/rekey-rowkey-*.jar"
                  + " in the lib directory of every HBase master and RegionServer, and restart them"
                  + " one by one; docs/replication.md)",
              what, ReplicationSettings.ENDPOINT_CLASS);
        }
        throw e;
      }
      setScope(admin, source, scoped, HConstants.REPLICATION_SCOPE_GLOBAL);
      return String.format(
          "replication peer %s started: %s -> %s (endpoint %s; scope set on famil%s %s; quarantine"
              + " %s)",
          settings.peerId(),
          settings.sourceTable(),
          settings.targets().stream().map(ReplicationSettings.Target::table).toList(),
          ReplicationSettings.ENDPOINT_CLASS,
          scoped.size() == 1 ? "y" : "ies",
          scoped.isEmpty() ? "(none: already replicated)" : String.join(", ", scoped),
          settings.quarantineTable());
    }
  }

  /**
   * The checks and set-up on the targets' cluster: each target exists and has the source's
   * families; the quarantine table is there (created if absent).
   */
  private void startOnTargets(ReplicationSettings settings, TableDescriptor source, String what)
      throws IOException {
    try (Admin admin = targetConn.getAdmin()) {
      for (ReplicationSettings.Target t : settings.targets()) {
        TableDescriptor target = descriptor(admin, t.table(), what, "--target-table");
        Set<String> missing =
            new TreeSet<>(source.getColumnFamilyNames().stream().map(Bytes::toString).toList());
        target.getColumnFamilyNames().forEach(f -> missing.remove(Bytes.toString(f)));
        if (!missing.isEmpty()) {
          throw RekeyException.usage(
              "Cannot %s: target table %s has no famil%s %s of %s, and every edit of those would"
                  + " fail and stop the replication queue (add them: `alter '%s', NAME => '%s'` in"
                  + " the HBase shell)",
              what,
              t.table(),
              missing.size() == 1 ? "y" : "ies",
              String.join(", ", missing),
              settings.sourceTable(),
              t.table(),
              missing.iterator().next());
        }
      }
      TableName quarantine = TableName.valueOf(settings.quarantineTable());
      if (!admin.tableExists(quarantine)) {
        admin.createTable(Quarantine.descriptor(quarantine));
      }
    }
  }

  /** Removes the peer of {@code sourceTable} and the scope its start set. */
  public String stop(String sourceTable) throws IOException {
    String what = "stop replicating " + sourceTable;
    String id = ReplicationSettings.peerId(sourceTable);
    try (Admin admin = conn.getAdmin()) {
      ReplicationPeerDescription peer =
          peer(admin, id, what)
              .orElseThrow(
                  () ->
                      RekeyException.cannot(
                          "Cannot %s: there is no replication peer %s (list them with `rekey"
                              + " replicate status`)",
                          what, id));
      admin.removeReplicationPeer(id);
      String set = peer.getPeerConfig().getConfiguration().getOrDefault(SCOPE_SET, "");
      List<String> families = set.isEmpty() ? List.of() : List.of(set.split(","));
      TableName t = TableName.valueOf(sourceTable);
      if (!families.isEmpty() && admin.tableExists(t)) {
        setScope(admin, admin.getDescriptor(t), families, HConstants.REPLICATION_SCOPE_LOCAL);
      }
      return String.format(
          "replication peer %s removed; scope put back to 0 on famil%s %s",
          id, families.size() == 1 ? "y" : "ies", families.isEmpty() ? "(none)" : set);
    }
  }

  /** Every rekey peer (or the one of {@code sourceTable}), with its per-RegionServer load. */
  public List<ReplicationStatus> status(String sourceTable) throws IOException {
    List<ReplicationStatus> out = new ArrayList<>();
    try (Admin admin = conn.getAdmin()) {
      List<ReplicationPeerDescription> peers = peers(admin, "show replication");
      ClusterMetrics cluster =
          admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      for (ReplicationPeerDescription p : peers) {
        if (!ReplicationSettings.ENDPOINT_CLASS.equals(
                p.getPeerConfig().getReplicationEndpointImpl())
            || (sourceTable != null
                && !p.getPeerId().equals(ReplicationSettings.peerId(sourceTable)))) {
          continue;
        }
        ReplicationSettings s =
            ReplicationSettings.fromPeerConfiguration(p.getPeerConfig().getConfiguration());
        List<ReplicationStatus.Server> servers = new ArrayList<>();
        for (Map.Entry<ServerName, ServerMetrics> e : cluster.getLiveServerMetrics().entrySet()) {
          for (ReplicationLoadSource l : e.getValue().getReplicationLoadSourceList()) {
            if (l.getPeerID().equals(p.getPeerId())) {
              servers.add(
                  new ReplicationStatus.Server(
                      e.getKey().getServerName(),
                      l.getQueueId(),
                      l.getEditsRead(),
                      l.getOPsShipped(),
                      l.getReplicationLag(),
                      l.getAgeOfLastShippedOp(),
                      l.getTimestampOfLastShippedOp(),
                      l.getSizeOfLogQueue()));
            }
          }
        }
        out.add(
            new ReplicationStatus(
                p.getPeerId(), p.isEnabled(), s, servers, quarantined(s, p.getPeerId())));
      }
    }
    return out;
  }

  private long quarantined(ReplicationSettings s, String peerId) throws IOException {
    if (s.targetCluster().isEmpty()) {
      return quarantined(targetConn, s, peerId);
    }
    // the peer writes its quarantine on its targets' cluster
    try (Connection c =
        ConnectionFactory.createConnection(s.targetConfiguration(conn.getConfiguration()))) {
      return quarantined(c, s, peerId);
    }
  }

  /** The edits the peer's endpoint quarantined so far (0 before it quarantined any). */
  static long quarantined(Connection conn, ReplicationSettings s, String peerId)
      throws IOException {
    TableName q = TableName.valueOf(s.quarantineTable());
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(q)) {
        return 0;
      }
    }
    try (Table t = conn.getTable(q)) {
      Result r =
          t.get(
              new Get(Quarantine.counterRow(peerId))
                  .addColumn(Quarantine.FAMILY, Quarantine.COUNT));
      byte[] v = r.getValue(Quarantine.FAMILY, Quarantine.COUNT);
      return v == null ? 0 : Bytes.toLong(v);
    }
  }

  private static void setScope(Admin admin, TableDescriptor table, List<String> families, int scope)
      throws IOException {
    if (families.isEmpty()) {
      return;
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(table);
    for (String f : families) {
      ColumnFamilyDescriptor cf = table.getColumnFamily(Bytes.toBytes(f));
      if (cf != null) {
        b.modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(cf).setScope(scope).build());
      }
    }
    admin.modifyTable(b.build());
  }

  private static TableDescriptor descriptor(Admin admin, String table, String what, String option)
      throws IOException {
    TableName name;
    try {
      name = TableName.valueOf(table);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot %s: %s '%s' is not a valid table name (%s)", what, option, table, e.getMessage());
    }
    if (!admin.tableExists(name)) {
      throw RekeyException.usage(
          "Cannot %s: %s %s does not exist (create it first, e.g. with `rekey create-table`)",
          what, option, table);
    }
    return admin.getDescriptor(name);
  }

  private static Optional<ReplicationPeerDescription> peer(Admin admin, String id, String what)
      throws IOException {
    return peers(admin, what).stream().filter(p -> p.getPeerId().equals(id)).findFirst();
  }

  /** The cluster's peers; a cluster that cannot list them is refused with the fix. */
  private static List<ReplicationPeerDescription> peers(Admin admin, String what)
      throws IOException {
    try {
      return admin.listReplicationPeers();
    } catch (IOException | UnsupportedOperationException e) {
      throw RekeyException.cannot(
          e,
          "Cannot %s: the cluster does not answer replication requests (%s): replication is off or"
              + " replaced there (check hbase.replication.source.service and"
              + " hbase.replication.sink.service in the servers' hbase-site.xml, and that the master"
              + " is up)",
          what,
          e.getMessage());
    }
  }
}
