package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.DecodedCell;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RowBlockTest {
  private static Cell[] row(int i) {
    byte[] key = Bytes.toBytes(String.format("row-%05d", i));
    List<Cell> cells = new ArrayList<>();
    for (int c = 0; c <= i % 3; c++) { // 1 to 3 cells, values of varying length
      cells.add(
          new KeyValue(
              key, Bytes.toBytes("d"), Bytes.toBytes("q" + c), 1_000L + i, new byte[i % 200]));
    }
    return cells.toArray(new Cell[0]);
  }

  @Test
  void rowsComeBackInOrderWithTheirCellsAcrossFullAndPartialBlocks() {
    RowBlock.Builder b = new RowBlock.Builder();
    List<RowBlock> blocks = new ArrayList<>();
    for (int i = 0; i < 2 * RowBlock.ROWS + 7; i++) {
      if (i % 100 == 0) { // a row dropped midway (streamed again, as the reader may): not kept
        b.startRow(CellUtil.cloneRow(row(i)[0]));
        b.cell(row(i)[0]);
        b.dropRow();
      }
      b.startRow(CellUtil.cloneRow(row(i)[0]));
      for (Cell c : row(i)) {
        b.cell(c);
      }
      b.endRow();
      if (b.isFull()) {
        blocks.add(b.build());
      }
    }
    assertFalse(b.isEmpty());
    blocks.add(b.build());
    assertTrue(b.isEmpty(), "build() starts over");
    assertEquals(
        List.of(RowBlock.ROWS, RowBlock.ROWS, 7), blocks.stream().map(RowBlock::rows).toList());
    int i = 0;
    for (RowBlock block : blocks) {
      for (Iterator<RowBlock.Row> it = block.rowsInOrder(); it.hasNext(); i++) {
        RowBlock.Row got = it.next();
        Cell[] want = row(i);
        assertArrayEquals(CellUtil.cloneRow(want[0]), got.key());
        assertEquals(want.length, got.cells().size());
        for (int c = 0; c < want.length; c++) {
          assertEquals(DecodedCell.of(want[c]), got.cells().get(c));
        }
      }
    }
    assertEquals(2 * RowBlock.ROWS + 7, i);
  }

  @Test
  void aBlockSpilledToDiskComesBackWithTheSameRows() {
    // MEMORY_AND_DISK: a cached block that does not fit is written with the job's serializer
    RowBlock.Builder b = new RowBlock.Builder();
    for (int i = 0; i < 300; i++) {
      b.startRow(CellUtil.cloneRow(row(i)[0]));
      for (Cell c : row(i)) {
        b.cell(c);
      }
      b.endRow();
    }
    RowBlock block = b.build();
    RowBlock back = org.apache.commons.lang3.SerializationUtils.roundtrip(block);
    assertEquals(300, back.rows());
    Iterator<RowBlock.Row> a = block.rowsInOrder();
    Iterator<RowBlock.Row> z = back.rowsInOrder();
    while (a.hasNext()) {
      RowBlock.Row want = a.next();
      RowBlock.Row got = z.next();
      assertArrayEquals(want.key(), got.key());
      assertEquals(want.cells(), got.cells());
    }
    assertFalse(z.hasNext());
  }
}
