package dev.rekey.admin.createtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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
  void newVersionBehaviorIsSetOnTheFamilyOnlyWhenAsked() {
    assertTrue(
        FamilySpec.parse("d:new_version_behavior=TRUE").toDescriptor().isNewVersionBehavior());
    assertFalse(
        FamilySpec.parse("d:new_version_behavior=false").toDescriptor().isNewVersionBehavior());
    assertFalse(FamilySpec.parse("d").toDescriptor().isNewVersionBehavior());
  }

  @Test
  void dateTieredCompactionSetsHBasesStoreEngineAndWindowsOnTheFamily() {
    ColumnFamilyDescriptor d =
        FamilySpec.parse("d:compression=gz,compaction=DATE_TIERED,window=PT6H,windows_per_tier=3")
            .toDescriptor();
    assertGzDateTiered(d, 21_600_000L);
    assertEquals(
        "3", d.getConfigurationValue("hbase.hstore.compaction.date.tiered.windows.per.tier"));
    assertNull(
        d.getConfigurationValue("hbase.hstore.compaction.date.tiered.max.storefile.age.millis"));
    assertEquals("60", d.getConfigurationValue("hbase.hstore.blockingStoreFiles"));
    assertEquals("2", d.getConfigurationValue("hbase.hstore.compaction.min"));
    assertEquals("60", d.getConfigurationValue("hbase.hstore.compaction.max"));
    // a day by default (the nightly report's window), and a max age
    FamilySpec f = FamilySpec.parse("d:compaction=date_tiered,max_age=P365D");
    assertEquals(
        "86400000",
        f.toDescriptor()
            .getConfigurationValue("hbase.hstore.compaction.date.tiered.base.window.millis"));
    assertEquals(
        Long.toString(365L * 86_400_000),
        f.toDescriptor()
            .getConfigurationValue("hbase.hstore.compaction.date.tiered.max.storefile.age.millis"));
    assertEquals(
        "date-tiered compaction, 1-day base window, files older than 365 days left alone",
        f.dateTiered().describe());
    assertTrue(
        FamilySpec.parse("d:compaction=default").toDescriptor().getConfiguration().isEmpty());
  }

  /** Each bad argument, with the whole message it must get: the argument, the setting, why. */
  static Stream<Arguments> badSpecs() {
    return Stream.of(
        Arguments.of(
            "d:compression=brotli9",
            "Invalid --family 'd:compression=brotli9': compression=brotli9 is not one of lzo, gz,"
                + " none, snappy, lz4, bzip2, zstd, lzma, brotli"),
        Arguments.of(
            "d:colour=red",
            "Invalid --family 'd:colour=red': unknown setting 'colour' (known: compression, bloom,"
                + " blocksize, encoding, ttl, versions, compaction, window, windows_per_tier,"
                + " max_age, new_version_behavior)"),
        Arguments.of(
            "d:new_version_behavior=yes",
            "Invalid --family 'd:new_version_behavior=yes': new_version_behavior=yes is not one of"
                + " true, false"),
        Arguments.of(
            "d:compaction=tiered",
            "Invalid --family 'd:compaction=tiered': compaction=tiered is not one of default,"
                + " date_tiered"),
        Arguments.of(
            "d:window=P1D",
            "Invalid --family 'd:window=P1D': window, windows_per_tier and max_age set"
                + " date-tiered compaction's windows (add compaction=date_tiered)"),
        Arguments.of(
            "d:compaction=date_tiered,window=1d",
            "Invalid --family 'd:compaction=date_tiered,window=1d': window=1d is not an ISO-8601"
                + " duration (e.g. P1D for a day, PT6H for 6 hours)"),
        Arguments.of(
            "d:compaction=date_tiered,windows_per_tier=1",
            "Invalid --family 'd:compaction=date_tiered,windows_per_tier=1': windows_per_tier=1"
                + " must be at least 2"),
        Arguments.of(
            "d:versions=0", "Invalid --family 'd:versions=0': versions=0 must be at least 1"),
        Arguments.of("d:ttl=soon", "Invalid --family 'd:ttl=soon': ttl=soon is not a whole number"),
        Arguments.of("d:bloom", "Invalid --family 'd:bloom': 'bloom' is not key=value"),
        Arguments.of(
            ":bloom=row",
            "Invalid --family ':bloom=row': the family name must be letters, digits, '_', '-' or"
                + " '.' (e.g. --family d:compression=gz,bloom=row)"),
        Arguments.of(
            "d:bloom=row,bloom=none",
            "Invalid --family 'd:bloom=row,bloom=none': 'bloom' given twice"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badSpecs")
  void aBadSpecIsRefusedNamingTheSettingAndWhy(String arg, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FamilySpec.parse(arg));
    assertEquals(message, e.getMessage());
  }

  /** A GZ family on the date-tiered store engine whose base window is {@code windowMillis}. */
  static void assertGzDateTiered(ColumnFamilyDescriptor d, long windowMillis) {
    assertEquals(Compression.Algorithm.GZ, d.getCompressionType());
    assertEquals(
        "org.apache.hadoop.hbase.regionserver.DateTieredStoreEngine",
        d.getConfigurationValue("hbase.hstore.engine.class"));
    assertEquals(
        Long.toString(windowMillis),
        d.getConfigurationValue("hbase.hstore.compaction.date.tiered.base.window.millis"));
  }
}
