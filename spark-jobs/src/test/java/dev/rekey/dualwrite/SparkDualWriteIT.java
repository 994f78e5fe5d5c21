package dev.rekey.dualwrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.client.Column;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.ReadQuery;
import dev.rekey.common.LayoutFiles;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Spark job's records dual-written through hbase-spark's HBaseContext: the same rows and
 * timestamps on both keys.
 */
@Tag("e2e")
class SparkDualWriteIT {
  private static final long T0 = 1_764_374_400_000L;
  private static final byte[] D = Bytes.toBytes("d");

  /**
   * {@code n} readings a second apart from {@code devices} devices (the first byte of the id),
   * value {@code i}; every {@code unstampedEvery}-th leaves its timestamp to the writer, the rest
   * carry their event time.
   */
  private static List<KeyedCells> records(int n, int devices, int unstampedEvery) {
    List<KeyedCells> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] device = new byte[16];
      device[0] = (byte) (i % devices);
      long ts = T0 + i * 1_000L;
      Column c =
          i % unstampedEvery == 0
              ? Column.of(D, Bytes.toBytes("v"), Bytes.toBytes(i))
              : Column.at(D, Bytes.toBytes("v"), ts, Bytes.toBytes(i));
      records.add(KeyedCells.of(Map.of("ts", ts, "deviceId", device), List.of(c)));
    }
    return records;
  }

  @Test
  void everyRecordLandsInBothTablesWithTheSameTimestamps() throws Exception {
    KeyLayout v1 = LayoutFiles.load("telemetry-v1", "test");
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "test");
    TableName t1 = SharedHBase.uniqueTable("spark_dw_v1");
    TableName t2 = SharedHBase.uniqueTable("spark_dw_v2");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t1)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build());
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t2)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build(),
          v2.splitPoints(16).toArray(new byte[0][]));
    }
    // a third of the records leave the timestamp to the writer (one job-wide stamp), the rest
    // carry event time
    List<KeyedCells> records = records(600, 13, 3);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    long before = System.currentTimeMillis();
    long written =
        SparkDualWrite.on(jsc, SharedHBase.conf())
            .oldTable(t1.getNameAsString(), v1)
            .newTable(t2.getNameAsString(), v2)
            .write(jsc.parallelize(records, 3));
    assertEquals(600, written);

    Map<String, String> old = content(v1, t1);
    Map<String, String> rekeyed = content(v2, t2);
    assertEquals(600, old.size());
    assertEquals(old, rekeyed, "same natural keys, cells and timestamps on both tables");
    // record 0 left its timestamp to the writer: the job's one stamp, taken when the write started
    String first = old.get("{ts=" + T0 + ", deviceId=" + "00".repeat(16) + "}");
    long ts0 = Long.parseLong(first.substring(first.indexOf('@') + 1, first.indexOf('=')));
    assertTrue(ts0 >= before && ts0 <= System.currentTimeMillis(), first);
    // record 1 carried its event time
    assertEquals(
        "v@" + (T0 + 1_000) + "=1",
        old.get("{ts=" + (T0 + 1_000) + ", deviceId=01" + "00".repeat(15) + "}"));
  }

  /**
   * One pass, three tables: the old key, the salted time-first key and the entity-first history
   * key; each new table holds the old one's rows by natural key, every cell and timestamp.
   */
  @Test
  void everyRecordLandsInEveryNewTable() throws Exception {
    KeyLayout v1 = LayoutFiles.load("telemetry-v1", "test");
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "test");
    KeyLayout byDevice = LayoutFiles.load("telemetry-by-device", "test");
    TableName t1 = SharedHBase.uniqueTable("spark_dw3_v1");
    TableName t2 = SharedHBase.uniqueTable("spark_dw3_v2");
    TableName t3 = SharedHBase.uniqueTable("spark_dw3_dev");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(family(t1));
      admin.createTable(family(t2), v2.splitPoints(16).toArray(new byte[0][]));
      admin.createTable(family(t3), byDevice.splitPoints(8).toArray(new byte[0][]));
    }
    List<KeyedCells> records = records(400, 11, 2);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    long written =
        SparkDualWrite.on(jsc, SharedHBase.conf())
            .oldTable(t1.getNameAsString(), v1)
            .newTable(t2.getNameAsString(), v2)
            .newTable(t3.getNameAsString(), byDevice)
            .write(jsc.parallelize(records, 3));
    assertEquals(400, written);
    Map<String, List<String>> old = TableContents.byNaturalKey(t1, v1);
    assertEquals(400, old.size());
    assertEquals(old, TableContents.byNaturalKey(t2, v2), "telemetry-v2 by natural key");
    assertEquals(
        old, TableContents.byNaturalKey(t3, byDevice), "telemetry-by-device by natural key");
  }

  private static org.apache.hadoop.hbase.client.TableDescriptor family(TableName t) {
    return TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
        .build();
  }

  /** natural key → "qualifier@timestamp=value" of each row, read back through the client reader. */
  private static Map<String, String> content(KeyLayout layout, TableName t) {
    Map<String, String> m = new TreeMap<>();
    try (LayoutReader r = LayoutReader.open(SharedHBase.connection(), t, layout)) {
      for (Result row : r.scan(ReadQuery.builder().build())) {
        StringBuilder sb = new StringBuilder();
        for (Cell c : row.rawCells()) {
          sb.append(Bytes.toString(CellUtil.cloneQualifier(c)))
              .append('@')
              .append(c.getTimestamp())
              .append('=')
              .append(Bytes.toInt(CellUtil.cloneValue(c)));
        }
        m.put(
            FieldValues.format(layout, layout.decode(row.getRow()).fields()).toString(),
            sb.toString());
      }
    }
    return m;
  }
}
