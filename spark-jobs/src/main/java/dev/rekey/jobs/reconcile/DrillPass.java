package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.read.RegionRead;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaPairRDD;
import scala.Tuple2;

/**
 * Reconcile's second pass, run only when some bucket mismatches: the rows of the mismatched buckets
 * of both sides, joined by natural key, and up to {@code --samples} keys that differ per bucket
 * with the cells that differ. Driver side: the Spark closures capture only the serializable
 * classifiers and the bucket set, never the options.
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
  Map<Integer, BucketDrill> run(
      RegionRead oldRead,
      RegionRead newRead,
      RowClassifier oldC,
      RowClassifier newC,
      Set<Integer> mismatched) {
    HashSet<Integer> m = new HashSet<>(mismatched);
    int limit = options.samples();
    JavaPairRDD<String, RowRecord> o = keyed(oldRead, oldC, m);
    JavaPairRDD<String, RowRecord> nw = keyed(newRead, newC, m);
    int parts = Math.max(1, Math.min(8, o.getNumPartitions() + nw.getNumPartitions()));
    Map<Integer, DrillDown> acc =
        o.fullOuterJoin(nw, parts)
            .flatMapToPair(
                kv -> {
                  RowRecord a = kv._2()._1().orNull();
                  RowRecord b = kv._2()._2().orNull();
                  DrillDown.Diff d = DrillDown.diff(a, b);
                  List<Tuple2<Integer, DrillDown.Diff>> out = new ArrayList<>(2);
                  if (d != null) {
                    if (a != null && m.contains(a.bucket())) {
                      out.add(new Tuple2<>(a.bucket(), d));
                    }
                    if (b != null
                        && m.contains(b.bucket())
                        && (a == null || a.bucket() != b.bucket())) {
                      out.add(new Tuple2<>(b.bucket(), d));
                    }
                  }
                  return out.iterator();
                })
            .aggregateByKey(new DrillDown(limit), DrillDown::add, DrillDown::merge)
            .collectAsMap();
    Map<Integer, BucketDrill> drills = new HashMap<>();
    for (int b : mismatched) {
      DrillDown d = acc.get(b);
      if (d == null) {
        // counts differ but no natural key differs: cannot happen unless rows changed between the
        // passes
        drills.put(b, new BucketDrill(b, 0, 0, 0, List.of()));
        continue;
      }
      List<Sample> samples = new ArrayList<>();
      for (DrillDown.Diff diff : d.samples()) {
        samples.add(sample(diff));
      }
      drills.put(b, new BucketDrill(b, d.missing(), d.extra(), d.changed(), samples));
    }
    return drills;
  }

  private static JavaPairRDD<String, RowRecord> keyed(
      RegionRead read, RowClassifier c, HashSet<Integer> m) {
    return read.map(new SideRows(c, r -> m.contains(r.bucket())))
        .mapToPair(r -> new Tuple2<>(Hex.of(r.naturalKey()), r));
  }

  private Sample sample(DrillDown.Diff d) {
    RowRecord any = d.old() != null ? d.old() : d.neu();
    KeyLayout layout = d.old() != null ? options.old().layout() : options.neu().layout();
    Map<String, String> key =
        NaturalKey.display(options.naturalKey(), layout.decode(any.rowKey()).fields());
    return new Sample(
        d.kind(),
        new LinkedHashMap<>(key),
        d.old() == null ? null : Hex.of(d.old().rowKey()),
        d.neu() == null ? null : Hex.of(d.neu().rowKey()),
        d.old() == null ? 0 : d.old().cells(),
        d.neu() == null ? 0 : d.neu().cells(),
        d.old() == null ? null : TimeSpec.iso(d.old().time()),
        d.neu() == null ? null : TimeSpec.iso(d.neu().time()),
        cellDiffs(d.old(), d.neu()));
  }

  /**
   * Cells only on one side of a pair of rows (as text), old side first; empty if either row is
   * absent.
   */
  static List<String> cellDiffs(RowRecord old, RowRecord neu) {
    if (old == null || neu == null || old.cellText() == null || neu.cellText() == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Set<String> inNew = new HashSet<>(neu.cellText());
    Set<String> inOld = new HashSet<>(old.cellText());
    for (String c : old.cellText()) {
      if (!inNew.contains(c)) {
        out.add("- " + c);
      }
    }
    for (String c : neu.cellText()) {
      if (!inOld.contains(c)) {
        out.add("+ " + c);
      }
    }
    return out;
  }
}
