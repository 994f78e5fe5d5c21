package dev.rekey.testing;

import dev.rekey.embedded.NioLocalFileSystem;
import org.apache.spark.sql.SparkSession;

/**
 * One local[2] SparkSession per test JVM, UI off, small shuffles (200 partitions cost seconds on 2
 * cores).
 */
public final class SharedSpark {
  private static SparkSession session;

  private SharedSpark() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      session =
          SparkSession.builder()
              .appName("rekey-tests")
              .master("local[2]")
              .config("spark.ui.enabled", "false")
              // as bin/rekey runs a local master (SparkSubmitLauncher)
              .config("spark.hadoop.fs.file.impl", NioLocalFileSystem.class.getName())
              .config("spark.sql.shuffle.partitions", "4")
              // 4 for the tests; the benches set what bin/rekey's local master has on their machine
              // (-Drekey.test.parallelism: local[*] on 2 cores gives 2)
              .config(
                  "spark.default.parallelism", System.getProperty("rekey.test.parallelism", "4"))
              // TableSnapshotInputFormat splits report length 0: keep them (STACK.md pitfall 1)
              .config("spark.hadoopRDD.ignoreEmptySplits", "false")
              // the jobs' counters reach Spark's metrics sinks (JobMetrics): JMX here, so a test
              // reads a running job's counters as a cluster's JMX exporter would
              .config(
                  "spark.metrics.conf.*.sink.jmx.class", "org.apache.spark.metrics.sink.JmxSink")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .getOrCreate();
    }
    return session;
  }
}
