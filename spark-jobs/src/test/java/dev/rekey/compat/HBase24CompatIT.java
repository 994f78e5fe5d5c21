package dev.rekey.compat;

import dev.rekey.embedded.HBaseVersion;

/** The compatibility tier against an HBase 2.4.18 server. */
class HBase24CompatIT extends CompatSuite {
  @Override
  HBaseVersion version() {
    return new HBaseVersion("2.4.18");
  }
}
