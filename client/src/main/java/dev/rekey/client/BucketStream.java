package dev.rekey.client;

import dev.rekey.rowkey.BucketRange;
import dev.rekey.rowkey.FieldMatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.RowFilter;

/**
 * One bucket's scanner and its current row; every failure becomes a {@link BucketReadException}
 * naming it.
 */
final class BucketStream implements AutoCloseable {
  private final TableName table;
  private final BucketRange range;
  private final ResultScanner scanner;
  private Result head;

  private BucketStream(TableName table, BucketRange range, ResultScanner scanner) {
    this.table = table;
    this.range = range;
    this.scanner = scanner;
  }

  /**
   * Opens the scan and reads its first row (the first RPC round trip happens here, on the caller's
   * thread).
   */
  static BucketStream open(Connection conn, TableName table, BucketRange range, ScanPlan plan) {
    ResultScanner s;
    try (Table t = conn.getTable(table)) {
      s = t.getScanner(scan(range, plan.limit(), plan.reverse(), plan.matches()));
    } catch (IOException | RuntimeException e) {
      throw new BucketReadException(table, range, e);
    }
    BucketStream b = new BucketStream(table, range, s);
    try {
      b.advance();
    } catch (BucketReadException e) {
      b.close();
      throw e;
    }
    return b;
  }

  /**
   * The bucket's scan: limited to {@code limit} rows (no bucket can contribute more), caching
   * min(limit, 1000), and prefetching the next batch in the background while the merge consumes
   * this one, so the N buckets' round trips overlap. Fields the range does not fix are matched by
   * the region server (a row filter comparing the key's bytes at the field's offset), so only the
   * read's rows cross the network.
   */
  static Scan scan(BucketRange range, int limit, boolean reverse, List<FieldMatch> matches) {
    byte[] start = range.range().start();
    byte[] stop = range.range().stop();
    Scan scan = new Scan();
    if (reverse) {
      // a reversed scan starts at the high end: [start, stop) read from stop (exclusive) down to
      // start (inclusive)
      // (an empty stop is the table's end: included, as "exclusive of nothing" would be read as a
      // row before it)
      scan.setReversed(true).withStartRow(stop, stop.length == 0).withStopRow(start, true);
    } else {
      scan.withStartRow(start, true).withStopRow(stop, false);
    }
    scan.setCaching(limit > 0 ? Math.min(limit, 1000) : 1000);
    if (limit > 0) {
      scan.setLimit(limit);
    }
    scan.setAsyncPrefetch(true);
    if (!matches.isEmpty()) {
      List<Filter> filters = new ArrayList<>();
      for (FieldMatch m : matches) {
        filters.add(
            new RowFilter(
                CompareOperator.EQUAL, new BinaryComponentComparator(m.value(), m.offset())));
      }
      scan.setFilter(filters.size() == 1 ? filters.get(0) : new FilterList(filters));
    }
    return scan;
  }

  Result head() {
    return head;
  }

  BucketRange range() {
    return range;
  }

  /** Moves to the next row (null at the end). */
  void advance() {
    try {
      head = scanner.next();
    } catch (IOException | RuntimeException e) {
      throw new BucketReadException(table, range, e);
    }
  }

  @Override
  public void close() {
    scanner.close();
  }
}
