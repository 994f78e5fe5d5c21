package dev.rekey.jobs.scan;

import dev.rekey.common.DecodedCell;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.ByteBufferUtils;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.WritableUtils;

/**
 * Up to {@link #ROWS} consecutive rows of a partition in one array: how the scan caches its rows
 * for the reports. A few large arrays per partition instead of objects per row: Spark's memory
 * store sizes them in one step and the garbage collector has little to trace (caching decoded row
 * objects was most of the scan's CPU in a JFR profile of bench/scan).
 *
 * <p>Each row is {@code vlong keyLength, key, int cellCount}, then per cell {@code vlong
 * familyLength, family, vlong qualifierLength, qualifier, long timestamp, vlong valueLength, value}
 * (Hadoop's variable-length longs): the key once per row and no cell type, the views read neither
 * more (a scan's cells are Puts: HBase applies delete markers before they reach the sink). Half the
 * bytes of a KeyValue per cell on events-v2, and every cached byte is heap the JVM faults in and a
 * young collection copies.
 */
final class RowBlock implements Serializable {
  private static final long serialVersionUID = 2L;
  static final int ROWS = 1024;

  private final byte[] data;
  private final int rows;

  private RowBlock(byte[] data, int rows) {
    this.data = data;
    this.rows = rows;
  }

  int rows() {
    return rows;
  }

  /** A row of the block: its key and cells, copied out. */
  record Row(byte[] key, List<DecodedCell> cells) {}

  /** The rows in order, each copied out of the block as it is taken. */
  Iterator<Row> rowsInOrder() {
    return new Iterator<>() {
      private int i;
      private int at;

      @Override
      public boolean hasNext() {
        return i < rows;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        i++;
        byte[] key = bytes();
        int n = Bytes.toInt(data, at);
        at += 4;
        List<DecodedCell> cells = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
          byte[] family = bytes();
          byte[] qualifier = bytes();
          long ts = Bytes.toLong(data, at);
          at += 8;
          cells.add(new DecodedCell(family, qualifier, ts, bytes()));
        }
        return new Row(key, cells);
      }

      /** A length-prefixed byte string at {@code at}, copied. */
      private byte[] bytes() {
        int len = (int) Bytes.readAsVLong(data, at);
        at += WritableUtils.decodeVIntSize(data[at]);
        byte[] out = Arrays.copyOfRange(data, at, at + len);
        at += len;
        return out;
      }
    };
  }

  /** Collects rows until full. */
  static final class Builder {
    private ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
    private int n;
    private int rowStart; // where the row being added starts
    private int countAt; // where its cell count goes, written at its end
    private int rowCells; // its cells so far

    boolean isEmpty() {
      return n == 0;
    }

    boolean isFull() {
      return n == ROWS;
    }

    /** Starts a row, its cells added as they stream past ({@link #cell}). */
    void startRow(byte[] key) {
      rowStart = buf.position();
      room(9 + key.length + 4);
      ByteBufferUtils.writeVLong(buf, key.length);
      buf.put(key);
      countAt = buf.position();
      buf.putInt(0);
      rowCells = 0;
    }

    /** A cell of the row started: copied during this call. */
    void cell(Cell c) {
      int f = c.getFamilyLength();
      int q = c.getQualifierLength();
      int v = c.getValueLength();
      room(9 + f + 9 + q + 8 + 9 + v);
      ByteBufferUtils.writeVLong(buf, f);
      buf.position(CellUtil.copyFamilyTo(c, buf, buf.position()));
      ByteBufferUtils.writeVLong(buf, q);
      buf.position(CellUtil.copyQualifierTo(c, buf, buf.position()));
      buf.putLong(c.getTimestamp());
      ByteBufferUtils.writeVLong(buf, v);
      buf.position(CellUtil.copyValueTo(c, buf, buf.position()));
      rowCells++;
    }

    /** The row started is complete. */
    void endRow() {
      buf.putInt(countAt, rowCells);
      n++;
    }

    /** The row started is not kept. */
    void dropRow() {
      buf.position(rowStart);
    }

    private void room(int need) {
      if (buf.remaining() < need) {
        ByteBuffer bigger =
            ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + need));
        bigger.put(buf.array(), 0, buf.position());
        buf = bigger;
      }
    }

    /** The block so far (trimmed); the builder starts over. */
    RowBlock build() {
      RowBlock b = new RowBlock(Arrays.copyOf(buf.array(), buf.position()), n);
      n = 0;
      buf.clear();
      return b;
    }
  }
}
