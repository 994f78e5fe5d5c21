package dev.rekey.jobs.backfill.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalInt;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class StagingRegionDirTest {
  @Test
  void aLoaderCopyBelongsToTheRegionDirAboveIt() {
    assertEquals(
        OptionalInt.of(3), Staging.regionOf(new Path("file:/s/load/r-00003/d/part-00001-a.hfile")));
  }

  @Test
  void aHalfOfAFileTheLoaderSplitStillBelongsToItsRegion() {
    // the loader writes the halves of a split file to the family dir's _tmp/ under a random name
    assertEquals(
        OptionalInt.of(12),
        Staging.regionOf(new Path("hdfs://nn/s/load/r-00012/d/_tmp/0f3c2a.bottom")));
  }

  @Test
  void aFileOutsideEveryRegionDirHasNoRegion() {
    assertEquals(OptionalInt.empty(), Staging.regionOf(new Path("file:/s/load/d/x.hfile")));
  }
}
