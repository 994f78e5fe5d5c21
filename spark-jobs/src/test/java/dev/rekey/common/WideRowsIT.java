package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * Rows wider than one Result on the real server: with a 32 KB scanner result size, a RegionServer
 * hands each 1.5 MB row over in dozens of partial results; the shared reader (every job's) must
 * still give every row once, whole, from a live table and from a snapshot.
 */
@Tag("e2e")
class WideRowsIT {
  @Test
  void rowsWiderThanOneResultAreReadWholeAndOnceFromTableAndSnapshot() throws Exception {
    byte[] d = Bytes.toBytes("d");
    TableName table = SharedHBase.uniqueTable("wide_rows");
    Map<String, Integer> expected = new TreeMap<>();
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(d).setMaxVersions(2).build())
              .build(),
          new byte[][] {Bytes.toBytes("m")});
      Random random = new Random(5);
      try (Table t = SharedHBase.connection().getTable(table)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          String row = (i % 2 == 0 ? "a" : "p") + String.format("%03d", i);
          Put p = new Put(Bytes.toBytes(row));
          int columns =
              i % 10 == 0 ? 700 : 3; // every tenth row wide: 700 columns x 2 versions x 1 KB
          for (int c = 0; c < columns; c++) {
            byte[] v = new byte[1024];
            random.nextBytes(v);
            p.addColumn(d, Bytes.toBytes("c" + c), 2000L, v);
            p.addColumn(d, Bytes.toBytes("c" + c), 1000L, v);
          }
          puts.add(p);
          expected.put(row, 2 * columns);
        }
        t.put(puts);
      }
      admin.flush(table);
      admin.snapshot(table.getNameAsString() + "_snap", table);
    }
    Configuration conf = new Configuration(SharedHBase.conf());
    conf.setLong(HConstants.HBASE_CLIENT_SCANNER_MAX_RESULT_SIZE_KEY, 32 * 1024);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    for (RegionReader reader :
        List.of(
            RegionReader.table(table), RegionReader.snapshot(table.getNameAsString() + "_snap"))) {
      try (RegionRead read = reader.versions(Integer.MAX_VALUE).open(jsc, conf)) {
        List<Tuple2<String, Integer>> rows =
            read.rows()
                .map(r -> new Tuple2<>(Bytes.toString(r.getRow()), r.rawCells().length))
                .collect();
        Map<String, Integer> got = new TreeMap<>();
        for (Tuple2<String, Integer> r : rows) {
          assertEquals(
              null, got.put(r._1(), r._2()), reader.describe() + ": row " + r._1() + " once");
        }
        assertEquals(expected, got, reader.describe());
      }
    }
  }
}
