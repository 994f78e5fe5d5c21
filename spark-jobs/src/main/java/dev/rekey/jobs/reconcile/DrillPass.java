package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.compare.KeyDiff;
import dev.rekey.jobs.compare.NaturalKeyCompare;
import dev.rekey.jobs.compare.SideRow;
import dev.rekey.read.RegionRead;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import scala.Tuple2;

/**
 * Reconcile's second pass, run only when some bucket mismatches: the natural-key compare of the
 * mismatched buckets, read-only ({@link NaturalKeyCompare}), and up to {@code --samples} keys that
 * differ per bucket with the cells that differ. Driver side: the Spark closures capture only the
 * serializable classifiers and the bucket set, never the options.
 */
final class DrillPass {
  private final ReconcileOptions options;

  DrillPass(ReconcileOptions options) {
    this.options = options;
  }

  /**
   * The drill-down of each mismatched bucket: the natural keys missing, extra or changed. Each
   * side's rows streamed as cells, classified, and kept only in a mismatched bucket.
   */
  Map<Integer, TimeBucketDrill> run(
      RegionRead oldRead,
      RegionRead newRead,
      RowClassifier oldC,
      RowClassifier newC,
      Set<Integer> mismatched) {
    int limit = options.samples();
    Map<Integer, DrillDown> acc =
        NaturalKeyCompare.differences(oldRead, oldC, newRead, newC, mismatched)
            .flatMapToPair(d -> buckets(d).iterator())
            .aggregateByKey(new DrillDown(limit), DrillDown::add, DrillDown::merge)
            .collectAsMap();
    Map<Integer, TimeBucketDrill> drills = new HashMap<>();
    for (int b : mismatched) {
      DrillDown d = acc.get(b);
      if (d == null) {
        // counts differ but no natural key differs: cannot happen unless rows changed between the
        // passes
        drills.put(b, new TimeBucketDrill(b, 0, 0, 0, List.of()));
        continue;
      }
      List<Sample> samples = new ArrayList<>();
      for (KeyDiff diff : d.samples()) {
        samples.add(sample(diff));
      }
      drills.put(b, new TimeBucketDrill(b, d.missing(), d.extra(), d.changed(), samples));
    }
    return drills;
  }

  /** A differing key counts in its bucket on each side (once when both sides agree on it). */
  private static List<Tuple2<Integer, KeyDiff>> buckets(KeyDiff d) {
    List<Tuple2<Integer, KeyDiff>> out = new ArrayList<>(2);
    if (d.old() != null) {
      out.add(new Tuple2<>(d.old().bucket(), d));
    }
    if (d.neu() != null && (d.old() == null || d.old().bucket() != d.neu().bucket())) {
      out.add(new Tuple2<>(d.neu().bucket(), d));
    }
    return out;
  }

  private Sample sample(KeyDiff d) {
    KeyLayout layout = d.old() != null ? options.old().layout() : options.neu().layout();
    Map<String, String> key =
        NaturalKey.display(options.naturalKey(), layout.decode(d.any().rowKey()).fields());
    return new Sample(
        d.kind(),
        new LinkedHashMap<>(key),
        d.old() == null ? null : Hex.of(d.old().rowKey()),
        d.neu() == null ? null : Hex.of(d.neu().rowKey()),
        KeyDiff.cells(d.old()).size(),
        KeyDiff.cells(d.neu()).size(),
        time(d.old(), options.old().layout()),
        time(d.neu(), options.neu().layout()),
        CellDiffs.of(KeyDiff.cells(d.old()), KeyDiff.cells(d.neu())));
  }

  /** A side's row time as the report shows it, or null when the side has no row. */
  private String time(SideRow r, KeyLayout layout) {
    return r == null ? null : TimeSpec.iso(options.time().of(layout, r.rowKey(), r.cells()));
  }
}
