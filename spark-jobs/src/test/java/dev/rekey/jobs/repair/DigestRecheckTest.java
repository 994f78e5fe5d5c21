package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.jobs.reconcile.Digest128;
import dev.rekey.jobs.reconcile.RowRecord;
import dev.rekey.jobs.reconcile.SideTally;
import dev.rekey.jobs.reconcile.TimeBucketStats;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which repaired buckets still differ by their tallies. Pure. */
@Tag("unit")
class DigestRecheckTest {
  private static RowRecord row(int bucket, long cells, long digest) {
    return new RowRecord(
        new byte[] {1}, new byte[] {2}, bucket, 0, cells, new Digest128(digest, ~digest), null);
  }

  private static SideTally tally(RowRecord... rows) {
    SideTally t = new SideTally(8);
    for (RowRecord r : rows) {
      t.add(r);
    }
    return t;
  }

  /** A side's tallies as the driver holds them, by bucket. */
  private static Map<Integer, TimeBucketStats> stats(SideTally t) {
    Map<Integer, TimeBucketStats> out = new HashMap<>();
    for (int b = 0; b < 8; b++) {
      if (t.bucket(b).rows() > 0) {
        out.put(b, t.bucket(b));
      }
    }
    return out;
  }

  @Test
  void aBucketDiffersByRowsCellsOrDigestAndOnlyTheAskedBucketsCount() {
    SideTally old = tally(row(1, 2, 10), row(1, 2, 20), row(3, 1, 5), row(5, 4, 7), row(6, 1, 1));
    SideTally neu =
        tally(
            row(1, 2, 20),
            row(1, 2, 10), // same rows in another order: equal
            row(3, 1, 6), // a changed cell: digest
            row(5, 3, 7), // a lost version: cells
            row(6, 1, 1),
            row(6, 1, 2), // an extra row
            row(7, 1, 1)); // not asked
    assertEquals(
        Set.of(3, 5, 6), DigestRecheck.differing(stats(old), stats(neu), Set.of(1, 3, 5, 6, 0)));
    assertEquals(Set.of(), DigestRecheck.differing(stats(old), stats(neu), Set.of(1, 0)));
    // a bucket neither side has rows in matches; one only the new side has does not
    assertEquals(Set.of(7), DigestRecheck.differing(stats(old), stats(neu), Set.of(2, 7)));
  }
}
