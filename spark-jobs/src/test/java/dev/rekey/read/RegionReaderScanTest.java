package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Scan;
import org.junit.jupiter.api.Test;

/** The scan settings every job's read carries, without a cluster. */
class RegionReaderScanTest {
  @Test
  void byDefaultTheScanLeavesCachingToHBaseAndTheBlockCacheOff() {
    Scan scan = RegionReader.table(TableName.valueOf("t")).scan();
    // -1: unset, so the client takes hbase.client.scanner.caching (unlimited rows, 2 MB per RPC)
    assertEquals(-1, scan.getCaching());
    assertFalse(scan.getCacheBlocks());
    assertEquals(
        -1, RegionReader.snapshot("s").caching(RegionReader.DEFAULT_CACHING).scan().getCaching());
  }

  @Test
  void aJobsCachingIsSetOnTheScanAndANegativeOneRefused() {
    assertEquals(50, RegionReader.table(TableName.valueOf("t")).caching(50).scan().getCaching());
    assertThrows(
        IllegalArgumentException.class,
        () -> RegionReader.table(TableName.valueOf("t")).caching(-1));
  }
}
