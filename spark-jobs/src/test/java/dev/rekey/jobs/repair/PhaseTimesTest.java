package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PhaseTimesTest {
  private static final long S = 1_000_000_000L;

  @Test
  void phasesInTheOrderTheyFirstRanAndRepeatsAddUp() {
    AtomicLong now = new AtomicLong();
    PhaseTimes t = new PhaseTimes(now::get);
    t.start(PhaseTimes.SNAPSHOT);
    now.addAndGet(S / 2);
    t.start(PhaseTimes.COMPARE);
    now.addAndGet(3 * S);
    t.start(PhaseTimes.WRITE);
    now.addAndGet(S);
    t.start(PhaseTimes.COMPARE);
    now.addAndGet(2 * S);
    t.stop();
    now.addAndGet(100 * S); // nothing running: not counted
    t.add(PhaseTimes.COMPACT, 4 * S);
    Map<String, Double> s = t.seconds();
    assertEquals(
        List.of(PhaseTimes.SNAPSHOT, PhaseTimes.COMPARE, PhaseTimes.WRITE, PhaseTimes.COMPACT),
        List.copyOf(s.keySet()));
    assertEquals(0.5, s.get(PhaseTimes.SNAPSHOT));
    assertEquals(5.0, s.get(PhaseTimes.COMPARE));
    assertEquals(
        "snapshot 0.5 s, compare 5.0 s, write 1.0 s, compaction 4.0 s", PhaseTimes.describe(s));
  }

  @Test
  void nothingRanNothingSaid() {
    assertEquals("", PhaseTimes.describe(new PhaseTimes().seconds()));
  }
}
