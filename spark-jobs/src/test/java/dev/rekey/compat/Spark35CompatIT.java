package dev.rekey.compat;

/**
 * The compatibility tier's Spark 3.5.6 row: rekey's jar on the spark-submit of a Spark 3.5.6 home.
 */
class Spark35CompatIT extends SparkCompatSuite {
  @Override
  String sparkVersion() {
    return "3.5.6";
  }
}
