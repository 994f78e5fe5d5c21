package dev.rekey.jobs.scan;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The column names of a scan's views (pure): which are taken, and the wide columns merged. */
final class ScanColumns {
  /**
   * Column names the views define themselves; layout fields and wide columns must not reuse them.
   */
  static final Set<String> RESERVED =
      Set.of(
          "row_key",
          "row_key_hex",
          "cell_count",
          "row_bytes",
          "region",
          "partition",
          "family",
          "qualifier",
          "cell_ts",
          "value",
          "value_hex");

  private ScanColumns() {}

  /**
   * The wide columns of a scan: those given with --column and those its reports declare, each name
   * once; a name may not be a key field's (or its {@code _hex} twin's) nor a view column's, and a
   * column's family must be one that --families reads.
   */
  static List<WideColumn> merge(
      KeyLayout layout, List<WideColumn> columns, List<ReportFile> reports, List<String> families) {
    Set<String> taken = new LinkedHashSet<>();
    for (FieldSpec f : layout.fields()) {
      if (RESERVED.contains(f.name())) {
        throw RekeyException.usage(
            "Cannot scan with layout %s: its field '%s' has the name of a view"
                + " column (%s); rename the field in the layout",
            layout.name(), f.name(), RESERVED);
      }
      taken.add(f.name());
      if (f.type() == FieldType.BYTES) {
        taken.add(f.name() + "_hex");
      }
    }
    Map<String, WideColumn> byName = new LinkedHashMap<>();
    List<WideColumn> all = new ArrayList<>(columns);
    for (ReportFile r : reports) {
      all.addAll(r.columns());
    }
    for (WideColumn c : all) {
      WideColumn seen = byName.get(c.name());
      if (seen != null) {
        if (!seen.equals(c)) {
          throw RekeyException.usage(
              "Column '%s' defined twice differently: %s and %s (name one of them:"
                  + " %s:%s=%s:other_name)",
              c.name(),
              seen.spec(),
              c.spec(),
              c.family(),
              c.qualifier(),
              c.type().name().toLowerCase(Locale.ROOT));
        }
        continue;
      }
      if (taken.contains(c.name()) || RESERVED.contains(c.name())) {
        throw RekeyException.usage(
            "Column '%s' (%s) clashes with a key field or view column; give it"
                + " another name: %s:%s=%s:%s_value",
            c.name(),
            c.spec(),
            c.family(),
            c.qualifier(),
            c.type().name().toLowerCase(Locale.ROOT),
            c.qualifier());
      }
      if (!families.isEmpty() && !families.contains(c.family())) {
        throw RekeyException.usage(
            "Column %s reads family '%s', which --families %s leaves out",
            c.spec(), c.family(), families);
      }
      byName.put(c.name(), c);
    }
    return new ArrayList<>(byName.values());
  }
}
