package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RekeyException;
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
            "Cannot scan with layout "
                + layout.name()
                + ": its field '"
                + f.name()
                + "' has the name of a view column ("
                + RESERVED
                + "); rename the field in the layout");
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
              "Column '"
                  + c.name()
                  + "' defined twice differently: "
                  + seen.spec()
                  + " and "
                  + c.spec()
                  + " (name one of them: "
                  + c.family()
                  + ":"
                  + c.qualifier()
                  + "="
                  + c.type().name().toLowerCase(Locale.ROOT)
                  + ":other_name)");
        }
        continue;
      }
      if (taken.contains(c.name()) || RESERVED.contains(c.name())) {
        throw RekeyException.usage(
            "Column '"
                + c.name()
                + "' ("
                + c.spec()
                + ") clashes with a key field or view "
                + "column; give it another name: "
                + c.family()
                + ":"
                + c.qualifier()
                + "="
                + c.type().name().toLowerCase(Locale.ROOT)
                + ":"
                + c.qualifier()
                + "_value");
      }
      if (!families.isEmpty() && !families.contains(c.family())) {
        throw RekeyException.usage(
            "Column "
                + c.spec()
                + " reads family '"
                + c.family()
                + "', which --families "
                + families
                + " leaves out");
      }
      byName.put(c.name(), c);
    }
    return new ArrayList<>(byName.values());
  }
}
