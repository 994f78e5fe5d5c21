package dev.rekey.replication;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The quarantine table: edits the endpoint could not rekey, one row per source row, edit and
 * target, and one counter per peer. Rows are {@code <peer id>/<source row hex>/<WAL sequence
 * id>/<target>}, family {@code q}: {@code reason}, {@code source_table}, {@code target_table},
 * {@code source_row} (hex), and each cell of the edit as {@code cell:<type>:<family>:<qualifier>}
 * at the cell's own timestamp with its value: what to replay by hand once the key is fixed. Writing
 * a row again (a retried batch) rewrites the same cells. The counter is row {@code !count/<peer
 * id>}, {@code q:quarantined}: {@code rekey replicate status} prints it.
 */
public final class Quarantine {
  public static final byte[] FAMILY = Bytes.toBytes("q");
  public static final byte[] COUNT = Bytes.toBytes("quarantined");

  private Quarantine() {}

  /** The table to create (one family, every version kept: a cell's versions are the edit's). */
  public static TableDescriptor descriptor(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                .setMaxVersions(Integer.MAX_VALUE)
                .build())
        .build();
  }

  public static byte[] counterRow(String peerId) {
    return Bytes.toBytes("!count/" + peerId);
  }

  /** The row prefix of a peer's quarantined edits (a scan's start; {@code 0} after it ends it). */
  public static byte[] rowPrefix(String peerId) {
    return Bytes.toBytes(peerId + "/");
  }

  /** The puts that record the quarantined rows. */
  public static List<Put> puts(
      String peerId, String sourceTable, List<EditRekeyer.Quarantined> quarantined) {
    List<Put> out = new ArrayList<>();
    for (EditRekeyer.Quarantined q : quarantined) {
      Put p =
          new Put(
              Bytes.toBytes(
                  peerId + "/" + q.sourceRowHex() + "/" + q.sequenceId() + "/" + q.targetTable()));
      p.addColumn(FAMILY, Bytes.toBytes("reason"), 0L, utf8(q.reason()));
      p.addColumn(FAMILY, Bytes.toBytes("source_table"), 0L, utf8(sourceTable));
      p.addColumn(FAMILY, Bytes.toBytes("target_table"), 0L, utf8(q.targetTable()));
      p.addColumn(FAMILY, Bytes.toBytes("source_row"), 0L, utf8(q.sourceRowHex()));
      for (Cell c : q.cells()) {
        p.addColumn(
            FAMILY,
            utf8(
                "cell:"
                    + c.getType()
                    + ":"
                    + Bytes.toStringBinary(CellUtil.cloneFamily(c))
                    + ":"
                    + Bytes.toStringBinary(CellUtil.cloneQualifier(c))),
            c.getTimestamp(),
            CellUtil.cloneValue(c));
      }
      out.add(p);
    }
    return out;
  }

  /** Adds {@code n} to the peer's counter. */
  public static Increment count(String peerId, long n) {
    return new Increment(counterRow(peerId)).addColumn(FAMILY, COUNT, n);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
