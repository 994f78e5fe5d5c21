package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of the other cluster's filesystems Spark must still be told to get tokens for. */
class OtherClusterKerberosTest {
  @Test
  void theOtherClustersFilesystemMustBeListedByAuthority() {
    assertEquals(
        List.of("hdfs://old-nn:8020"),
        OtherClusterKerberos.missingFileSystems(null, List.of("hdfs://old-nn:8020/hbase")));
    assertEquals(
        List.of(),
        OtherClusterKerberos.missingFileSystems(
            "hdfs://new-nn:8020, hdfs://old-nn:8020/", List.of("hdfs://old-nn:8020/hbase")));
    assertEquals(
        List.of("hdfs://old-nn:8020"),
        OtherClusterKerberos.missingFileSystems(
            "hdfs://old-nn:9000", List.of("hdfs://old-nn:8020/hbase", "hdfs://old-nn:8020/x")));
    assertEquals(
        List.of(), OtherClusterKerberos.missingFileSystems("HDFS://nn:1", List.of("hdfs://nn:1")));
  }
}
