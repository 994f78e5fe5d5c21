package dev.rekey.client;

import dev.rekey.rowkey.BucketRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hbase.TableName;

/**
 * One scan of a merged read failed, so the whole read fails: rows of the other buckets are never
 * handed out as if they were the complete answer. Names the table, the bucket and its key range.
 */
public final class BucketReadException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;
  private final transient BucketRange range;

  public BucketReadException(TableName table, BucketRange range, Throwable cause) {
    super(
        String.format(
            "Cannot read %s %s: %s (the read is incomplete and returned nothing; check that the"
                + " table's regions are online, e.g. `hbck`, then retry)",
            table.getNameAsString(), range.describe(), reason(cause)),
        cause instanceof IOException io ? io : new IOException(cause));
    this.range = range;
  }

  public BucketRange range() {
    return range;
  }

  /** The failed salt bucket, or -1 for an unsalted read. */
  public int bucket() {
    return range.bucket();
  }

  private static String reason(Throwable t) {
    String m = t.getMessage();
    String first = m == null ? "" : m.lines().findFirst().orElse("");
    return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
  }
}
