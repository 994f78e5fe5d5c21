package dev.rekey.testing;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** A test table of one family keeping several versions, pre-split or not, filled with Puts. */
public final class VersionedTables {
  private VersionedTables() {}

  /**
   * A new table named after {@code prefix} (unique in the run), family {@code family} keeping
   * {@code versions} versions, split at {@code splits} (null: one region), holding {@code puts}.
   */
  public static TableName create(
      String prefix, byte[] family, int versions, List<byte[]> splits, List<Put> puts)
      throws IOException {
    return create(SharedHBase.connection(), prefix, family, versions, splits, puts);
  }

  /** {@link #create(String, byte[], int, List, List)} on another cluster's connection. */
  public static TableName create(
      org.apache.hadoop.hbase.client.Connection conn,
      String prefix,
      byte[] family,
      int versions,
      List<byte[]> splits,
      List<Put> puts)
      throws IOException {
    TableName t = SharedHBase.uniqueTable(prefix);
    try (Admin admin = conn.getAdmin()) {
      var d =
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(versions).build())
              .build();
      if (splits == null) {
        admin.createTable(d);
      } else {
        admin.createTable(d, splits.toArray(new byte[0][]));
      }
    }
    try (Table table = conn.getTable(t)) {
      table.put(puts);
    }
    return t;
  }
}
