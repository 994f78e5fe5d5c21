package dev.rekey.cli;

import dev.rekey.campaign.CampaignPlan;
import dev.rekey.campaign.CampaignRun;
import dev.rekey.campaign.CampaignStatus;
import dev.rekey.campaign.PlanCheck;
import dev.rekey.campaign.PlanParser;
import dev.rekey.campaign.StateStore;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.LayoutFiles;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * rekey campaign run|status PLAN: many tables re-keyed by one plan in one Spark application, its
 * state on the cluster's filesystem (docs/campaigns.md). {@code status} reads the state without
 * starting Spark.
 */
@Command(
    name = "campaign",
    mixinStandardHelpOptions = true,
    description = {
      "Re-key many tables by one plan (a YAML file, docs/campaigns.md): run takes each table through"
          + " create-table, snapshot, backfill (in shards above the plan's size), reconcile, repair"
          + " where it differs and reconcile again, tables side by side in one Spark application,"
          + " every step's outcome kept in the campaign's state file as it ends; run again, it"
          + " resumes from that state (no step done twice, nothing loaded twice). status prints"
          + " each table's step, times, rows and result (--json: schema rekey.campaign.status"
          + " version 1) and writes the campaign's HTML page.",
      "The plan is checked whole before anything runs: every problem one line, exit 2.",
      "run exits 0 when every table reconciles green, 3 when any still differs, 1 on a failure;"
          + " status exits the same way for where the campaign stands (1 while unfinished)."
    },
    footer = {"", "Example:", "  bin/rekey campaign run conf/campaigns/demo.yaml"})
public final class CampaignCommand extends SparkCommand<CampaignCommand.Parsed> {
  enum Action {
    run,
    status
  }

  /** The action and its plan, read and checked. */
  record Parsed(Action action, CampaignPlan plan) {}

  @Parameters(index = "0", paramLabel = "run|status", description = "${COMPLETION-CANDIDATES}.")
  Action action;

  @Parameters(index = "1", paramLabel = "PLAN", description = "The campaign plan (YAML).")
  Path plan;

  @Option(
      names = "--json",
      description =
          "status: print the status as JSON (schema rekey.campaign.status, version 1;"
              + " docs/campaigns.md) instead of the table.")
  boolean json;

  private Parsed parsed;

  @Override
  protected Parsed options() {
    parsed = new Parsed(action, new PlanParser(plan, LayoutFiles::load).read());
    return parsed;
  }

  /** status reads the state file and writes the page: no Spark. */
  @Override
  protected Integer runWithoutSpark(Parsed p) {
    if (p.action() != Action.status) {
      return null;
    }
    StateStore store = StateStore.open(p.plan(), global.hbaseConf());
    CampaignStatus s = CampaignStatus.of(p.plan(), store.state(), store.file().toString());
    Path page = CampaignRun.page(p.plan());
    AtomicFile.write(page, s.html());
    if (json) {
      System.out.print(s.toJson());
      System.err.println("page: " + page);
    } else {
      System.out.print(s.console());
      System.out.println("page: " + page);
    }
    return s.exitCode();
  }

  @Override
  protected int run(SparkSession spark, Parsed p) throws Exception {
    Configuration conf = hbaseConf(spark);
    try (Connection conn = ConnectionFactory.createConnection(conf)) {
      PlanCheck.check(p.plan(), conn, conf); // nothing runs on a plan with a problem
    }
    StateStore store = StateStore.open(p.plan(), conf);
    CampaignStatus s =
        new CampaignRun(spark, conf, p.plan(), store)
            .execute(global.quiet ? x -> {} : System.err::println);
    System.out.print(s.console());
    System.out.println("page: " + CampaignRun.page(p.plan()));
    return s.exitCode();
  }

  @Override
  protected List<String> driverOutputs() {
    // the reports and the page are the driver's (the state and staging dirs are Hadoop URIs)
    return parsed == null ? List.of() : List.of(parsed.plan().reportRoot().toString());
  }
}
