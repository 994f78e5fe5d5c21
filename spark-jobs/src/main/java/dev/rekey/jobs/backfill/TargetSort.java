package dev.rekey.jobs.backfill;

import org.apache.spark.Partitioner;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.serializer.KryoSerializer;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The backfill's sort shuffle: (target key, packed row) records to their target partition, then
 * each partition sorted by key in HBase order by {@link SerializedKeySort} (as bytes in Spark's
 * memory pages, spilling to disk when memory runs short), not by the shuffle's own sorter over
 * object records. Kryo carries this shuffle alone: the records are two byte arrays, and Java
 * serialization (the job default) rewrites its class descriptors every 100 records. Kryo's
 * reference tracking is off for it: no record refers to another, and tracking costs an identity-map
 * insert per array written and a map reset per record. The job's other serialization is left as it
 * is. Repair's compare shuffles both sides' rows by natural key the same way.
 */
public final class TargetSort {
  private TargetSort() {}

  /** The records partitioned by {@code partitioner}, each partition's records sorted by key. */
  public static JavaPairRDD<byte[], byte[]> of(
      JavaPairRDD<byte[], byte[]> rows, Partitioner partitioner, SparkConf conf) {
    ClassTag<byte[]> bytes = ClassTag$.MODULE$.apply(byte[].class);
    ShuffledRDD<byte[], byte[], byte[]> shuffled =
        new ShuffledRDD<>(rows.rdd(), partitioner, bytes, bytes, bytes);
    shuffled.setSerializer(
        new KryoSerializer(conf.clone().set("spark.kryo.referenceTracking", "false")));
    return JavaPairRDD.fromRDD(shuffled, bytes, bytes)
        .mapPartitionsToPair(SerializedKeySort::sorted, true);
  }
}
