package dev.rekey.read;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowTooBigException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A read task's rows, where what HBase refuses to read fails the task with a one-line reason and
 * the next step, instead of HBase's message (the key as escaped binary) deep inside Spark's stage
 * failure: a row over {@code hbase.table.max.rowsize} (named in hex, with the limit and where to
 * raise it), and a cell with a negative timestamp (no client can write one, but a bulk-loaded HFile
 * written by HBase's own HFile writer can hold it, and then no scan of its region gets past it).
 * Neither can be skipped: the region scanner refuses to go past them.
 */
final class UnreadableRows implements Iterator<Result> {
  /** HBase's message (regionserver.RowTooBigException, 2.x). */
  private static final Pattern HBASE_MESSAGE =
      Pattern.compile(
          "Max row size allowed: (\\d+), but the row is bigger than that, the row info: (.*),"
              + " already have process row cells = \\d+, it belong to region = (.*)",
          Pattern.DOTALL);

  /**
   * The "row info" HBase puts in that message is the first cell's key: {@code
   * row/family:qualifier/timestamp/type/vlen=N/seqid=N}, the row in escaped binary.
   */
  private static final Pattern CELL_KEY =
      Pattern.compile("(.*)/[^/:]+:.*/-?\\d+/[A-Za-z]+/vlen=\\d+/seqid=\\d+", Pattern.DOTALL);

  /** HBase's message (KeyValueUtil.checkKeyValueBytes, 2.x). */
  private static final Pattern NEGATIVE_TS =
      Pattern.compile("Timestamp cannot be negative, ts=(-?\\d+)");

  private final Iterator<Result> in;
  private final String source;
  private final boolean snapshot;

  UnreadableRows(Iterator<Result> in, String source, boolean snapshot) {
    this.in = in;
    this.source = source;
    this.snapshot = snapshot;
  }

  @Override
  public boolean hasNext() {
    try {
      return in.hasNext();
    } catch (Exception e) {
      throw named(e);
    }
  }

  @Override
  public Result next() {
    try {
      return in.next();
    } catch (Exception e) {
      throw named(e);
    }
  }

  private RuntimeException named(Exception e) {
    RekeyException named = named(e, source, snapshot);
    return named != null ? named : sneaky(e);
  }

  /**
   * The one-line error for a failure HBase raised over something it refuses to read, or null if
   * {@code e} is not one (also for the driver, which reads a snapshot's files to plan the splits).
   */
  static RekeyException named(Throwable e, String source, boolean snapshot) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RowTooBigException
          || String.valueOf(t.getMessage()).contains("Max row size allowed")) {
        RekeyException named = new RekeyException(message(source, snapshot, t.getMessage()));
        // kept for --verbose; not the cause, so the last line printed is this one
        named.addSuppressed(e);
        return named;
      }
      Matcher negative = NEGATIVE_TS.matcher(String.valueOf(t.getMessage()));
      if (negative.find()) {
        RekeyException named = new RekeyException(negativeTimestamp(source, negative.group(1)));
        named.addSuppressed(e);
        return named;
      }
    }
    return null;
  }

  /** The one-line error for HBase's RowTooBigException message (pure). */
  static String message(String source, boolean snapshot, String hbaseMessage) {
    Matcher m = HBASE_MESSAGE.matcher(String.valueOf(hbaseMessage));
    String what =
        m.matches()
            ? "row 0x"
                + Hex.of(Bytes.toBytesBinary(rowOf(m.group(2))))
                + " (region "
                + m.group(3).trim()
                + ") is bigger than hbase.table.max.rowsize ("
                + m.group(1)
                + " bytes)"
            : "a row is bigger than hbase.table.max.rowsize (" + hbaseMessage + ")";
    return "Cannot read "
        + source
        + ": "
        + what
        + ", so HBase refuses to read it. Nothing was loaded or written. "
        + (snapshot
            ? "A snapshot is read by the job itself: raise hbase.table.max.rowsize above the row's size"
                + " in the --hbase-site the job reads, and rerun."
            : "The RegionServers apply their own setting: raise hbase.table.max.rowsize in their"
                + " hbase-site (and restart them), or read a snapshot of the table with the setting"
                + " raised for the job.");
  }

  private static String rowOf(String rowInfo) {
    Matcher cell = CELL_KEY.matcher(rowInfo);
    return cell.matches() ? cell.group(1) : rowInfo;
  }

  /** The one-line error for a store file holding a cell with a negative timestamp (pure). */
  static String negativeTimestamp(String source, String ts) {
    return "Cannot read "
        + source
        + ": a store file holds a cell with a negative timestamp (ts="
        + ts
        + "), which HBase refuses to read (no client can write one: it came in through a bulk-loaded"
        + " HFile). Nothing was loaded or written. Find the file with `hbase hfile -p -f FILE` over"
        + " the table's store files, and rewrite it with non-negative timestamps or remove it.";
  }

  /** Throws {@code e} as it is, checked or not (what a Spark task's iterator may not declare). */
  @SuppressWarnings("unchecked")
  static <E extends Exception> RuntimeException sneaky(Exception e) throws E {
    throw (E) e;
  }
}
