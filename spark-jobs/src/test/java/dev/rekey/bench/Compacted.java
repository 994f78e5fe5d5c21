package dev.rekey.bench;

import dev.rekey.common.Poll;
import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;

/**
 * A benchmark's source table, settled before anything is timed: major-compacted to one store file
 * per store, so that the RegionServer's own compactions of freshly written files do not take the
 * cores from the timed passes (and every pass reads the same files).
 */
public final class Compacted {
  private Compacted() {}

  /** Major-compacts {@code table} and waits (at most 10 min) until every store holds one file. */
  public static void majorCompact(Admin admin, TableName table) throws IOException {
    admin.majorCompact(table);
    int families = admin.getDescriptor(table).getColumnFamilyCount();
    // counted afresh each time: a table left to split as it is written may still be splitting
    Poll.until(
        () ->
            admin.getCompactionState(table) == CompactionState.NONE
                && storeFiles(admin, table) == admin.getRegions(table).size() * families,
        Duration.ofMinutes(10),
        Duration.ofMillis(500),
        () -> new IllegalStateException(table + " did not finish its major compaction in 10 min"));
  }

  /** The store files of {@code table} across the RegionServers. */
  static int storeFiles(Admin admin, TableName table) throws IOException {
    int n = 0;
    for (ServerName sn : admin.getRegionServers()) {
      for (RegionMetrics m : admin.getRegionMetrics(sn, table)) {
        n += m.getStoreFileCount();
      }
    }
    return n;
  }
}
