package dev.rekey.compat;

import dev.rekey.embedded.HBaseVersion;

/** The compatibility tier against an HBase 2.5.13-hadoop3 server. */
class HBase25CompatIT extends CompatSuite {
  @Override
  HBaseVersion version() {
    return new HBaseVersion("2.5.13-hadoop3");
  }
}
