package dev.rekey.bench;

import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.testing.SharedHBase;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The backfill benches' source: a day of telemetry in a telemetry-v1 table, written, flushed,
 * major-compacted and snapshotted (the snapshot's name is returned). Its family is plain unless
 * -Dbench.sourceCompression (e.g. GZ) or -Dbench.sourceEncoding (e.g. FAST_DIFF) say otherwise, as
 * a production table's family usually does: then every read of it decodes and inflates its blocks.
 */
final class TelemetrySource {
  private TelemetrySource() {}

  static final String COMPRESSION = System.getProperty("bench.sourceCompression", "NONE");
  static final String ENCODING = System.getProperty("bench.sourceEncoding", "NONE");

  /** "" for a plain source family, else " (source family GZ, FAST_DIFF)": a variant's suffix. */
  static String describe() {
    return COMPRESSION.equals("NONE") && ENCODING.equals("NONE")
        ? ""
        : " (source family " + COMPRESSION + ", " + ENCODING + ")";
  }

  static String snapshot(Admin admin, TelemetryGenerator gen) throws Exception {
    TableName source = SharedHBase.uniqueTable("bench_v1");
    // split up front into 8 equal hours-long slices of the day, as a long-lived legacy table would
    // be: a table left to split while it is written can leave a split hanging in this HBase
    // version (the region stays CLOSING), and the bench with it
    byte[][] sourceSplits = new byte[7][];
    for (int i = 1; i <= 7; i++) {
      sourceSplits[i - 1] = Bytes.toBytes(TelemetryGenerator.DEFAULT_START + i * 3 * 3_600_000L);
    }
    LegacyTelemetryTable.create(admin, source, sourceSplits);
    if (!describe().isEmpty()) {
      admin.modifyColumnFamily(
          source,
          ColumnFamilyDescriptorBuilder.newBuilder(LegacyTelemetryTable.FAMILY)
              .setCompressionType(Compression.Algorithm.valueOf(COMPRESSION))
              .setDataBlockEncoding(DataBlockEncoding.valueOf(ENCODING))
              .build());
    }
    long w0 = System.nanoTime();
    LegacyTelemetryTable.write(SharedHBase.connection(), source, gen, System.out::println);
    admin.flush(source);
    // a migration's source is a settled table: compact it now, so that the RegionServer's own
    // compactions of the freshly written store files do not take the cores from the timed passes
    Compacted.majorCompact(admin, source);
    String snap = source.getNameAsString() + "_snap";
    admin.snapshot(snap, source);
    System.out.printf(
        "source: %,d rows written in %.1f s%n", gen.rows(), (System.nanoTime() - w0) / 1e9);
    return snap;
  }
}
