package dev.rekey.jobs.backfill.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The open HFiles of one write task attempt ({@link InOrderHFiles}), one per (region, bucket) slot,
 * time tier and family, each written with the family's own settings ({@link TargetFileWriter})
 * under the attempt's dir and rolled at the max file size; what they hold once closed is the
 * attempt's {@link InOrderHFiles.WrittenFile}s.
 */
final class AttemptFiles {
  private final HFileSlots slots;
  private final FileSystem fs;
  private final Path dir;
  private final Configuration conf;
  private final TableDescriptor target;
  private final long taskAttemptId;
  private final int tiers;

  /**
   * Per region, the open writer of each (bucket, tier, family): index (bucket * tiers + tier) *
   * families + family.
   */
  private final Open[][] open;

  private final List<InOrderHFiles.WrittenFile> closed = new ArrayList<>();
  private final byte[][] familyNames;
  private final String[] families;

  AttemptFiles(
      HFileSlots slots, Path dir, Configuration conf, TableDescriptor target, long taskAttemptId)
      throws IOException {
    this.slots = slots;
    this.open = new Open[slots.regions()][];
    this.fs = dir.getFileSystem(conf);
    this.dir = dir;
    this.conf = conf;
    this.target = target;
    this.taskAttemptId = taskAttemptId;
    this.tiers = slots.tiers().count();
    ColumnFamilyDescriptor[] fams = target.getColumnFamilies();
    this.familyNames = new byte[fams.length][];
    this.families = new String[fams.length];
    for (int i = 0; i < fams.length; i++) {
      familyNames[i] = fams[i].getName();
      families[i] = fams[i].getNameAsString();
    }
  }

  private final class Open {
    final StoreFileWriter writer;
    final int region;
    final String family;
    long cells;

    Open(StoreFileWriter writer, int region, String family) {
      this.writer = writer;
      this.region = region;
      this.family = family;
    }
  }

  void append(int region, int bucket, KeyValue kv) throws IOException {
    int famIndex = familyIndex(kv);
    Open[] inRegion = open[region];
    if (inRegion == null) {
      inRegion = open[region] = new Open[slots.buckets() * tiers * familyNames.length];
    }
    int tier = tiers == 1 ? 0 : slots.tiers().tierOf(kv.getTimestamp());
    int at = (bucket * tiers + tier) * familyNames.length + famIndex;
    Open o = inRegion[at];
    if (o != null && o.writer.getPos() >= slots.maxFileSize()) {
      close(o);
      o = null;
    }
    if (o == null) {
      o = new Open(newWriter(familyNames[famIndex]), region, families[famIndex]);
      inRegion[at] = o;
    }
    o.writer.append(kv);
    o.cells++;
  }

  /** The target family of a cell, by its bytes (no String per cell). */
  private int familyIndex(KeyValue kv) {
    byte[] a = kv.getFamilyArray();
    int off = kv.getFamilyOffset();
    int len = kv.getFamilyLength();
    for (int i = 0; i < familyNames.length; i++) {
      if (Bytes.equals(familyNames[i], 0, familyNames[i].length, a, off, len)) {
        return i;
      }
    }
    throw new IllegalStateException(
        String.format(
            "family %s is not in target table %s",
            Bytes.toString(a, off, len), target.getTableName()));
  }

  /** A writer with the target family's own settings ({@link TargetFileWriter}). */
  private StoreFileWriter newWriter(byte[] familyName) throws IOException {
    ColumnFamilyDescriptor f = target.getColumnFamily(familyName);
    return TargetFileWriter.open(conf, fs, new Path(dir, f.getNameAsString()), target, f);
  }

  private void close(Open o) throws IOException {
    StoreFileWriter w = o.writer;
    TargetFileWriter.close(w, taskAttemptId);
    closed.add(new InOrderHFiles.WrittenFile(w.getPath().toString(), o.region, o.family, o.cells));
  }

  List<InOrderHFiles.WrittenFile> closeAll() throws IOException {
    for (Open[] inRegion :
        open) { // in region, bucket, tier and family order, as the files are listed
      if (inRegion == null) {
        continue;
      }
      for (int i = 0; i < inRegion.length; i++) {
        if (inRegion[i] != null) {
          close(inRegion[i]);
          inRegion[i] = null;
        }
      }
    }
    return closed;
  }

  void abandon() {
    for (Open[] inRegion : open) {
      if (inRegion == null) {
        continue;
      }
      for (Open o : inRegion) {
        if (o == null) {
          continue;
        }
        try {
          o.writer.close();
        } catch (IOException | RuntimeException e) {
          // the attempt failed already; its files are never loaded
        }
      }
    }
  }
}
