package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.PackedCells;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Up to {@link #ROWS} consecutive rows of a partition, each row's cells packed ({@link
 * PackedCells}) one after another in one array: how the scan caches its rows for the reports. A few
 * large arrays per partition instead of objects per row: Spark's memory store sizes them in one
 * step and the garbage collector has little to trace (caching decoded row objects was most of the
 * scan's CPU in a JFR profile of bench/scan).
 */
final class RowBlock implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int ROWS = 1024;

  private final byte[] data;

  /** End offset in {@code data} of each row. */
  private final int[] ends;

  private RowBlock(byte[] data, int[] ends) {
    this.data = data;
    this.ends = ends;
  }

  int rows() {
    return ends.length;
  }

  /** The rows' cells, as KeyValues pointing into the block (copy what you keep). */
  Iterator<Cell[]> rowCells() {
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < ends.length;
      }

      @Override
      public Cell[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        int start = i == 0 ? 0 : ends[i - 1];
        i++;
        return PackedCells.unpack(data, start);
      }
    };
  }

  /** Collects rows until full. */
  static final class Builder {
    private byte[] data = new byte[64 * 1024];
    private int[] ends = new int[ROWS];
    private int n;
    private int size;

    boolean isEmpty() {
      return n == 0;
    }

    boolean isFull() {
      return n == ROWS;
    }

    private int rowCells; // cells of the row being added
    private int rowStart; // where it starts in data

    /** Starts a row, its cells added as they stream past ({@link #cell}). */
    void startRow() {
      rowStart = size;
      rowCells = 0;
      room(4);
      size += 4; // the row's cell count, written at its end
    }

    /** A cell of the row started: copied, as packed ({@link PackedCells}), during this call. */
    void cell(Cell c) {
      room(4 + PackedCells.keyValueLength(c.getRowLength(), c));
      size = PackedCells.packCell(null, c, data, size);
      rowCells++;
    }

    /** The row started is complete. */
    void endRow() {
      Bytes.putInt(data, rowStart, rowCells);
      ends[n++] = size;
    }

    /** The row started is not kept. */
    void dropRow() {
      size = rowStart;
    }

    private void room(int need) {
      if (size + need > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, size + need));
      }
    }

    /** The block so far (trimmed); the builder starts over. */
    RowBlock build() {
      RowBlock b = new RowBlock(Arrays.copyOf(data, size), Arrays.copyOf(ends, n));
      n = 0;
      size = 0;
      return b;
    }
  }
}
