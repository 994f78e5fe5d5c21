package dev.rekey.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.replication.BaseReplicationEndpoint;
import org.apache.hadoop.hbase.replication.ReplicationEndpoint;
import org.apache.hadoop.hbase.wal.WAL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replication endpoint that rekeys: run by the source table's RegionServers for a peer that names
 * it ({@code rekey replicate start}), it takes each batch of WAL entries of the source table,
 * rekeys every row ({@link EditRekeyer}) and applies the same cells, timestamps and delete markers
 * to the target table(s) of the same cluster. Its settings come from the peer's configuration map
 * ({@link ReplicationSettings}), layouts included as text.
 *
 * <p>{@link #replicate} returns true only when the whole batch is applied: the quarantine rows
 * first, then each target's mutations (one {@code Table.batch} per target table, which the client
 * sends as one multi request per RegionServer with the actions grouped by region), then the
 * quarantine counter. On any failure it returns false and HBase's shipper retries the same batch
 * after a sleep — every write carries explicit timestamps, so writing a batch twice changes
 * nothing. An edit that cannot be rekeyed never stops the queue: it goes to the quarantine table
 * and the counter (also the {@code rekey.quarantined} gauge of the peer's source metrics). Lag,
 * edits shipped and the age of the last shipped edit are HBase's own replication source metrics
 * (the shipper records them when this returns true), as {@code ReplicationLoadSource} reports them.
 */
public class RekeyingEndpoint extends BaseReplicationEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(RekeyingEndpoint.class);

  /** The source metrics gauge of the edits this RegionServer quarantined for the peer. */
  public static final String QUARANTINED_GAUGE = "rekey.quarantined";

  private ReplicationSettings settings;
  private EditRekeyer rekeyer;
  private Connection connection;
  private final AtomicLong quarantined = new AtomicLong();

  @Override
  public void init(ReplicationEndpoint.Context context) throws IOException {
    super.init(context);
    Map<String, String> conf = context.getPeerConfig().getConfiguration();
    try {
      settings = ReplicationSettings.fromPeerConfiguration(conf);
      rekeyer =
          new EditRekeyer(
              settings.targets().stream().map(ReplicationSettings.Target::table).toList(),
              settings.rekeyers());
    } catch (RuntimeException e) {
      throw new IOException(
          "Cannot start rekey replication peer " + context.getPeerId() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void start() {
    startAsync();
  }

  @Override
  public void stop() {
    stopAsync();
  }

  @Override
  protected void doStart() {
    try {
      // the targets' cluster: this one, or the one the peer names (rekey replicate start
      // --target-hbase-site)
      connection =
          ConnectionFactory.createConnection(
              failFast(settings.targetConfiguration(ctx.getLocalConfiguration())));
      LOG.info(
          "rekey replication peer {}: {} -> {}",
          ctx.getPeerId(),
          settings.sourceTable(),
          settings.targets().stream().map(ReplicationSettings.Target::table).toList());
      notifyStarted();
    } catch (IOException | RuntimeException e) {
      notifyFailed(e);
    }
  }

  @Override
  protected void doStop() {
    try {
      if (connection != null) {
        connection.close();
      }
      notifyStopped();
    } catch (IOException e) {
      notifyFailed(e);
    }
  }

  /** Client retries of the endpoint's writes: HBase's own replication sink's key and default. */
  static final String CLIENT_RETRIES = "replication.sink.client.retries.number";

  /** The longest one batch's writes may take before the batch fails (HBase's sink's key). */
  static final String CLIENT_OPS_TIMEOUT = "replication.sink.client.ops.timeout";

  static final int DEFAULT_CLIENT_RETRIES = 4;

  /**
   * 60 s, not the sink's 10 s: one shipped batch may hold up to 64 MiB of edits
   * (replication.source.size.capacity), applied in one call.
   */
  static final int DEFAULT_CLIENT_OPS_TIMEOUT_MS = 60_000;

  /**
   * The endpoint's client fails a batch in seconds instead of retrying it inside the client for
   * minutes (a RegionServer's client default: 15 retries, a 20-minute operation timeout): HBase's
   * shipper then retries the batch with its own backoff, counts it in {@code failedBatches} and the
   * failure is logged — as HBase's replication sink configures its client for the same reason.
   */
  static Configuration failFast(Configuration c) {
    c.setInt(
        HConstants.HBASE_CLIENT_RETRIES_NUMBER, c.getInt(CLIENT_RETRIES, DEFAULT_CLIENT_RETRIES));
    c.setInt(
        HConstants.HBASE_CLIENT_OPERATION_TIMEOUT,
        c.getInt(CLIENT_OPS_TIMEOUT, DEFAULT_CLIENT_OPS_TIMEOUT_MS));
    return c;
  }

  /** The same cluster: the targets are tables next to the source. */
  @Override
  public boolean canReplicateToSameCluster() {
    return true;
  }

  /**
   * Not another cluster's id: one per peer, so HBase never takes the peer for the local cluster.
   */
  @Override
  public UUID getPeerUUID() {
    return UUID.nameUUIDFromBytes(
        ("rekey-replication:" + ctx.getPeerId()).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public boolean replicate(ReplicateContext context) {
    EditRekeyer.Batch batch = rekeyer.batch();
    for (WAL.Entry e : context.getEntries()) {
      batch.add(e.getEdit().getCells(), e.getKey().getSequenceId());
    }
    EditRekeyer.Rekeyed rekeyed = batch.build();
    try {
      List<EditRekeyer.Quarantined> q = rekeyed.quarantined();
      if (!q.isEmpty()) {
        List<Put> puts = Quarantine.puts(ctx.getPeerId(), settings.sourceTable(), q);
        try (Table t = connection.getTable(TableName.valueOf(settings.quarantineTable()))) {
          t.put(puts);
        }
        for (EditRekeyer.Quarantined one : q) {
          LOG.warn(
              "rekey replication peer {}: quarantined row {} of {} (for {}): {}",
              ctx.getPeerId(),
              one.sourceRowHex(),
              settings.sourceTable(),
              one.targetTable(),
              one.reason());
        }
      }
      for (Map.Entry<String, List<Mutation>> m : rekeyed.mutations().entrySet()) {
        if (m.getValue().isEmpty()) {
          continue;
        }
        try (Table t = connection.getTable(TableName.valueOf(m.getKey()))) {
          t.batch(m.getValue(), new Object[m.getValue().size()]);
        }
      }
      if (!q.isEmpty()) {
        try (Table t = connection.getTable(TableName.valueOf(settings.quarantineTable()))) {
          t.increment(Quarantine.count(ctx.getPeerId(), q.size()));
        }
        ctx.getMetrics().setGauge(QUARANTINED_GAUGE, quarantined.addAndGet(q.size()));
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (IOException | RuntimeException e) {
      ctx.getMetrics().incrementFailedBatches();
      LOG.warn(
          "rekey replication peer {}: cannot apply {} mutations of {} WAL entries to {} (will"
              + " retry): {}",
          ctx.getPeerId(),
          rekeyed.mutationCount(),
          context.getEntries().size(),
          rekeyed.mutations().keySet(),
          e.toString());
      return false;
    }
  }
}
