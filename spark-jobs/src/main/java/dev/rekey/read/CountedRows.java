package dev.rekey.read;

import java.util.Iterator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.util.CollectionAccumulator;

/**
 * Counts the rows a partition's scanners returned and reports them once the partition is read to
 * its end (a partly read partition, e.g. by take(1), reports nothing): rows scanned per region,
 * whatever the job does with them.
 */
final class CountedRows implements Iterator<Result> {
  private final int partition;
  private final Iterator<Result> in;
  private final CollectionAccumulator<RegionScan.PartitionCount> out;
  private byte[] firstKey;
  private long rows;
  private boolean reported;

  CountedRows(
      int partition, Iterator<Result> in, CollectionAccumulator<RegionScan.PartitionCount> out) {
    this.partition = partition;
    this.in = in;
    this.out = out;
  }

  @Override
  public boolean hasNext() {
    boolean more = in.hasNext();
    if (!more && !reported) {
      reported = true;
      out.add(new RegionScan.PartitionCount(partition, firstKey, rows));
    }
    return more;
  }

  @Override
  public Result next() {
    Result r = in.next();
    if (rows++ == 0) {
      firstKey = r.getRow();
    }
    return r;
  }
}
