package dev.rekey.jobs.reconcile;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.hbase.Cell;

/**
 * The MD5 of one row's canonical encoding, independent of its row key:
 *
 * <pre>
 *   naturalKey ({@link NaturalKey} bytes, u32 length first)
 *   then per cell, in HBase cell order (family, qualifier, timestamp newest first):
 *     u32 familyLength | family | u32 qualifierLength | qualifier | i64 timestamp | u32 valueLength | value
 * </pre>
 *
 * Cells of one row are ordered by HBase without looking at the row key, so the same cells under two different row
 * keys arrive in the same order and digest the same. A changed value, timestamp, family or qualifier, a lost or an
 * extra cell each change the digest. Not thread-safe: one instance per task.
 */
public final class RowDigest {
  private final MessageDigest md5;
  private final ByteBuffer scratch = ByteBuffer.allocate(8);

  public RowDigest() {
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is required of every JVM", e);
    }
  }

  /** Starts a row. */
  public RowDigest begin(byte[] naturalKey) {
    md5.reset();
    putInt(naturalKey.length);
    md5.update(naturalKey);
    return this;
  }

  public RowDigest cell(byte[] fam, int famOff, int famLen, byte[] qual, int qualOff, int qualLen, long ts,
      byte[] val, int valOff, int valLen) {
    putInt(famLen);
    md5.update(fam, famOff, famLen);
    putInt(qualLen);
    md5.update(qual, qualOff, qualLen);
    scratch.clear();
    md5.update(scratch.putLong(ts).array(), 0, 8);
    putInt(valLen);
    md5.update(val, valOff, valLen);
    return this;
  }

  public RowDigest cell(Cell c) {
    return cell(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength(), c.getQualifierArray(),
        c.getQualifierOffset(), c.getQualifierLength(), c.getTimestamp(), c.getValueArray(), c.getValueOffset(),
        c.getValueLength());
  }

  /** Ends the row: its 128-bit digest as two longs. */
  public Digest128 finish() {
    ByteBuffer d = ByteBuffer.wrap(md5.digest());
    return new Digest128(d.getLong(), d.getLong());
  }

  private void putInt(int v) {
    scratch.clear();
    md5.update(scratch.putInt(v).array(), 0, 4);
  }
}
