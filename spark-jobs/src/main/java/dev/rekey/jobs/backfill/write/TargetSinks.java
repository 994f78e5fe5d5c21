package dev.rekey.jobs.backfill.write;

import dev.rekey.read.CellSink;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.PartitionMap;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * A write task's sinks (run layer): the read's cells fanned out to one {@link StreamRekeyer} per
 * target, each copying them under its own target key — into the target's HFiles (in source order)
 * or into the sort shuffle (sorted). One target is the case of one sink: the sinks are an array of
 * a final class, so the fan-out adds no dispatch per cell.
 */
final class TargetSinks {
  private TargetSinks() {}

  /** Every target written in order: per task, each target's HFiles; its total their files. */
  record Folded(List<TargetWriter> targets)
      implements PartitionFold<List<List<InOrderHFiles.WrittenFile>>> {
    @Override
    public Sink<List<List<InOrderHFiles.WrittenFile>>> open(int partition) {
      StreamRekeyer<?>[] sinks = new StreamRekeyer<?>[targets.size()];
      for (int t = 0; t < sinks.length; t++) {
        sinks[t] = new StreamRekeyer<>(targets.get(t).rowRekeyer(), targets.get(t).open());
      }
      return new FoldedSink(sinks);
    }
  }

  /**
   * Some targets sorted: per task, the in-order targets' HFiles, and the sorted targets' rows
   * handed on as (target key, packed row) records — keyed by target index | target key when {@code
   * keyedByIndex} (several sorted targets share the shuffle).
   */
  record Mapped(
      List<TargetWriter> targets,
      boolean keyedByIndex,
      CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles)
      implements PartitionMap<Tuple2<byte[], byte[]>> {
    @Override
    public Sink open(int partition, Consumer<Tuple2<byte[], byte[]>> out) {
      StreamRekeyer<?>[] sinks = new StreamRekeyer<?>[targets.size()];
      for (int t = 0; t < sinks.length; t++) {
        TargetWriter w = targets.get(t);
        StreamRekeyer.Rows<?> rows =
            w.inOrder()
                ? w.open()
                : keyedByIndex ? ShuffledRow.ofTarget(t, out) : ShuffledRow.of(out);
        sinks[t] = new StreamRekeyer<>(w.rowRekeyer(), rows);
      }
      return new MappedSink(sinks, targets, inOrderFiles);
    }
  }

  /** A task's sink per target, fed the same cells: the fan-out of one read. */
  private static class FanOut implements CellSink {
    final StreamRekeyer<?>[] sinks;

    FanOut(StreamRekeyer<?>[] sinks) {
      this.sinks = sinks;
    }

    @Override
    public void startRow(byte[] key) {
      for (StreamRekeyer<?> s : sinks) {
        s.startRow(key);
      }
    }

    @Override
    public void cell(Cell c) {
      for (StreamRekeyer<?> s : sinks) {
        s.cell(c);
      }
    }

    @Override
    public void endRow() {
      for (StreamRekeyer<?> s : sinks) {
        s.endRow();
      }
    }

    @Override
    public void dropRow() {
      for (StreamRekeyer<?> s : sinks) {
        s.dropRow();
      }
    }

    public void abandon() {
      for (StreamRekeyer<?> s : sinks) {
        s.abandon();
      }
    }
  }

  /** Every target's total is the files its HFile writer closed. */
  private static final class FoldedSink extends FanOut
      implements PartitionFold.Sink<List<List<InOrderHFiles.WrittenFile>>> {
    FoldedSink(StreamRekeyer<?>[] sinks) {
      super(sinks);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<List<InOrderHFiles.WrittenFile>> result() {
      List<List<InOrderHFiles.WrittenFile>> out = new ArrayList<>();
      for (StreamRekeyer<?> s : sinks) {
        out.add((List<InOrderHFiles.WrittenFile>) s.result());
      }
      return out;
    }
  }

  /** The in-order targets' files go to the accumulator; the sorted ones' rows went out already. */
  private static final class MappedSink extends FanOut implements PartitionMap.Sink {
    private final List<TargetWriter> targets;
    private final CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles;

    MappedSink(
        StreamRekeyer<?>[] sinks,
        List<TargetWriter> targets,
        CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles) {
      super(sinks);
      this.targets = targets;
      this.inOrderFiles = inOrderFiles;
    }

    @Override
    public void finish() {
      for (int i = 0; i < sinks.length; i++) {
        Object r = sinks[i].result();
        if (targets.get(i).inOrder()) {
          for (Object f : (List<?>) r) {
            inOrderFiles.add(new Tuple2<>(i, (InOrderHFiles.WrittenFile) f));
          }
        }
      }
    }
  }
}
