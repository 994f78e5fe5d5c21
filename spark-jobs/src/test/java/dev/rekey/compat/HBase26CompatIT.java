package dev.rekey.compat;

import dev.rekey.embedded.HBaseVersion;

/** The compatibility tier against an HBase 2.6.4-hadoop3 server. */
class HBase26CompatIT extends CompatSuite {
  @Override
  HBaseVersion version() {
    return new HBaseVersion("2.6.4-hadoop3");
  }
}
