package dev.rekey.demo;

/** What the demo did, for the CLI summary and tests. */
public record DemoResult(long legacyRows, int legacyRegions, double writeSeconds, String snapshot,
    double totalSeconds) {

  static Builder builder() {
    return new Builder();
  }

  static final class Builder {
    private long legacyRows;
    private int legacyRegions;
    private double writeSeconds;
    private String snapshot;
    private double totalSeconds;

    Builder legacyRows(long v) {
      legacyRows = v;
      return this;
    }

    Builder legacyRegions(int v) {
      legacyRegions = v;
      return this;
    }

    Builder writeSeconds(double v) {
      writeSeconds = v;
      return this;
    }

    Builder snapshot(String v) {
      snapshot = v;
      return this;
    }

    Builder totalSeconds(double v) {
      totalSeconds = v;
      return this;
    }

    DemoResult build() {
      return new DemoResult(legacyRows, legacyRegions, writeSeconds, snapshot, totalSeconds);
    }
  }
}
