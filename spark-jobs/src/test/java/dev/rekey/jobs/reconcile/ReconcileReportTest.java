package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.OutputDir;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How a reconcile result reads at real sizes: two years of hourly buckets, most of them empty, five
 * that differ. Pure: the result is built by hand, no Spark, no HBase.
 */
@Tag("unit")
class ReconcileReportTest {
  static final long HOUR = 3_600_000L;
  static final long FROM = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  static final long TO = Instant.parse("2028-01-01T00:00:00Z").toEpochMilli();

  /**
   * Rows only on 2026-11-29 (24 hours), and five buckets that differ: four that day, one
   * empty-vs-rows in 2027.
   */
  static final long DATA_DAY = Instant.parse("2026-11-29T00:00:00Z").toEpochMilli();

  static final Set<Long> BAD =
      Set.of(
          DATA_DAY + 3 * HOUR,
          DATA_DAY + 4 * HOUR,
          DATA_DAY + 9 * HOUR,
          DATA_DAY + 20 * HOUR,
          Instant.parse("2027-06-01T05:00:00Z").toEpochMilli());

  static ReconcileResult twoYears() {
    TimeBuckets buckets = new TimeBuckets(new TimeWindow(FROM, TO), HOUR);
    List<TimeBucketComparison> all = new ArrayList<>();
    for (int i = 0; i < buckets.count(); i++) {
      long start = buckets.start(i);
      boolean data = start >= DATA_DAY && start < DATA_DAY + 24 * HOUR;
      TimeBucketStats old =
          data ? new TimeBucketStats(4_000, 8_000, Digest128.ZERO) : TimeBucketStats.EMPTY;
      TimeBucketStats neu = old;
      if (BAD.contains(start)) {
        neu =
            data
                ? new TimeBucketStats(3_997, 7_994, Digest128.ZERO)
                : new TimeBucketStats(2, 4, Digest128.ZERO);
      }
      all.add(TimeBucketComparison.of(buckets, i, old, neu, false));
    }
    SideSummary side =
        new SideSummary("table t", "l", 1, 1, 96_000, 96_000, 0, 192_000, "", "", List.of());
    return new ReconcileResult(
        side,
        side,
        FROM,
        TO,
        HOUR,
        true,
        "key:ts",
        false,
        all,
        Map.of(
            all.get(buckets.indexOf(DATA_DAY + 3 * HOUR)).index(),
            new TimeBucketDrill(0, 3, 0, 0, List.of())),
        1.5);
  }

  @Test
  void runsOfMatchingBucketsFoldIntoOneLineAndMismatchesStandAlone() {
    List<TimeBucketRun> runs = TimeBucketRun.of(twoYears().buckets());
    // empty + ok x3, BAD, BAD, ok x4, BAD, ok x10, BAD, ok x3 + empty..., BAD, empty...
    assertEquals(10, runs.size(), runs.stream().map(TimeBucketRun::label).toList().toString());
    assertEquals(5, runs.stream().filter(TimeBucketRun::mismatch).count());
    assertEquals("3 ok, 7,968 empty", runs.get(0).status());
    assertEquals("2026-01-01T00:00:00Z .. 2026-11-29T02:00:00Z", runs.get(0).label());
    assertEquals(12_000, runs.get(0).oldRows());
    assertEquals("MISMATCH", runs.get(1).status());
    assertEquals("4 ok", runs.get(3).status());
    assertEquals("5,130 empty", runs.get(9).status());
    assertEquals(17_520, runs.stream().mapToInt(TimeBucketRun::size).sum());
    assertEquals(17_520, TimeBucketRun.each(twoYears().buckets()).size());
    assertThrows(IllegalArgumentException.class, () -> new TimeBucketRun(List.of()));
  }

  @Test
  void consoleShowsTheMismatchesAndFoldsTheRestUnlessAllBucketsIsAsked() {
    String folded = console(twoYears(), false);
    String[] lines = folded.split("\n");
    assertTrue(lines.length < 30, folded);
    assertTrue(
        folded.contains(
            "17,520 buckets of 1h from 2026-01-01T00:00:00Z to 2028-01-01T00:00:00Z (the range of "
                + "the data: no --from/--to given)"),
        folded);
    assertEquals(5, folded.lines().filter(l -> l.endsWith("  MISMATCH")).count(), folded);
    assertTrue(folded.contains("2026-11-29T03:00:00Z "), folded);
    assertTrue(folded.contains("2027-06-01T05:00:00Z "), folded);
    assertTrue(folded.contains("--all-buckets lists every bucket"), folded);
    assertTrue(folded.contains("bucket 2026-11-29T03:00:00Z: 3 missing in new"), folded);
    assertTrue(
        lines[lines.length - 1].startsWith(
            "MISMATCH: 5 of 17,520 buckets differ (25 with rows, 17,495 empty" + " on both sides)"),
        lines[lines.length - 1]);

    String all = console(twoYears(), true);
    assertTrue(all.split("\n").length > 17_520, "every bucket listed");
    assertFalse(all.contains("--all-buckets lists"));
  }

