package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class UnreadableRowsTest {
  @Test
  void hbasesMessageBecomesTheRowInHexTheLimitAndWhereToRaiseIt() {
    String hbase =
        "Max row size allowed: 1048576, but the row is bigger than that, the row info:"
            + " ab\\x00\\xFF/d:c210/1000/Put/vlen=8192/seqid=5, already have process row cells = 128, it belong to region ="
            + " t,,1764.abc.";
    assertEquals(
        "Cannot read snapshot s: row 0x616200ff (region t,,1764.abc.) is bigger than"
            + " hbase.table.max.rowsize (1048576 bytes), so HBase refuses to read it. Nothing was"
            + " loaded or written. A snapshot is read by the job itself: raise"
            + " hbase.table.max.rowsize above the row's size in the --hbase-site the job reads, and"
            + " rerun.",
        UnreadableRows.message("snapshot s", true, hbase));
    String live = UnreadableRows.message("table t", false, "Max row size allowed: 5");
    assertEquals(
        true,
        live.startsWith(
                "Cannot read table t: a row is bigger than hbase.table.max.rowsize (Max row size"
                    + " allowed: 5), so HBase refuses to read it.")
            && live.endsWith(
                "The RegionServers apply their own setting: raise hbase.table.max.rowsize in their"
                    + " hbase-site (and restart them), or read a snapshot of the table with the"
                    + " setting raised for the job."),
        live);
  }

  @Test
  void aNegativeTimestampNamesItsValueAndTheNextStep() {
    assertEquals(
        "Cannot read snapshot s: a store file holds a cell with a negative timestamp (ts=-5), which"
            + " HBase refuses to read (no client can write one: it came in through a bulk-loaded"
            + " HFile). Nothing was loaded or written. Find the file with `hbase hfile -p -f FILE`"
            + " over the table's store files, and rewrite it with non-negative timestamps or remove"
            + " it.",
        UnreadableRows.negativeTimestamp("snapshot s", "-5"));
  }
}
