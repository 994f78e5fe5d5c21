package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults of the load step, done for real to the shared HBase server: readers during the load, a
 * damaged hbase:meta, files loaded twice and a failure after the loader split a file (HBASE-30501);
 * RegionServer errors are {@link BackfillLoadErrorsIT}'s. Each ends with both tables equal by
 * natural key, every version.
 */
@Tag("e2e")
class BackfillLoadFaultsIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  private static BackfillResult run(BackfillOptions o) throws Exception {
    return run(o, SharedHBase.conf(), s -> {});
  }

  private static BackfillResult run(
      BackfillOptions o, Configuration conf, Consumer<String> progress) throws Exception {
    return new Backfill(SharedSpark.session(), conf, o).execute(progress);
  }

  private static long inState(Manifest m, RegionState s) {
    return m.regions().stream().filter(r -> r.state() == s).count();
  }

  private static long rows(TableName table) throws Exception {
    long n = 0;
    try (Table t = SharedHBase.connection().getTable(table);
        ResultScanner sc = t.getScanner(new Scan())) {
      for (Result ignored : sc) {
        n++;
      }
    }
    return n;
  }

  // ------------------------------------------------------------------------------------------
  // readers

  @Test
  void readersDuringTheLoadNeverSeeARowWithSomeFamiliesLoadedAndOthersNot() throws Exception {
    byte[] d = Bytes.toBytes("d");
    byte[] m = Bytes.toBytes("m");
    TableName source = SharedHBase.uniqueTable("bflreaders_v1");
    TableName target = SharedHBase.uniqueTable("bflreaders_v2");
    Admin admin = SharedHBase.connection().getAdmin();
    admin.createTable(
        TableDescriptorBuilder.newBuilder(source)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(d))
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(m))
            .build());
    int rows = 3_000;
    try (Table t = SharedHBase.connection().getTable(source)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        long ts = 1_700_000_000_000L + i * 1_000L;
        byte[] device = new byte[16];
        device[15] = (byte) (i % 7);
        puts.add(
            new Put(V1.encode(Map.of("ts", ts, "deviceId", device)))
                .addColumn(d, Bytes.toBytes("v"), ts, Bytes.toBytes((long) i))
                .addColumn(m, Bytes.toBytes("x"), ts, Bytes.toBytes("meta-" + i)));
      }
      t.put(puts);
    }
    admin.flush(source);
    String snapshot = source.getNameAsString() + "_snap";
    admin.snapshot(snapshot, source);
    TableCreator.table(target)
        .families(List.of(FamilySpec.parse("d"), FamilySpec.parse("m")))
        .splitPoints(SplitPoints.salt(16))
        .create(admin);
    Path stagingDir =
        SharedHBase.runRoot().resolve("backfill-staging").resolve(target.getNameAsString());
    BackfillOptions.Builder options =
        BackfillOptions.builder()
            .sourceSnapshot(snapshot)
            .sourceLayout(V1)
            .targetTable(target.getNameAsString())
            .targetLayout(V2)
            .staging(stagingDir.toString());
    run(options.noLoad(true).build());

    // a reader scans the whole target in a loop while the regions load
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger scans = new AtomicInteger();
    AtomicInteger partialScans = new AtomicInteger();
    ConcurrentLinkedQueue<String> halfRows = new ConcurrentLinkedQueue<>();
    Thread reader =
        new Thread(
            () -> {
              while (!stop.get()) {
                int seen = 0;
                try (Table t = SharedHBase.connection().getTable(target);
                    ResultScanner sc = t.getScanner(new Scan().readAllVersions())) {
                  for (Result r : sc) {
                    seen++;
                    if (!r.containsColumn(d, Bytes.toBytes("v"))
                        || !r.containsColumn(m, Bytes.toBytes("x"))) {
                      halfRows.add(Bytes.toStringBinary(r.getRow()) + " " + r);
                    }
                  }
                } catch (Exception e) {
                  halfRows.add("scan failed: " + e);
                }
                if (seen > 0 && seen < rows) {
                  partialScans.incrementAndGet();
                }
                scans.incrementAndGet();
              }
            },
            "reader");
    reader.start();
    AtomicBoolean waited = new AtomicBoolean();
    BackfillResult r;
    try {
      r =
          run(
              options.noLoad(false).resume(true).build(),
              SharedHBase.conf(),
              s -> {
                // the first region is loaded and recorded, the others wait: the reader scans the
                // table with some regions loaded and others not before the load goes on
                if (s.startsWith("  loaded region ") && !waited.getAndSet(true)) {
                  int from = scans.get();
                  try {
                    Poll.until(
                        () -> scans.get() >= from + 2,
                        Duration.ofSeconds(60),
                        Duration.ofMillis(10),
                        () -> new IllegalStateException("the reader did not scan during the load"));
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }
              });
    } finally {
      stop.set(true);
      reader.join();
    }
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(List.of(), List.copyOf(halfRows), "rows seen with one family only");
    assertTrue(partialScans.get() > 0, "a scan saw part of the table: " + scans);
    assertEquals(TableContents.byNaturalKey(source, V1), TableContents.byNaturalKey(target, V2));
  }

  // ------------------------------------------------------------------------------------------ meta

  @Test
  void aHoleOrAnOverlapInMetaRefusesTheLoadBeforeAnythingIsLoaded() throws Exception {
    BackfillFixture f = new BackfillFixture("bflmeta", 1_500, 10);
    f.snapshot();
    run(f.options().noLoad(true).build());
    Admin admin = SharedHBase.connection().getAdmin();
    RegionInfo five =
        admin.getRegions(f.target).stream()
            .filter(ri -> Bytes.equals(ri.getStartKey(), new byte[] {5}))
            .findFirst()
            .orElseThrow();
    try (Table meta = SharedHBase.connection().getTable(TableName.META_TABLE_NAME)) {
      // a hole: region 05's row deleted from hbase:meta (the region itself stays open)
      Result row = meta.get(new Get(five.getRegionName()));
      long newest = row.listCells().stream().mapToLong(Cell::getTimestamp).max().orElseThrow();
      meta.delete(new Delete(five.getRegionName(), newest));
      RekeyException hole =
          assertThrows(RekeyException.class, () -> run(f.options().resume(true).build()));
      assertTrue(
          hole.getMessage()
              .startsWith(
                  "Cannot load into "
                      + f.target
                      + ": hbase:meta does not cover its keys exactly once: a hole between"
                      + " region "),
          hole.getMessage());
      assertTrue(
          hole.getMessage().contains("no region holds the keys [05, 06)")
              && hole.getMessage().contains("HBCK2")
              && hole.getMessage().endsWith("then rerun with --resume"),
          hole.getMessage());
      assertEquals(16, inState(f.ledger(), RegionState.WRITTEN), "nothing loaded");

      // repaired (the row put back, newer than the delete), then an overlap: a second region
      // claiming [0680, 08)
      Put back = new Put(five.getRegionName());
      for (Cell c : row.listCells()) {
        back.addColumn(
            CellUtil.cloneFamily(c),
            CellUtil.cloneQualifier(c),
            newest + 1,
            CellUtil.cloneValue(c));
      }
      meta.put(back);
      // a scan cannot cross the hole, so the target is counted once meta is whole again
      assertEquals(0, rows(f.target), "nothing loaded while meta had a hole");
      RegionInfo stray =
          RegionInfoBuilder.newBuilder(f.target)
              .setStartKey(new byte[] {6, (byte) 0x80})
              .setEndKey(new byte[] {8})
              .setRegionId(System.currentTimeMillis())
              .build();
      meta.put(
          new Put(stray.getRegionName())
              .addColumn(
                  HConstants.CATALOG_FAMILY,
                  HConstants.REGIONINFO_QUALIFIER,
                  RegionInfo.toByteArray(stray)));
      RekeyException overlap =
          assertThrows(RekeyException.class, () -> run(f.options().resume(true).build()));
      assertTrue(
          overlap.getMessage().contains("an overlap: region ")
              && overlap.getMessage().contains(stray.getEncodedName() + " [0680, 08)"),
          overlap.getMessage());
      assertEquals(16, inState(f.ledger(), RegionState.WRITTEN), "nothing loaded");
      meta.delete(new Delete(stray.getRegionName()));
      assertEquals(0, rows(f.target), "nothing loaded while meta had an overlap");
    }
    BackfillResult r = run(f.options().resume(true).build());
    assertTrue(r.verified(), r.lines().toString());
    f.assertTablesEqual();
  }

  // ------------------------------------------------------------------------------------------
  // twice

  @Test
  void hfilesAlreadyLoadedByHandAreNotLoadedTwiceAndALoadByHandChangesNoVisibleCell()
      throws Exception {
    BackfillFixture f = new BackfillFixture("bfltwice", 1_500, 10);
    f.snapshot();
    run(f.options().noLoad(true).build());
    Manifest written = f.ledger();
    // an operator loads regions 2 and 7 from the staging dir by hand, with HBase's own tool (on
    // copies: the tool moves its inputs)
    Path byHand = f.staging.resolveSibling(f.staging.getFileName() + "-by-hand");
    Path again = f.staging.resolveSibling(f.staging.getFileName() + "-again");
    Files.createDirectories(again.resolve("d"));
    for (int region : new int[] {2, 7}) {
      Path dir = byHand.resolve("r" + region);
      Path family = dir.resolve("d");
      Files.createDirectories(family);
      try (Stream<Path> s =
          Files.list(f.staging.resolve(String.format("regions/r-%05d/d", region)))) {
        for (Path p : s.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
          Files.copy(p, family.resolve(p.getFileName()));
          if (region == 2) {
            Files.copy(p, again.resolve("d").resolve(p.getFileName())); // for a second time
          }
        }
      }
      Configuration c = new Configuration(SharedHBase.conf());
      c.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
      BulkLoadHFiles.create(c).bulkLoad(f.target, new org.apache.hadoop.fs.Path(dir.toUri()));
    }
    StringBuilder out = new StringBuilder();
    BackfillResult r =
        run(f.options().resume(true).build(), SharedHBase.conf(), s -> out.append(s).append('\n'));
    assertTrue(r.verified(), r.lines().toString());
    for (int region : new int[] {2, 7}) {
      assertTrue(
          out.toString()
              .contains(
                  "  region "
                      + region
                      + ": its "
                      + written.regions().get(region).files()
                      + " HFiles are store files of "
                      + f.target
                      + " already (loaded by a run that stopped before its ledger said so): not"
                      + " loaded again"),
          out.toString());
    }
    assertTrue(out.toString().contains("Loaded 14 regions"), out.toString());
    int files = written.regions().stream().mapToInt(RegionEntry::files).sum();
    assertEquals(files, SharedHBase.storeFileCount(f.target), "no HFile in the store twice");
    f.assertTablesEqual();

    // region 2's files loaded by hand once more: HBase takes them, and no visible cell changes
    // (identical cells with identical timestamps are one version on read)
    Configuration c = new Configuration(SharedHBase.conf());
    c.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    BulkLoadHFiles.create(c).bulkLoad(f.target, new org.apache.hadoop.fs.Path(again.toUri()));
    assertEquals(files + written.regions().get(2).files(), SharedHBase.storeFileCount(f.target));
    f.assertTablesEqual();
  }

  // ------------------------------------------------------------------------------------------
  // HBASE-30501

  @Test
  void aLoadFailingAfterTheLoaderSplitItsFilesIsRestoredFromTheKeptCopies() throws Exception {
    BackfillFixture f = new BackfillFixture("bfl30501", 2_000, 20);
    f.snapshot();
    run(f.options().noLoad(true).build());
    // region 3 splits between the write and the load, in the middle of its rows: the loader must
    // split each of region 3's HFiles in two
    List<byte[]> keys3 = new ArrayList<>();
    try (Table t = SharedHBase.connection().getTable(f.source);
        ResultScanner sc = t.getScanner(new Scan())) {
      for (Result row : sc) {
        byte[] k = V2.encode(V1.decode(row.getRow()).fields());
        if (k[0] == 3) {
          keys3.add(k);
        }
      }
    }
    keys3.sort(Bytes.BYTES_COMPARATOR);
    byte[] mid = keys3.get(keys3.size() / 2);
    Admin admin = SharedHBase.connection().getAdmin();
    admin.split(f.target, mid);
    Poll.until(
        () -> admin.getRegions(f.target).size() == 17 && admin.isTableAvailable(f.target),
        Duration.ofSeconds(120),
        Duration.ofMillis(200),
        () -> new IllegalStateException("region 3 of " + f.target + " did not split"));
    Map<String, Long> kept = files(f.staging.resolve("regions/r-00003/d"));
    // the upper daughter refuses every bulk load: the loader has split the files by then, and the
    // lower half may be loaded already
    Path control = LoadFaults.arm(f.target, mid, 1_000, "dnr");
    RekeyException e =
        assertThrows(RekeyException.class, () -> run(f.options().resume(true).build()));
    assertTrue(e.getMessage().startsWith("Cannot load region 3 of " + f.target), e.getMessage());
    assertTrue(
        e.getMessage().contains("injected bulk-load fault")
            && e.getMessage().contains("rerun with --resume"),
        e.getMessage());
    assertTrue(LoadFaults.left(control) < 1_000, "the fault was hit");
    assertEquals(RegionState.WRITTEN, f.ledger().regions().get(3).state());
    assertEquals(kept, files(f.staging.resolve("regions/r-00003/d")), "the originals are intact");

    LoadFaults.set(control, 0, "dnr");
    BackfillResult r = run(f.options().resume(true).build());
    assertTrue(r.verified(), r.lines().toString());
    f.assertTablesEqual();
  }

  /** File name → size of a staging dir's HFiles. */
  private static Map<String, Long> files(Path dir) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
        out.put(p.getFileName().toString(), Files.size(p));
      }
    }
    assertTrue(!out.isEmpty(), "files in " + dir);
    return out;
  }
}