  @Test
  void htmlPutsMismatchesFirstFoldsRunsAndMarksEveryMismatchVisiblyWide() {
    String html = ReconcileHtml.render(twoYears());
    int mismatches = html.indexOf("<h2>Mismatched buckets (5)</h2>");
    int chart = html.indexOf("<h2>Rows per bucket</h2>");
    int all = html.indexOf("<h2>All buckets</h2>");
    assertTrue(
        mismatches > 0 && mismatches < chart && chart < all,
        "mismatches, then the chart, then all buckets");
    assertTrue(
        html.indexOf("2026-11-29T03:00:00Z: 3 missing in new") < chart,
        "drill-downs with the mismatches");
    // the full table: 10 rows, not 17,520
    assertEquals(10, count(html.substring(all), "<tr( class=\"[a-z]+\")?><td"));
    // marks in the chart's top strip: at least MIN_MARK_PX wide, one per column holding a mismatch
    // (3 hours of the
    // same column on 2026-11-29 share one), every one of them
    Matcher m =
        Pattern.compile("<rect class=\"mark\" x=\"[0-9.]+\" y=\"2\\.0\" width=\"([0-9.]+)\"")
            .matcher(html);
    int marks = 0;
    while (m.find()) {
      marks++;
      assertTrue(Double.parseDouble(m.group(1)) >= ReconcileHtml.MIN_MARK_PX, m.group());
    }
    List<ChartColumn> cols = ChartColumn.of(twoYears().buckets(), ReconcileHtml.CHART_COLUMNS);
    assertTrue(cols.size() <= ReconcileHtml.CHART_COLUMNS);
    assertEquals(5, cols.stream().mapToInt(ChartColumn::mismatched).sum());
    assertEquals(cols.stream().filter(c -> c.mismatched() > 0).count(), marks);
    assertTrue(marks >= 2, "the 2027 mismatch has its own mark");
  }

  /** The page as a user sees it, left in target/ to open in a browser. */
  @Test
  void writesTheTwoYearPageForALook() throws Exception {
    Path dir = Path.of("target", "reconcile-two-years");
    ReconcileReport.write(twoYears(), OutputDir.of(dir.toString(), true, new Configuration()));
    String html = Files.readString(dir.resolve(ReconcileReport.HTML));
    assertTrue(html.length() < 200_000, "a folded page stays small: " + html.length());
    assertTrue(
        Files.readString(dir.resolve(ReconcileReport.JSON)).contains("\"rangeFromData\" : true"));
  }

  @Test
  void withoutFromAndToTheRangeComesFromTheDataInWholeBuckets() {
    ReconcileOptions o = ReconcilePlanTest.base().from((String) null).to((String) null).build();
    assertTrue(o.rangeFromData());
    assertEquals(HOUR, o.bucketMillis());
    RuntimeException half =
        assertThrows(
            RekeyException.class, () -> ReconcilePlanTest.base().to((String) null).build());
    assertEquals(
        "Cannot reconcile part of an open range: --from was given without --to (give both, or neither to take"
            + " the range from the data)",
        half.getMessage());

    TimeExtent e =
        TimeExtent.NONE
            .plus(DATA_DAY + 5 * HOUR + 17)
            .plus(DATA_DAY + 23 * HOUR + 59_999)
            .merge(TimeExtent.NONE.plus(DATA_DAY + 2 * HOUR));
    TimeBuckets b = e.buckets(HOUR);
    assertEquals(DATA_DAY + 2 * HOUR, b.from());
    assertEquals(DATA_DAY + 24 * HOUR, b.to());
    assertEquals(22, b.count());
    assertEquals(3, e.rows());
    assertTrue(TimeExtent.NONE.isEmpty());
    assertEquals(
        TimeBuckets.MAX_BUCKETS,
        assertThrows(RekeyException.class, () -> TimeExtent.NONE.plus(0).plus(TO).buckets(1_000))
                .getMessage()
                .contains("at most 100000")
            ? 100_000
            : 0);
    assertEquals(o.withBuckets(b).buckets(), b);
  }

  @Test
  void chartColumnsSumConsecutiveBucketsOnlyWhenTheyDoNotFit() {
    List<TimeBucketComparison> day = twoYears().buckets().subList(7_968, 7_992);
    List<ChartColumn> one = ChartColumn.of(day, 240);
    assertEquals(24, one.size());
    assertEquals(4_000, one.get(0).oldRows());
    List<ChartColumn> cols = ChartColumn.of(twoYears().buckets(), 240);
    assertEquals(73, cols.get(0).buckets()); // ceil(17,520 / 240)
    assertEquals(96_000, cols.stream().mapToLong(ChartColumn::oldRows).sum());
  }

  private static int count(String s, String regex) {
    Matcher m = Pattern.compile(regex).matcher(s);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static String console(ReconcileResult r, boolean allBuckets) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ReconcileReport.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8), allBuckets);
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
