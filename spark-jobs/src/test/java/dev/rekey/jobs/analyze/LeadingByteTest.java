package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.testing.Layouts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The leading byte judged against the prefix the layout declares: pure. */
@Tag("unit")
class LeadingByteTest {
  @Test
  void aSaltIsJudgedByHowEvenlyItsBucketsFillNotByTheEighthsOfTheByteSpace() {
    long[] h = new long[256];
    for (int b = 0; b < 16; b++) {
      h[b] =
          b == 3
              ? 70
              : 62; // 16 salt buckets, all in 0x00-0x1f: "the busiest eighth holds 100%" says
      // nothing
    }
    assertEquals(1.0, KeyStats.busiestEighthShare(h));
    assertEquals(
        "leading byte: the salt (salting, N = 16: bytes 0x00-0x0f); each bucket holds 6.2% to 7.0% of rows "
            + "(6.25% is even)",
        KeyStats.leadingByte(h, Layouts.shipped("telemetry-v2").prefix()));
  }

  @Test
  void unprefixedAndHashPrefixedKeysAreJudgedByTheEighths() {
    long[] h = new long[256];
    h[0] = 100;
    assertEquals(
        "leading byte: the busiest eighth 0x00-0x1f holds 100.0% of rows (12.5% is even)",
        KeyStats.leadingByte(h, Layouts.shipped("telemetry-v1").prefix()));
    assertEquals(
        "leading byte: the busiest eighth 0x00-0x1f holds 100.0% of rows (12.5% is even)",
        KeyStats.leadingByte(h, null));
    h[0] = 0;
    for (int b = 0; b < 256; b++) {
      h[b] = b < 32 ? 2 : 1;
    }
    assertEquals(
        "leading byte (of the hash prefix): the busiest eighth 0x00-0x1f holds 22.2% of rows (12.5% is even)",
        KeyStats.leadingByte(h, Layouts.shipped("events-v2").prefix()));
  }
}
