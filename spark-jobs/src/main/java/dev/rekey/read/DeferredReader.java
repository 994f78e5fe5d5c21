package dev.rekey.read;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * A record reader that only keeps its split and context at {@code initialize} and opens HBase's
 * reader(s) later, when rows are asked for; keys and values come from the reader it has open. The
 * shape of the snapshot reader opened at the first row and the live reader opened range by range.
 */
abstract class DeferredReader extends RecordReader<ImmutableBytesWritable, Result> {
  protected InputSplit split;
  protected TaskAttemptContext context;

  @Override
  public void initialize(InputSplit s, TaskAttemptContext c) {
    this.split = s;
    this.context = c;
  }

  /** The reader the current row comes from. */
  protected abstract RecordReader<ImmutableBytesWritable, Result> current();

  @Override
  public ImmutableBytesWritable getCurrentKey() throws IOException, InterruptedException {
    return current().getCurrentKey();
  }

  @Override
  public Result getCurrentValue() throws IOException, InterruptedException {
    return current().getCurrentValue();
  }
}
