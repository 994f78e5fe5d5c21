package dev.rekey.common;

import java.io.Serializable;

/**
 * How many versions of each column a job reads: {@code all} (every version the source holds) or a
 * positive count ({@code 1} is the newest only, what a plain Scan reads). Parsed from {@code
 * --versions N|all}.
 */
public record Versions(int max) implements Serializable {
  public static final Versions ALL = new Versions(Integer.MAX_VALUE);
  public static final Versions NEWEST = new Versions(1);

  public Versions {
    if (max < 1) {
      throw RekeyException.usage("versions must be at least 1 (got " + max + ")");
    }
  }

  /** {@code all} or a positive integer; anything else is a usage error naming the option. */
  public static Versions parse(String s, String option) {
    if (s == null || s.equalsIgnoreCase("all")) {
      return ALL;
    }
    try {
      int n = Integer.parseInt(s.trim());
      if (n >= 1) {
        return new Versions(n);
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw RekeyException.usage(
        "Invalid %s '%s': expected a positive number of versions or 'all'", option, s);
  }

  public boolean isAll() {
    return max == Integer.MAX_VALUE;
  }

  /** The smaller of this and a family's VERSIONS setting. */
  public int capAt(int familyMaxVersions) {
    return Math.min(max, familyMaxVersions);
  }

  @Override
  public String toString() {
    return isAll() ? "all" : Integer.toString(max);
  }
}
