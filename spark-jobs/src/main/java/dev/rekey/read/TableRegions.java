package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableInputFormatBase;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The live-table half of opening a {@link RegionReader}: the table exists and has the families, its
 * regions from the cluster, its first key checked against the plan's layout, read through
 * TableInputFormat.
 */
record TableRegions(RegionReader reader, String table) {

  /** A live table: its regions from the cluster, read through TableInputFormat. */
  OpenedSource open(Configuration conf, Configuration jobConf) throws IOException {
    List<byte[][]> bounds = new ArrayList<>();
    ReadPlan used = reader.plan();
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      TableName t = TableName.valueOf(table);
      if (!admin.tableExists(t)) {
        throw new RekeyException(
            "Cannot read table "
                + table
                + ": it does not exist (list tables with `list` "
                + "in the HBase shell, or check --hbase-site points at the right cluster)");
      }
      OpenedSource.checkFamilies(
          reader.families(),
          admin.getDescriptor(t).getColumnFamilyNames().stream().map(Bytes::toString).toList(),
          "table " + table);
      org.apache.hadoop.hbase.util.Pair<byte[][], byte[][]> se =
          conn.getRegionLocator(t).getStartEndKeys();
      for (int i = 0; i < se.getFirst().length; i++) {
        bounds.add(new byte[][] {se.getFirst()[i], se.getSecond()[i]});
      }
      if (reader.plan().keyRanges()) {
        used = reader.plan().fitting(firstRow(conn, t));
      }
    }
    jobConf.set(TableInputFormat.INPUT_TABLE, table);
    jobConf.setInt(TableInputFormatBase.NUM_MAPPERS_PER_REGION, reader.splitsPerRegion());
    return new OpenedSource(bounds, used);
  }

  /** The table's first row key (null if empty): one row, keys only, no block cache. */
  private static byte[] firstRow(Connection conn, TableName t) throws IOException {
    Scan first =
        new Scan()
            .setLimit(1)
            .setCaching(1)
            .setCacheBlocks(false)
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    try (Table table = conn.getTable(t);
        ResultScanner s = table.getScanner(first)) {
      Result r = s.next();
      return r == null ? null : r.getRow();
    }
  }
}
