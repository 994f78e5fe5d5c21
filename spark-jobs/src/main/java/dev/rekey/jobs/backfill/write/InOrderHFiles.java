package dev.rekey.jobs.backfill.write;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.jobs.backfill.plan.WritePath;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.io.Serializable;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.TaskContext;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * The HFile write of both paths ({@link WritePath}): one task streams rows in target order within
 * each (target region, salt bucket) slot ({@link HFileSlots}) into one HFile per slot and family —
 * on the in-order path a read task's re-keyed rows as read (no shuffle, no sort), on the sorted
 * path a sorted partition's rows. Here the rows are checked for order and collisions and counted;
 * the files are the attempt's {@link AttemptFiles}, each written with HBase's own {@link
 * StoreFileWriter} and the target family's compression, bloom type, block size and data block
 * encoding, carrying the metadata HFileOutputFormat2 gives bulk-load files.
 *
 * <p>Commit protocol: an attempt writes under its own directory and returns the list of files it
 * closed; the driver moves only the files of the attempts whose results Spark kept (one per
 * partition) and removes the rest, so a failed, retried or speculative attempt never leaves a file
 * to load.
 */
public final class InOrderHFiles implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final int MAX_EXAMPLES_PER_TASK = 3;

  /**
   * One closed HFile of a successful attempt: where it is, its target region and family, and its
   * cells.
   */
  public record WrittenFile(String path, int region, String family, long cells)
      implements Serializable {}

  private final HFileSlots slots;
  private final byte[] descriptor;
  private final Map<String, String> conf;
  private final String attemptsDir;

  /**
   * Files cut into {@code slots}, with {@code target}'s family settings, written under {@code
   * attemptsDir} with the Hadoop/HBase configuration {@code conf}.
   */
  InOrderHFiles(
      HFileSlots slots, TableDescriptor target, Map<String, String> conf, Path attemptsDir) {
    this.slots = slots;
    this.descriptor = TableDescriptorBuilder.toByteArray(target);
    this.conf = conf;
    this.attemptsDir = attemptsDir.toString();
  }

  /** Writes one partition's rows; returns the files it closed. */
  List<WrittenFile> write(Iterator<RowRekeyer.Rekeyed> rows, WriteTally tally) throws IOException {
    Task task = open(tally);
    boolean done = false;
    try {
      while (rows.hasNext()) {
        task.add(rows.next());
      }
      List<WrittenFile> files = task.finish();
      done = true;
      return files;
    } finally {
      if (!done) {
        task.abandon(); // the attempt's dir is removed by the driver; only release the streams here
      }
    }
  }

  /**
   * One task's write, rows handed in one at a time (the cell stream's path: {@link StreamRekeyer}).
   */
  Task open(WriteTally tally) throws IOException {
    TaskContext tc = TaskContext.get();
    Configuration c = HBaseConfigs.fromMap(conf);
    Path dir =
        new Path(
            attemptsDir,
            String.format(
                "p%05d-a%d-%d", tc.partitionId(), tc.attemptNumber(), tc.taskAttemptId()));
    TableDescriptor target;
    try {
      target = TableDescriptorBuilder.parseFrom(descriptor);
    } catch (DeserializationException e) {
      throw new IOException(e);
    }
    return new Task(new AttemptFiles(slots, dir, c, target, tc.taskAttemptId()), tally);
  }

  /**
   * The rows of one task, in target order within each (region, bucket), into their files; counted
   * per region and hour. A row whose target key repeats the previous one of its region and bucket
   * is a collision: counted, an example kept, not written.
   */
  final class Task implements StreamRekeyer.Rows<List<WrittenFile>> {
    private final AttemptFiles writers;
    private final KeyedCounts counts;
    private final LongAccumulator collisions;
    private final CollectionAccumulator<String> examples;
    private final long[] rowsPer = new long[slots.regions()];
    private final long[] cellsPer = new long[slots.regions()];
    private final long[] bytesPer = new long[slots.regions()];
    private final Map<Long, Long> rowsPerHour = new HashMap<>();
    private long runHour = Long.MIN_VALUE;
    private long runRows = 0;
    // per region, per bucket: the last target key written there and its source key (arrays, not
    // maps: rows of consecutive buckets interleave, and a boxed slot per row cost ~3% of the task)
    private final byte[][][] lastKey = new byte[slots.regions()][][];
    private final byte[][][] lastSource = new byte[slots.regions()][][];
    private int examplesAdded = 0;

    private Task(AttemptFiles writers, WriteTally tally) {
      this.writers = writers;
      this.counts = tally.counts();
      this.collisions = tally.collisions();
      this.examples = tally.examples();
    }

    @Override
    public void add(RowRekeyer.Rekeyed r) throws IOException {
      byte[] key = r.targetKey();
      int region = slots.regionOf(key);
      int bucket = slots.bucketOf(key);
      if (lastKey[region] == null) {
        lastKey[region] = new byte[slots.buckets()][];
        lastSource[region] = new byte[slots.buckets()][];
      }
      byte[] last = lastKey[region][bucket];
      if (last != null) {
        int cmp = Bytes.compareTo(last, key);
        if (cmp == 0) {
          collisions.add(1);
          if (examplesAdded++ < MAX_EXAMPLES_PER_TASK) {
            examples.add(
                String.format(
                    "target key %s <- source keys %s and %s",
                    Hex.of(key), Hex.of(lastSource[region][bucket]), Hex.of(r.sourceKey())));
          }
          return;
        }
        if (cmp > 0) {
          // the plan's rule guarantees order; a break here is a bug, never a silently bad file
          throw new IllegalStateException(
              String.format(
                  "target key %s arrived after %s in region %d: the rows are not in target order",
                  Hex.of(key), Hex.of(last), region));
        }
      }
      lastKey[region][bucket] = key;
      lastSource[region][bucket] = r.sourceKey();
      rowsPer[region]++;
      if (r.time() != Rekeyer.NO_TIME) {
        // rows of one hour mostly arrive together: count a run, add it when the hour changes
        long hour = Math.floorDiv(r.time(), 3_600_000L) * 3_600_000L;
        if (hour != runHour) {
          if (runRows > 0) {
            rowsPerHour.merge(runHour, runRows, Long::sum);
          }
          runHour = hour;
          runRows = 0;
        }
        runRows++;
      }
      for (org.apache.hadoop.hbase.Cell cell : r.cells()) {
        KeyValue kv = (KeyValue) cell;
        writers.append(region, bucket, kv);
        cellsPer[region]++;
        bytesPer[region] += kv.getLength();
      }
    }

    /** Closes the files and adds the task's counts; returns the files closed. */
    @Override
    public List<WrittenFile> finish() throws IOException {
      if (runRows > 0) {
        rowsPerHour.merge(runHour, runRows, Long::sum);
        runRows = 0;
      }
      List<WrittenFile> files = writers.closeAll();
      for (int i = 0; i < rowsPer.length; i++) {
        if (rowsPer[i] > 0) {
          counts.add("rows." + i, rowsPer[i]);
          counts.add("cells." + i, cellsPer[i]);
          counts.add("bytes." + i, bytesPer[i]);
        }
      }
      rowsPerHour.forEach((hour, n) -> counts.add("hour." + Instant.ofEpochMilli(hour), n));
      return files;
    }

    /** Releases the open streams of a failed attempt (its dir is removed by the driver). */
    @Override
    public void abandon() {
      writers.abandon();
    }
  }
}
