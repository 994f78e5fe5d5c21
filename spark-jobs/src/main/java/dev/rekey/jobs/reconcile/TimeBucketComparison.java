package dev.rekey.jobs.reconcile;

import java.io.Serializable;

/**
 * One bucket's verdict: rows and cells on each side and, in digest mode, whether the content
 * digests agree.
 *
 * @param digestCompared false when run without --digest (the digests are then not computed and not
 *     compared)
 */
public record TimeBucketComparison(
    int index,
    long start,
    long end,
    TimeBucketStats old,
    TimeBucketStats neu,
    boolean digestCompared)
    implements Serializable {

  public boolean countsMatch() {
    return old.rows() == neu.rows() && old.cells() == neu.cells();
  }

  public boolean digestMatches() {
    return !digestCompared || old.digest().equals(neu.digest());
  }

  public boolean matches() {
    return countsMatch() && digestMatches();
  }

  /** No rows on either side: reported (a lost hour must show), and it matches. */
  public boolean empty() {
    return old.rows() == 0 && neu.rows() == 0;
  }

  /** new rows - old rows: negative when the new table lost rows. */
  public long difference() {
    return neu.rows() - old.rows();
  }

  /** "ok", "empty" or "MISMATCH". */
  public String status() {
    return !matches() ? "MISMATCH" : empty() ? "empty" : "ok";
  }

  /** "yes", "NO" or "-" (not compared). */
  public String digestOk() {
    return !digestCompared ? "-" : digestMatches() ? "yes" : "NO";
  }

  /** Compares two sides' stats for bucket {@code index} of {@code buckets}. */
  public static TimeBucketComparison of(
      TimeBuckets buckets, int index, TimeBucketStats old, TimeBucketStats neu, boolean digest) {
    return new TimeBucketComparison(
        index,
        buckets.start(index),
        buckets.end(index),
        old == null ? TimeBucketStats.EMPTY : old,
        neu == null ? TimeBucketStats.EMPTY : neu,
        digest);
  }
}
