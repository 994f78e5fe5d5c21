package dev.rekey.jobs.reconcile;

import java.io.Serializable;

/**
 * An order-independent content digest: the sum, lane by lane mod 2^64, of the 128-bit digests of
 * the rows ({@link RowDigest}). Addition is commutative and associative, so any partitioning and
 * any order of rows (one region or sixteen, any key layout) gives the same total. We add rather
 * than XOR: with XOR a row present twice cancels out (x ^ x = 0), so a duplicated row, or two
 * copies of a changed row, would look like no row at all; with a sum they add 2x, which differs
 * from x unless x's lanes are 0 or 2^63 — a 2^-127 chance. The sum is a fingerprint against
 * accidental differences, not against a forger, which is all a reconciliation needs.
 */
public record Digest128(long hi, long lo) implements Serializable {
  public static final Digest128 ZERO = new Digest128(0, 0);

  public Digest128 plus(Digest128 o) {
    return new Digest128(hi + o.hi, lo + o.lo);
  }

  /** 32 lower-case hex digits. */
  public String hex() {
    return String.format("%016x%016x", hi, lo);
  }

  @Override
  public String toString() {
    return hex();
  }
}
