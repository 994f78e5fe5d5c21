package dev.rekey.cli;

import dev.rekey.client.LayoutReader;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.KeyLayout;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** rekey get: one row by its natural key; the salt or hash prefix is computed from the layout. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description =
        "Print the row of a natural key (every field of the layout; its salt or hash prefix is computed), "
            + "e.g. `rekey get --table telemetry_v2 --layout telemetry-v2 ts=1764374400000 deviceId=<32 hex>`. "
            + "Exit 3 when there is no such row.",
    footer = {
      "",
      "Example:",
      "  bin/rekey get --table telemetry_v2 --layout telemetry-v2 "
          + "ts=1795910400000 deviceId=20edbf8020153cff850c24465473e182"
    })
public final class GetCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin GlobalOptions global;

  @Mixin TableArgs target;

  @Option(
      names = "--format",
      paramLabel = "text|jsonl",
      defaultValue = "text",
      description =
          "text (default) or jsonl: one JSON object with the fields, key (hex) and cells.")
  RowPrinter.Format format;

  @Parameters(
      paramLabel = "NAME=VALUE",
      arity = "1..*",
      description = "One value per field: bytes as hex, numbers as decimal, strings as-is.")
  Map<String, String> values = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    global.applyLogging();
    KeyLayout l = target.layout();
    Map<String, Object> fields;
    byte[] key;
    try {
      fields = FieldValues.parse(l, values);
      key = l.encode(fields);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage("Cannot get from %s: %s", target.table, e.getMessage());
    }
    try (Connection conn = ConnectionFactory.createConnection(global.hbaseConf())) {
      TableName name = target.existing(conn, "get from");
      try (LayoutReader reader = LayoutReader.open(conn, name, l)) {
        Optional<Result> row = reader.get(fields);
        PrintWriter out = spec.commandLine().getOut();
        if (row.isEmpty()) {
          spec.commandLine()
              .getErr()
              .println(
                  "No row " + dev.rekey.rowkey.Hex.of(key) + " " + values + " in " + target.table);
          return ExitCodes.MISMATCH;
        }
        new RowPrinter(l, format, out).print(row.get(), fields);
        out.flush();
        return ExitCodes.OK;
      }
    }
  }
}
