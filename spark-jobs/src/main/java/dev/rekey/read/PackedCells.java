package dev.rekey.read;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A row's cells as one byte array: {@code int count, (int length, KeyValue bytes) x count}
 * (KeyValue's own serialization, tags dropped): the cells part of the rows backfill shuffles and
 * writes, packed under their new row key straight from the source cells, one array instead of a
 * graph of ~20 objects per row. (The scan's report cache keeps less per cell: {@code RowBlock}.)
 */
public final class PackedCells {
  private PackedCells() {}

  /** Bytes {@link #packAs} takes for these cells under a row key of {@code rowLength} bytes. */
  public static int sizeAs(int rowLength, Cell[] cells) {
    int size = 4;
    for (Cell c : cells) {
      size += 4 + keyValueLength(rowLength, c);
    }
    return size;
  }

  /**
   * The length of the cell's KeyValue (without tags) under a row key of {@code rowLength} bytes.
   */
  public static int keyValueLength(int rowLength, Cell c) {
    return KeyValueUtil.length(
        (short) rowLength,
        c.getFamilyLength(),
        c.getQualifierLength(),
        c.getValueLength(),
        0,
        false);
  }

  /**
   * Packs the cells into {@code out} from {@code at}, every cell written under {@code row} instead
   * of its own (room for {@link #sizeAs} bytes): a re-keyed row, without first copying each cell
   * into a KeyValue of the new row. Returns the end offset.
   */
  public static int packAs(byte[] row, Cell[] cells, byte[] out, int at) {
    Bytes.putInt(out, at, cells.length);
    at += 4;
    for (Cell c : cells) {
      at = packCell(row, c, out, at);
    }
    return at;
  }

  /**
   * One cell as {@code (int length, KeyValue bytes)} at {@code at}, under {@code row} if given
   * (null: its own); room for {@code 4 +} {@link #keyValueLength} bytes. Returns the end offset.
   */
  public static int packCell(byte[] row, Cell c, byte[] out, int at) {
    byte[] r = row != null ? row : c.getRowArray();
    int len =
        KeyValue.writeByteArray(
            out,
            at + 4,
            r,
            row != null ? 0 : c.getRowOffset(),
            row != null ? row.length : c.getRowLength(),
            c.getFamilyArray(),
            c.getFamilyOffset(),
            c.getFamilyLength(),
            c.getQualifierArray(),
            c.getQualifierOffset(),
            c.getQualifierLength(),
            c.getTimestamp(),
            KeyValue.Type.codeToType(c.getTypeByte()),
            c.getValueArray(),
            c.getValueOffset(),
            c.getValueLength(),
            null);
    Bytes.putInt(out, at, len);
    return at + 4 + len;
  }

  /**
   * A row packed cell by cell as its cells stream past under one row key ({@link #packAs} for cells
   * that are not kept: each is copied during its call), then taken as one array of its own. One per
   * task, reused row after row.
   */
  public static final class Builder {
    private byte[] buf = new byte[8192];
    private int at = 4;
    private int count;

    /** Starts an empty row. */
    public void clear() {
      at = 4;
      count = 0;
    }

    /** Adds {@code c} under {@code row}. */
    public void add(byte[] row, Cell c) {
      int need = at + 4 + keyValueLength(row.length, c);
      if (need > buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.max(need, 2 * buf.length));
      }
      at = packCell(row, c, buf, at);
      count++;
    }

    /** Cells added since {@link #clear}. */
    public int count() {
      return count;
    }

    /**
     * The row so far as KeyValues pointing into this builder's buffer: valid until the next {@link
     * #clear} (copy what you keep, or take {@link #toArray}).
     */
    public KeyValue[] cells() {
      Bytes.putInt(buf, 0, count);
      return unpack(buf, 0);
    }

    /** The row so far, packed as {@link #packAs} packs it, in an array of its own. */
    public byte[] toArray() {
      byte[] out = java.util.Arrays.copyOf(buf, at);
      Bytes.putInt(out, 0, count);
      return out;
    }
  }

  /**
   * The cells packed at {@code offset} of {@code buf}, as KeyValues pointing into it (not copied).
   * Plain {@link KeyValue}s, on purpose: a backfill wrote its HFiles ~30% slower when these were
   * HBase's {@code SizeCachedNoTagsKeyValue} (the HFile reader's class) or a KeyValue subclass of
   * rekey's that skipped HBase's length check (bench/backfill/run.sh 6000000 repeat, same machine,
   * back to back: in-order rekey 9.6–11.2 s against 13.6–16.9 s); the JIT compiles the HFile
   * writer's and the comparators' calls for the classes they see.
   */
  public static KeyValue[] unpack(byte[] buf, int offset) {
    KeyValue[] cells = new KeyValue[Bytes.toInt(buf, offset)];
    int at = offset + 4;
    for (int i = 0; i < cells.length; i++) {
      int len = Bytes.toInt(buf, at);
      cells[i] = new KeyValue(buf, at + 4, len);
      at += 4 + len;
    }
    return cells;
  }
}
