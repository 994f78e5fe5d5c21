package dev.rekey.cli;

import dev.rekey.client.BucketReadException;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.MergedScan;
import dev.rekey.client.ReadQuery;
import dev.rekey.client.ScanPlan;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.KeyLayout;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * rekey read: rows of a time window and/or an entity, one scan per bucket merged into natural key
 * order.
 */
@Command(
    name = "read",
    mixinStandardHelpOptions = true,
    description =
        "Print the rows of a time window and/or of an entity (the leading fields) in natural key order: one "
            + "scan per salt bucket, merged. Layouts that cannot serve the read as ranges are refused with the reason.",
    footer = {
      "",
      "Example:",
      "  bin/rekey read --table telemetry_v2 --layout telemetry-v2 --from "
          + "2026-11-29T10:00Z --to 2026-11-29T11:00Z --limit 20 --format jsonl"
    })
public final class ReadCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin GlobalOptions global;

  @Mixin TableArgs target;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description = "Window start (inclusive): epoch millis or ISO-8601.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "Window end (exclusive): epoch millis or ISO-8601.")
  String to;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "0",
      description = "At most N rows (default: all); each bucket scan reads at most N.")
  int limit;

  @Option(names = "--reverse", description = "Descending natural order.")
  boolean reverse;

  @Option(
      names = "--format",
      paramLabel = "text|jsonl",
      defaultValue = "text",
      description =
          "text (default) or jsonl: one JSON object per row with the fields, key (hex) and cells.")
  RowPrinter.Format format;

  @Parameters(
      paramLabel = "NAME=VALUE",
      arity = "0..*",
      description =
          "Values of key fields: the layout's leading fields (an entity), e.g. userId=alice; with"
              + " --from/--to also a later fixed-width field, matched on each row of the window"
              + " (deviceId=HEX on telemetry-v2).")
  Map<String, String> values = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    global.applyLogging();
    KeyLayout l = target.layout();
    ReadQuery query = query(l);
    try (Connection conn = ConnectionFactory.createConnection(global.hbaseConf())) {
      TableName name = target.existing(conn, "read");
      try (LayoutReader reader = LayoutReader.open(conn, name, l)) {
        ScanPlan plan = reader.plan(query);
        if (!plan.servable()) {
          throw RekeyException.usage(plan.refusal());
        }
        PrintWriter out = spec.commandLine().getOut();
        RowPrinter printer = new RowPrinter(l, format, out);
        long rows = 0;
        try (MergedScan scan = reader.open(query)) {
          while (scan.hasNext()) {
            printer.print(scan.next());
            rows++;
          }
        } catch (BucketReadException e) {
          out.flush();
          throw RekeyException.cannot(
              e, "%s [%s rows printed before the failure]", e.getMessage(), rows);
        }
        out.flush();
        spec.commandLine()
            .getErr()
            .printf(
                "%d rows from %d scan%s of %s%n",
                rows, plan.ranges().size(), plan.ranges().size() == 1 ? "" : "s", target.table);
        return ExitCodes.OK;
      }
    }
  }

  private ReadQuery query(KeyLayout l) {
    ReadQuery.Builder b = ReadQuery.builder();
    try {
      b.leading(FieldValues.parse(l, values));
      if ((from == null) != (to == null)) {
        throw RekeyException.usage(
            "Cannot read " + target.table + ": give both --from and --to (a window is [from, to))");
      }
      if (from != null) {
        b.window(TimeArgs.instant(from, "--from"), TimeArgs.instant(to, "--to"));
      }
      return b.limit(limit).reverse(reverse).build();
    } catch (RekeyException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage("Cannot read %s: %s", target.table, e.getMessage());
    }
  }
}
