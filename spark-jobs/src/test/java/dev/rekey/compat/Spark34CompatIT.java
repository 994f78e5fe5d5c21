package dev.rekey.compat;

/**
 * The compatibility tier's Spark 3.4.4 row: rekey's jar on the spark-submit of a Spark 3.4.4 home.
 */
class Spark34CompatIT extends SparkCompatSuite {
  @Override
  String sparkVersion() {
    return "3.4.4";
  }
}
