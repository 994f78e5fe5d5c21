package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.LayoutFiles;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.write.SerializedKeySort;
import dev.rekey.jobs.backfill.write.TargetPartitioner;
import dev.rekey.jobs.backfill.write.TargetSort;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The backfill's shuffle and sort on real Spark, without HBase: rekeyed rows land in the partition
 * of their target region (k per region), each partition sorted in HBase's unsigned row order (also
 * when the sort spills), none lost or duplicated.
 */
@Tag("spark")
class BackfillShuffleTest {
  @Test
  void rowsLandSortedInTheirTargetRegionsPartitions() {
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "test");
    List<byte[]> starts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    starts.add(new byte[0]);
    names.add("r0");
    for (byte[] p : v2.splitPoints(16)) {
      starts.add(p);
      names.add("r" + starts.size());
    }
    RegionBoundaries regions = new RegionBoundaries(starts, names);
    int k = 2;
    TargetPartitioner partitioner = new TargetPartitioner(regions, k);

    TelemetryGenerator gen = TelemetryGenerator.oneDay(5_000, 37);
    List<Tuple2<byte[], byte[]>> rows = new ArrayList<>();
    for (long i = 0; i < gen.rows(); i++) {
      TelemetryReading r = gen.reading(i);
      rows.add(
          new Tuple2<>(
              v2.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())), Bytes.toBytes(i)));
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    JavaPairRDD<byte[], byte[]> sorted =
        TargetSort.of(JavaPairRDD.fromJavaRDD(jsc.parallelize(rows, 3)), partitioner);
    assertEquals(32, sorted.getNumPartitions(), "16 regions x k = 2");

    List<String> problems =
        sorted
            .mapPartitionsWithIndex(
                (p, it) -> {
                  List<String> bad = new ArrayList<>();
                  byte[] prev = null;
                  int region = p / k;
                  while (it.hasNext()) {
                    byte[] key = it.next()._1();
                    if (regions.regionOf(key) != region) {
                      bad.add("partition " + p + " holds a key of region " + regions.regionOf(key));
                    }
                    if (prev != null && Arrays.compareUnsigned(prev, key) >= 0) {
                      bad.add("partition " + p + " is not in unsigned row order");
                    }
                    prev = key;
                  }
                  return bad.iterator();
                },
                true)
            .collect();
    assertTrue(problems.isEmpty(), problems.toString());

    List<Long> ids = sorted.values().map(Bytes::toLong).collect();
    assertEquals(gen.rows(), ids.size());
    assertEquals(
        gen.rows(), ids.stream().distinct().count(), "no row lost or duplicated by the shuffle");
  }

  @Test
  void sortingSpilledRunsMergesThemInUnsignedKeyOrder() {
    // keys that share their first 8 bytes (ties of the sort prefix), bytes over 0x7f, prefixes of
    // one another, and duplicates: sorted with a spill every 100 records, merged from disk
    Random random = new Random(42);
    List<Tuple2<byte[], byte[]>> records = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      byte[] key = new byte[1 + random.nextInt(12)];
      random.nextBytes(key);
      if (i % 3 == 0 && key.length > 9) {
        Arrays.fill(key, 0, 8, (byte) 0x80);
      }
      records.add(new Tuple2<>(key, Bytes.toBytes(i)));
      if (i % 500 == 0) {
        records.add(new Tuple2<>(key.clone(), Bytes.toBytes(-i)));
      }
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    List<Tuple2<byte[], byte[]>> back =
        JavaPairRDD.fromJavaRDD(jsc.parallelize(records, 1))
            .mapPartitionsToPair(it -> SerializedKeySort.sorted(it, 100))
            .collect();
    List<Tuple2<byte[], byte[]>> want = new ArrayList<>(records);
    want.sort((a, b) -> Arrays.compareUnsigned(a._1(), b._1()));
    assertEquals(want.size(), back.size());
    for (int i = 0; i < want.size(); i++) {
      assertArrayEquals(want.get(i)._1(), back.get(i)._1(), "key at " + i);
    }
    assertEquals(
        records.stream().map(t -> Bytes.toInt(t._2())).sorted().toList(),
        back.stream().map(t -> Bytes.toInt(t._2())).sorted().toList(),
        "every value once, still with its key");
    Map<Integer, byte[]> keyOf = new HashMap<>();
    records.forEach(t -> keyOf.put(Bytes.toInt(t._2()), t._1()));
    for (Tuple2<byte[], byte[]> t : back) {
      assertArrayEquals(keyOf.get(Bytes.toInt(t._2())), t._1(), "a value with its own key");
    }
  }
}
