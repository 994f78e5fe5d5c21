package dev.rekey.cli;

import dev.rekey.admin.createtable.CreateTableResult;
import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** rekey create-table: a pre-split table along a layout's key space, with per-family settings. */
@Command(
    name = "create-table",
    mixinStandardHelpOptions = true,
    description =
        "Create a pre-split table: split points from the layout (or a split file), families with settings.",
    footer = {
      "",
      "Example:",
      "  bin/rekey create-table --table telemetry_v3 --layout telemetry-v2 "
          + "--splits salt --family d:compression=gz,bloom=row,encoding=fast_diff"
    })
public final class CreateTableCommand implements Callable<Integer> {
  @Mixin GlobalOptions global;

  @Mixin TableArgs target;

  @Option(
      names = "--regions",
      paramLabel = "N",
      description = "Number of regions (natural split points of the layout).")
  Integer regions;

  @Option(
      names = "--splits",
      paramLabel = "salt|uniform|hex|FILE",
      description =
          "salt (one region per bucket), uniform (UniformSplit), hex (HexStringSplit), or a split file "
              + "(what `rekey plan --out` writes: the HBase shell's SPLITS_FILE format, one \\xNN-escaped point per line).")
  String splits;

  @Option(
      names = "--family",
      required = true,
      paramLabel = "SPEC",
      description =
          "name[:compression=..,bloom=..,blocksize=..,encoding=..,ttl=..,versions=..,"
              + "compaction=date_tiered[,window=P1D,windows_per_tier=4,max_age=P365D]] (repeatable)."
              + " compaction=date_tiered keeps the family's files split by cell time"
              + " (HBase's DateTieredStoreEngine): window reads skip the files outside them.")
  List<String> families = new ArrayList<>();

  @Option(
      names = "--if-not-exists",
      description = "Succeed without changes if the table already exists.")
  boolean ifNotExists;

  @Override
  public Integer call() throws Exception {
    global.applyLogging();
    KeyLayout l = target.layout();
    List<byte[]> points;
    List<FamilySpec> specs = new ArrayList<>();
    try {
      points = SplitChoice.choose(l, regions, splits);
      for (String f : families) {
        specs.add(FamilySpec.parse(f));
      }
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage("Cannot create %s: %s", target.table, e.getMessage());
    }
    TableName name;
    try {
      name = TableName.valueOf(target.table);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot create '%s': not a valid table name (%s)", target.table, e.getMessage());
    }
    try (Connection conn = ConnectionFactory.createConnection(global.hbaseConf());
        Admin admin = conn.getAdmin()) {
      CreateTableResult r =
          TableCreator.table(name)
              .families(specs)
              .splitPoints(points)
              .ifNotExists(ifNotExists)
              .create(admin);
      System.out.println(r.summary());
      for (FamilySpec f : specs) {
        if (r.created() && f.dateTiered() != null) {
          System.out.println("family " + f.name() + ": " + f.dateTiered().describe());
        }
      }
      if (r.created() && !r.splitPointsHex().isEmpty()) {
        System.out.println("split points (hex): " + String.join(" ", r.splitPointsHex()));
      }
    }
    return ExitCodes.OK;
  }
}
