package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The backfill's shuffle on real Spark, without HBase: rekeyed rows land in the partition of their
 * target region (k per region), each partition sorted in HBase's unsigned row order, none lost or
 * duplicated.
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
    List<Tuple2<byte[], Long>> rows = new ArrayList<>();
    for (long i = 0; i < gen.rows(); i++) {
      TelemetryReading r = gen.reading(i);
      rows.add(new Tuple2<>(v2.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())), i));
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    JavaPairRDD<byte[], Long> sorted =
        JavaPairRDD.fromJavaRDD(jsc.parallelize(rows, 3))
            .repartitionAndSortWithinPartitions(partitioner, new RowOrder());
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

    List<Long> ids = sorted.values().collect();
    assertEquals(gen.rows(), ids.size());
    assertEquals(
        gen.rows(), ids.stream().distinct().count(), "no row lost or duplicated by the shuffle");
  }
}
