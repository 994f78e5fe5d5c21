package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.Tag("unit")
class PackedCellsTest {
  @Test
  void cellsSurviveARoundTripWithTheirTimestampsTypesAndValues() {
    byte[] row = Bytes.toBytes("row-1");
    Cell[] cells = {
      new KeyValue(
          row, Bytes.toBytes("d"), Bytes.toBytes("a"), 1_764_374_400_000L, Bytes.toBytes(42L)),
      new KeyValue(
          row, Bytes.toBytes("d"), Bytes.toBytes("b"), 7L, KeyValue.Type.Delete, new byte[0]),
      // a tagged cell in the middle of a larger buffer: only its own bytes, without the tags, are
      // packed
      new KeyValue(
          row,
          Bytes.toBytes("e"),
          Bytes.toBytes(""),
          3L,
          Bytes.toBytes("v"),
          new Tag[] {new ArrayBackedTag((byte) 1, "t")})
    };
    // packed cell by cell under their own row, at an offset, as a scan's row block packs a row
    byte[] buf = new byte[1024];
    int at = 3 + 4;
    for (Cell c : cells) {
      at = PackedCells.packCell(null, c, buf, at);
    }
    Bytes.putInt(buf, 3, cells.length);
    Cell[] back = PackedCells.unpack(buf, 3);
    assertEquals(cells.length, back.length);
    for (int i = 0; i < cells.length; i++) {
      assertArrayEquals(CellUtil.cloneRow(cells[i]), CellUtil.cloneRow(back[i]));
      assertArrayEquals(CellUtil.cloneFamily(cells[i]), CellUtil.cloneFamily(back[i]));
      assertArrayEquals(CellUtil.cloneQualifier(cells[i]), CellUtil.cloneQualifier(back[i]));
      assertEquals(cells[i].getTimestamp(), back[i].getTimestamp());
      assertEquals(cells[i].getTypeByte(), back[i].getTypeByte());
      assertArrayEquals(CellUtil.cloneValue(cells[i]), CellUtil.cloneValue(back[i]));
      assertEquals(0, back[i].getTagsLength());
    }
  }

  @Test
  void cellsPackedUnderANewRowKeepEverythingElse() {
    byte[] source = Bytes.toBytes("old-key");
    byte[] target = Bytes.toBytes("a-longer-new-key");
    Cell[] cells = {
      new KeyValue(source, Bytes.toBytes("d"), Bytes.toBytes("a"), 9L, Bytes.toBytes(42L)),
      new KeyValue(
          source, Bytes.toBytes("d"), Bytes.toBytes("b"), 7L, KeyValue.Type.Delete, new byte[0])
    };
    byte[] buf = new byte[PackedCells.sizeAs(target.length, cells)];
    assertEquals(buf.length, PackedCells.packAs(target, cells, buf, 0));
    KeyValue[] back = PackedCells.unpack(buf, 0);
    for (int i = 0; i < cells.length; i++) {
      assertArrayEquals(target, CellUtil.cloneRow(back[i]));
      assertArrayEquals(CellUtil.cloneQualifier(cells[i]), CellUtil.cloneQualifier(back[i]));
      assertEquals(cells[i].getTimestamp(), back[i].getTimestamp());
      assertEquals(cells[i].getTypeByte(), back[i].getTypeByte());
      assertArrayEquals(CellUtil.cloneValue(cells[i]), CellUtil.cloneValue(back[i]));
      assertEquals(PackedCells.keyValueLength(target.length, cells[i]), back[i].getLength());
    }
  }

  @Test
  void noCellsPackToTheCountAlone() {
    byte[] buf = new byte[PackedCells.sizeAs(3, new Cell[0])];
    assertEquals(4, buf.length);
    assertEquals(4, PackedCells.packAs(Bytes.toBytes("key"), new Cell[0], buf, 0));
    assertEquals(0, PackedCells.unpack(buf, 0).length);
  }

  @Test
  void aBuildersRowInPlaceEqualsItsOwnArray() {
    byte[] target = Bytes.toBytes("new-key");
    PackedCells.Builder b = new PackedCells.Builder();
    b.add(
        target,
        new KeyValue(
            Bytes.toBytes("old"), Bytes.toBytes("d"), Bytes.toBytes("a"), 9L, Bytes.toBytes(1L)));
    b.add(
        target,
        new KeyValue(
            Bytes.toBytes("old"), Bytes.toBytes("d"), Bytes.toBytes("b"), 8L, new byte[300]));
    KeyValue[] inPlace = b.cells();
    KeyValue[] own = PackedCells.unpack(b.toArray(), 0);
    assertEquals(2, inPlace.length);
    for (int i = 0; i < own.length; i++) {
      assertArrayEquals(target, CellUtil.cloneRow(inPlace[i]));
      assertArrayEquals(CellUtil.cloneQualifier(own[i]), CellUtil.cloneQualifier(inPlace[i]));
      assertEquals(own[i].getTimestamp(), inPlace[i].getTimestamp());
      assertArrayEquals(CellUtil.cloneValue(own[i]), CellUtil.cloneValue(inPlace[i]));
    }
  }
}
