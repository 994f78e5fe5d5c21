package dev.rekey.bench;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Baseline: what teams do without rekey — read, rekey, Put through a BufferedMutator per partition
 * (WAL on). It reads the snapshot exactly as rekey does (the shared reader, at least two tasks per
 * core): only the write differs.
 */
final class PutCopy {
  private PutCopy() {}

  /** Returns the rows copied. */
  static long run(
      JavaSparkContext jsc,
      Configuration hbaseConf,
      String snap,
      int minPartitions,
      Rekeyer rekeyer,
      TableName target)
      throws Exception {
    Map<String, String> conf = HBaseConfigs.toMap(hbaseConf);
    String table = target.getNameAsString();
    try (RegionRead read =
        RegionReader.snapshot(snap).minPartitions(minPartitions).open(jsc, hbaseConf)) {
      return read.rows()
          .mapPartitions(
              it -> {
                long n = 0;
                try (Connection c = ConnectionFactory.createConnection(HBaseConfigs.fromMap(conf));
                    BufferedMutator m =
                        c.getBufferedMutator(
                            new BufferedMutatorParams(TableName.valueOf(table))
                                .writeBufferSize(8L << 20))) {
                  while (it.hasNext()) {
                    Result row = it.next();
                    Put p = new Put(rekeyer.rekey(row.getRow()));
                    for (Cell cell : row.rawCells()) {
                      p.add(RekeyedCells.rebuild(p.getRow(), cell));
                    }
                    m.mutate(p);
                    n++;
                  }
                }
                return List.of(n).iterator();
              })
          .reduce(Long::sum);
    }
  }
}
