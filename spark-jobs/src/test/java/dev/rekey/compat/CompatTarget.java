package dev.rekey.compat;

import java.util.Map;

/** A class of the compatibility tier: what its cells are cells of (a row of the table). */
interface CompatTarget {
  /** {@code hbase}: a server of that release; {@code spark}: rekey's jar on its spark-submit. */
  String component();

  /** The release, as its row names it (e.g. 2.5.13-hadoop3, 3.4.4). */
  String release();

  /**
   * rekey's side where it is not this JVM's (a Spark cell runs rekey in another Spark): the
   * versions ({@code spark}, {@code hadoop}, ...) to record instead of this JVM's.
   */
  default Map<String, String> client() {
    return Map.of();
  }
}
