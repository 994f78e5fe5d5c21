package dev.rekey.read;

import java.io.Serializable;

/**
 * Two folds fed by one read: every row streamed into both sinks, so a job that wants two totals of
 * the same rows (analyze's sample and the guardrails; a dry run's estimate and the guardrails)
 * reads its source once.
 */
public record BothFolds<A, B>(PartitionFold<A> first, PartitionFold<B> second)
    implements PartitionFold<BothFolds.Both<A, B>> {
  private static final long serialVersionUID = 1L;

  /** The two totals of a partition. */
  public record Both<A, B>(A first, B second) implements Serializable {}

  @Override
  public Sink<Both<A, B>> open(int partition) {
    Sink<A> a = first.open(partition);
    Sink<B> b = second.open(partition);
    return new Sink<>() {
      @Override
      public void startRow(byte[] key) {
        a.startRow(key);
        b.startRow(key);
      }

      @Override
      public void cell(org.apache.hadoop.hbase.Cell c) {
        a.cell(c);
        b.cell(c);
      }

      @Override
      public void endRow() {
        a.endRow();
        b.endRow();
      }

      @Override
      public void dropRow() {
        a.dropRow();
        b.dropRow();
      }

      @Override
      public Both<A, B> result() {
        return new Both<>(a.result(), b.result());
      }

      @Override
      public void abandon() {
        try {
          a.abandon();
        } finally {
          b.abandon();
        }
      }
    };
  }
}
