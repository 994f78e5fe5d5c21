package dev.rekey.jobs.createtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class FamilySpecTest {
  @Test
  void nameOnlyKeepsHBaseDefaults() {
    FamilySpec f = FamilySpec.parse("d");
    assertEquals("d", f.name());
    assertNull(f.compression());
    ColumnFamilyDescriptor d = f.toDescriptor();
    assertEquals(BloomType.ROW, d.getBloomFilterType());
    assertEquals(65536, d.getBlocksize());
  }

  @Test
  void everySettingParsesCaseInsensitively() {
    FamilySpec f =
        FamilySpec.parse(
            "d:compression=GZ,bloom=rowcol,blocksize=16k,encoding=fast_diff,ttl=86400,versions=3");
    ColumnFamilyDescriptor d = f.toDescriptor();
    assertEquals("d", d.getNameAsString());
    assertEquals(Compression.Algorithm.GZ, d.getCompressionType());
    assertEquals(BloomType.ROWCOL, d.getBloomFilterType());
    assertEquals(16384, d.getBlocksize());
    assertEquals(DataBlockEncoding.FAST_DIFF, d.getDataBlockEncoding());
    assertEquals(86400, d.getTimeToLive());
    assertEquals(3, d.getMaxVersions());
    assertEquals(1 << 20, FamilySpec.parse("x:blocksize=1m").blockSize());
  }

  @Test
  void badSpecsNameTheSettingAndTheAllowedValues() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> FamilySpec.parse("d:compression=brotli9"));
    assertTrue(
        e.getMessage().contains("compression=brotli9") && e.getMessage().contains("gz"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse("d:colour=red"));
    assertTrue(e.getMessage().contains("unknown setting 'colour'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse("d:versions=0"));
    assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse("d:ttl=soon"));
    assertTrue(e.getMessage().contains("whole number"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse("d:bloom"));
    assertTrue(e.getMessage().contains("not key=value"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse(":bloom=row"));
    assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse("d:bloom=row,bloom=none"));
  }
}
