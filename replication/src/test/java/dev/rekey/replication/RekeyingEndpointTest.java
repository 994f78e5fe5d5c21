package dev.rekey.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RekeyingEndpointTest {
  @Test
  void theEndpointsClientFailsABatchInSecondsAndLeavesRetriesToTheShipper() {
    Configuration c = new Configuration(false);
    c.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 15);
    RekeyingEndpoint.failFast(c);
    assertEquals(4, c.getInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, -1));
    assertEquals(60_000, c.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, -1));
  }

  @Test
  void hbasesSinkKeysSetThem() {
    Configuration c = new Configuration(false);
    c.setInt("replication.sink.client.retries.number", 2);
    c.setInt("replication.sink.client.ops.timeout", 5_000);
    RekeyingEndpoint.failFast(c);
    assertEquals(2, c.getInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, -1));
    assertEquals(5_000, c.getInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, -1));
  }
}
