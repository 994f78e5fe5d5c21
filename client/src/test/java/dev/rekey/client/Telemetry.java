package dev.rekey.client;

import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Synthetic telemetry rows (layouts telemetry-v1 and telemetry-v2) and the tables the client ITs
 * read.
 */
final class Telemetry {
  static final long T0 = 1_764_374_400_000L; // 2025-11-29T00:00Z
  static final long DAY = 86_400_000L;
  static final long HOUR = 3_600_000L;
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] V = Bytes.toBytes("v");

  /** One reading: its natural key and value; the cell timestamp is ts. */
  record Reading(long ts, byte[] deviceId, long value) {
    Map<String, Object> fields() {
      return Map.of("ts", ts, "deviceId", deviceId);
    }

    List<Column> cells() {
      return List.of(Column.at(D, V, ts, Bytes.toBytes(value)));
    }

    /** The natural key bytes (ts | deviceId): the order every layout's reader must return. */
    byte[] natural() {
      return Bytes.add(Bytes.toBytes(ts), deviceId);
    }
  }

  private Telemetry() {}

  /** n readings over one day from the given number of devices, in random times (seeded). */
  static List<Reading> day(int n, int devices, long seed) {
    Random rnd = new Random(seed);
    List<Reading> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long ts = T0 + (long) (rnd.nextDouble() * DAY);
      out.add(new Reading(ts, deviceId(rnd.nextInt(devices)), rnd.nextLong()));
    }
    // one reading per (ts, device): drop accidental duplicates so expectations are exact
    out.sort(Comparator.comparing(Reading::natural, Arrays::compareUnsigned));
    List<Reading> unique = new ArrayList<>();
    for (Reading r : out) {
      if (unique.isEmpty()
          || !Arrays.equals(unique.get(unique.size() - 1).natural(), r.natural())) {
        unique.add(r);
      }
    }
    return unique;
  }

  static byte[] deviceId(int i) {
    try {
      return MessageDigest.getInstance("MD5")
          .digest(("device-" + i).getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A telemetry_v1 table and its telemetry_v2 copy's table, as a test creates them. */
  record Tables(TableName v1, TableName v2) {}

  /**
   * A telemetry_v1 table and a telemetry_v2 table of one region per salt bucket, named {@code
   * prefix_v1} and {@code prefix_v2} (made unique).
   */
  static Tables create(Connection conn, String prefix, KeyLayout v2) throws IOException {
    Tables t =
        new Tables(
            ClientHBase.uniqueTable(prefix + "_v1"), ClientHBase.uniqueTable(prefix + "_v2"));
    try (Admin admin = conn.getAdmin()) {
      createV1(admin, t.v1());
      createV2(admin, t.v2(), v2, 1);
    }
    return t;
  }

  /** The injected failure of the dual-write tests: a table without family d (only x). */
  static void createWithoutFamilyD(Admin admin, TableName t) throws IOException {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("x"))
            .build());
  }

  static void createV1(Admin admin, TableName t) throws IOException {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
            .build());
  }

  /**
   * The salted table pre-split on its 16 salt bytes and, inside every bucket, at each of {@code
   * perBucket - 1} times of the day: more regions than buckets, so one bucket's scan crosses
   * regions.
   */
  static void createV2(Admin admin, TableName t, KeyLayout v2, int perBucket) throws IOException {
    List<byte[]> splits = new ArrayList<>();
    for (int b = 0; b < v2.prefix().buckets(); b++) {
      if (b > 0) {
        splits.add(new byte[] {(byte) b});
      }
      for (int k = 1; k < perBucket; k++) {
        splits.add(Bytes.add(new byte[] {(byte) b}, Bytes.toBytes(T0 + k * DAY / perBucket)));
      }
    }
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
            .build(),
        splits.toArray(new byte[0][]));
  }
}
