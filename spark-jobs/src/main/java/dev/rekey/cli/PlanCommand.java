package dev.rekey.cli;

import dev.rekey.admin.plan.SplitFile;
import dev.rekey.admin.plan.SplitPlan;
import dev.rekey.admin.plan.SplitPlanner;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * rekey plan: region count and split points for a layout, with the arithmetic; pure (no cluster
 * contact).
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description =
        "Plan a pre-split: region count (by count, volume or servers) and split points for a layout; "
            + "writes a split file for create-table --splits and the HBase shell's SPLITS_FILE.",
    footer = {
      "",
      "Example:",
      "  bin/rekey plan --layout events-v2 --volume-gb 500 --region-gb 6 --out " + "splits.txt"
    })
public final class PlanCommand implements Callable<Integer> {
  static final int PRINT_LIMIT = 64;

  @Spec CommandSpec spec;

  @Mixin LayoutArg layout;

  @Option(names = "--regions", paramLabel = "N", description = "Number of regions.")
  Integer regions;

  @Option(
      names = "--volume-gb",
      paramLabel = "G",
      description = "Estimated table size in GB (regions = G ÷ R × growth).")
  Double volumeGb;

  @Option(
      names = "--region-gb",
      paramLabel = "R",
      defaultValue = "6",
      description = "Target region size in GB (5–7 to start; default: ${DEFAULT-VALUE}).")
  double regionGb;

  @Option(
      names = "--growth",
      paramLabel = "1.5..2",
      defaultValue = "1.5",
      description = "Growth factor 1.5..2 (default: ${DEFAULT-VALUE}).")
  double growth;

  @Option(
      names = "--servers",
      paramLabel = "S",
      description =
          "RegionServers you will have: bucket count N = 1–2× S as a power of two (≤ 256); 4 regions per server for hashed keys.")
  Integer servers;

  @Option(
      names = "--monthly",
      paramLabel = "FROM..TO",
      description =
          "Monthly split points on a time-first key, e.g. 2026-01..2026-06 (within each salt bucket if salted).")
  String monthly;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description =
          "Write the split points, one per line with \\xNN escapes (create-table --splits FILE; HBase shell SPLITS_FILE).")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the plan as JSON.")
  Path json;

  @Override
  public Integer call() {
    KeyLayout l = layout.layout();
    SplitPlan plan;
    try {
      SplitPlanner p = SplitPlanner.forLayout(l);
      if (regions != null) {
        p.regions(regions);
      }
      if (volumeGb != null) {
        p.volume(volumeGb, regionGb, growth);
      }
      if (servers != null) {
        p.servers(servers);
      }
      if (monthly != null) {
        YearMonth[] m = SplitPlanner.parseMonths(monthly);
        p.monthly(m[0], m[1]);
      }
      plan = p.plan();
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage("Cannot plan %s: %s", l.name(), e.getMessage());
    }
    PrintWriter w = spec.commandLine().getOut();
    print(plan, w);
    if (out != null) {
      SplitFile.write(out, plan.splitPoints());
      w.printf(
          "split file %1$s (%2$d lines, \\xNN escaped): rekey create-table --splits %1$s ..., or"
              + " in the HBase shell: create 'TABLE', 'FAMILY', SPLITS_FILE => '%1$s'%n",
          out, plan.splitPointsHex().size());
    }
    if (json != null) {
      AtomicFile.writeJson(json, plan);
    }
    w.flush();
    return ExitCodes.OK;
  }

  static void print(SplitPlan plan, PrintWriter w) {
    w.println("plan " + plan.layout() + " (prefix " + plan.prefix() + ")");
    plan.arithmetic().forEach(a -> w.println("  " + a));
    if (plan.recommendedBuckets() != null) {
      w.println("  recommended bucket count N = " + plan.recommendedBuckets());
    }
    plan.warnings().forEach(x -> w.println("warning: " + x));
    List<String> hex = plan.splitPointsHex();
    w.println(plan.regions() + " regions, " + hex.size() + " split points (hex):");
    for (int i = 0; i < Math.min(hex.size(), PRINT_LIMIT); i++) {
      w.println("  " + hex.get(i));
    }
    if (hex.size() > PRINT_LIMIT) {
      w.printf(
          "  ... %d more (all of them in --out FILE / --json FILE)%n", hex.size() - PRINT_LIMIT);
    }
  }
}
