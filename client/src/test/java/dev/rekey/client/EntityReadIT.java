package dev.rekey.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The hash-prefix layout (events-v2): one user's events are one range, newest first, on a 4-region
 * table.
 */
@Tag("e2e")
class EntityReadIT {
  private static final KeyLayout EVENTS = Layouts.shipped("events-v2");
  private static final long T0 = Telemetry.T0;
  private static final List<String> USERS = List.of("alice", "ab", "abc", "bob", "carol");
  private static TableName table;
  private static List<long[]> events; // {user index, ts}

  @BeforeAll
  static void writeEvents() throws Exception {
    table = ClientHBase.uniqueTable("events");
    try (Admin admin = ClientHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("e"))
              .build(),
          EVENTS.splitPoints(4).toArray(new byte[0][]));
    }
    Random rnd = new Random(5);
    events = new ArrayList<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      int u = rnd.nextInt(USERS.size());
      long ts = T0 + rnd.nextInt(86_400) * 1_000L;
      events.add(new long[] {u, ts});
      puts.add(
          new Put(EVENTS.encode(Map.of("userId", USERS.get(u), "ts", ts)))
              .addColumn(Bytes.toBytes("e"), Bytes.toBytes("n"), ts, Bytes.toBytes(i)));
    }
    try (Table t = ClientHBase.connection().getTable(table)) {
      t.put(puts);
    }
  }

  @Test
  void oneUsersEventsAreNewestFirstAndReverseIsOldestFirst() {
    try (LayoutReader reader = LayoutReader.open(ClientHBase.connection(), table, EVENTS)) {
      for (int u = 0; u < USERS.size(); u++) {
        List<Long> newestFirst = times(u, T0, T0 + 86_400_000L);
        Collections.sort(newestFirst, Collections.reverseOrder());
        ReadQuery all = ReadQuery.builder().where("userId", USERS.get(u)).build();
        assertEquals(
            dedup(newestFirst),
            times(reader.scan(all)),
            USERS.get(u) + " (ab must not see abc's events)");

        List<Long> oldestFirst = new ArrayList<>(dedup(newestFirst));
        Collections.reverse(oldestFirst);
        List<Result> firstThree =
            reader.scan(
                ReadQuery.builder().where("userId", USERS.get(u)).reverse(true).limit(3).build());
        assertEquals(oldestFirst.subList(0, Math.min(3, oldestFirst.size())), times(firstThree));

        long from = T0 + 6 * Telemetry.HOUR;
        long to = T0 + 12 * Telemetry.HOUR;
        List<Long> window = times(u, from, to);
        Collections.sort(window, Collections.reverseOrder());
        assertEquals(
            dedup(window),
            times(
                reader.scan(
                    ReadQuery.builder().where("userId", USERS.get(u)).window(from, to).build())));
      }
      assertThrows(UnsupportedReadException.class, () -> reader.scan(ReadQuery.window(T0, T0 + 1)));
    }
  }

  /**
   * A hot device spread over 8 sub-buckets (each its own hash prefix, so its own region): its
   * history is 8 scans merged by time, newest first, as one range would have given it.
   */
  @Test
  void aHotEntitysSubBucketsAreMergedIntoOneHistory() throws Exception {
    KeyLayout hot =
        Layouts.inline(
            """
            name: hot-device
            time: ts
            prefix:
              kind: hash_prefix
              hash: md5
              bytes: 2
              fields:
                - device
                - sb
            fields:
              - name: device
                type: string
              - name: sb
                type: sub_bucket
                from: ts
                buckets: 8
              - name: ts
                type: reversed_long
            """);
    TableName t = ClientHBase.uniqueTable("hot");
    try (Admin admin = ClientHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("e"))
              .build(),
          hot.splitPoints(8).toArray(new byte[0][]));
    }
    Random rnd = new Random(9);
    List<Long> hotTimes = new ArrayList<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String device = i % 3 == 0 ? "ho" : "hot"; // "ho" must not leak into "hot"'s ranges
      long ts = T0 + i * 60_000L + rnd.nextInt(1000);
      if (device.equals("hot")) {
        hotTimes.add(ts);
      }
      puts.add(
          new Put(hot.encode(Map.of("device", device, "ts", ts)))
              .addColumn(Bytes.toBytes("e"), Bytes.toBytes("n"), ts, Bytes.toBytes(i)));
    }
    try (Table table = ClientHBase.connection().getTable(t)) {
      table.put(puts);
    }
    List<Long> newestFirst = new ArrayList<>(hotTimes);
    Collections.sort(newestFirst, Collections.reverseOrder());
    try (LayoutReader reader = LayoutReader.open(ClientHBase.connection(), t, hot)) {
      ReadQuery history = ReadQuery.builder().where("device", "hot").build();
      assertEquals(8, reader.plan(history).ranges().size());
      assertEquals(newestFirst, times(hot, reader.scan(history)));

      List<Long> oldestFirst = new ArrayList<>(hotTimes);
      Collections.sort(oldestFirst);
      assertEquals(
          oldestFirst.subList(0, 5),
          times(
              hot,
              reader.scan(
                  ReadQuery.builder().where("device", "hot").reverse(true).limit(5).build())));

      long from = T0 + 60 * 60_000L;
      long to = T0 + 120 * 60_000L;
      List<Long> window = newestFirst.stream().filter(x -> x >= from && x < to).toList();
      assertEquals(
          window,
          times(
              hot,
              reader.scan(ReadQuery.builder().where("device", "hot").window(from, to).build())));
    }
  }

  private static List<Long> times(KeyLayout layout, List<Result> rows) {
    List<Long> out = new ArrayList<>();
    for (Result r : rows) {
      out.add((Long) layout.decode(r.getRow()).get("ts"));
    }
    return out;
  }

  private static List<Long> times(int user, long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long[] e : events) {
      if (e[0] == user && e[1] >= from && e[1] < to) {
        out.add(e[1]);
      }
    }
    return out;
  }

  /** Two events of one user at the same millisecond are one row (the later put wins). */
  private static List<Long> dedup(List<Long> sorted) {
    List<Long> out = new ArrayList<>();
    for (Long t : sorted) {
      if (out.isEmpty() || !out.get(out.size() - 1).equals(t)) {
        out.add(t);
      }
    }
    return out;
  }

  private static List<Long> times(List<Result> rows) {
    List<Long> out = new ArrayList<>();
    for (Result r : rows) {
      out.add((Long) EVENTS.decode(r.getRow()).get("ts"));
    }
    assertTrue(out.size() == rows.size());
    return out;
  }
}
