package dev.rekey.jobs.backfill.write;

import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.rdd.ShuffledRDD;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The backfill's sort shuffle: (target key, packed row) records to their target partition, then
 * each partition sorted by key in HBase order by {@link SerializedKeySort} (as bytes in Spark's
 * memory pages, spilling to disk when memory runs short), not by the shuffle's own sorter over
 * object records. The records are two byte arrays, written as they are by {@link
 * BytePairSerializer} (length and bytes): Java serialization (the job default) rewrites its class
 * descriptors every 100 records, and Kryo (used here until 2026-12) cost an instance per
 * serialization stream, built with every Scala class registered, and the shuffle writer opens one
 * stream per partition in every map task. The job's other serialization is left as it is. Repair's
 * compare shuffles both sides' rows by natural key the same way.
 */
public final class TargetSort {
  private TargetSort() {}

  /** The records partitioned by {@code partitioner}, each partition's records sorted by key. */
  public static JavaPairRDD<byte[], byte[]> of(
      JavaPairRDD<byte[], byte[]> rows, Partitioner partitioner) {
    ClassTag<byte[]> bytes = ClassTag$.MODULE$.apply(byte[].class);
    ShuffledRDD<byte[], byte[], byte[]> shuffled =
        new ShuffledRDD<>(rows.rdd(), partitioner, bytes, bytes, bytes);
    shuffled.setSerializer(new BytePairSerializer());
    return JavaPairRDD.fromRDD(shuffled, bytes, bytes)
        .mapPartitionsToPair(SerializedKeySort::sorted, true);
  }
}
