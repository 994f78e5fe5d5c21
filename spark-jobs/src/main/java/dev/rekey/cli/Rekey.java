package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The rekey command line: parse, run one command, print, exit with its code. */
@Command(
    name = "rekey",
    mixinStandardHelpOptions = true,
    versionProvider = RekeyVersion.class,
    description =
        "Row-key migrations for HBase with Spark: key library, split planning, backfill, scan, reconcile, repair.",
    subcommands = {
      HBaseCommand.class,
      DemoCommand.class,
      KeyCommand.class,
      GetCommand.class,
      ReadCommand.class,
      SparkClusterCommand.class,
      S3Command.class,
      ClusterCommand.class,
      CreateTableCommand.class,
      BackfillCommand.class,
      ScanCommand.class,
      CheckConfigCommand.class,
      PlanCommand.class,
      AnalyzeCommand.class,
      ReconcileCommand.class,
      RepairCommand.class,
      CampaignCommand.class,
      ReplicateCommand.class,
      CleanupCommand.class,
      ConfigCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Rekey implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing command: see `rekey --help`.");
  }

  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Rekey());
    ExitCodeHelp.addTo(cl);
    // config takes another command line whole: its options are that command's, not config's
    cl.getSubcommands().get("config").setStopAtPositional(true);
    cl.getSubcommands().get("config").setUnmatchedOptionsArePositionalParams(true);
    // a kerberized cluster without a usable login fails here, before any Spark start
    cl.setExecutionStrategy(KerberosPreflight.before(new CommandLine.RunLast()));
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          // a job that failed because its embedded server died: the watch has the last word
          ServerWatch.yieldIfLost();
          boolean verbose = verbose(parsed);
          Throwable t = ex;
          int code = ExitCodes.FAILURE;
          if (ex instanceof RekeyException re) {
            code = re.exitCode();
          }
          if (verbose) {
            ex.printStackTrace(cmd.getErr());
          }
          // last, so that the final line of the output says what failed and why, even after a stack
          // trace
          cmd.getErr().println(ErrorLine.of(t, verbose));
          return code;
        });
    return cl;
  }

  /**
   * The command's --verbose as picocli parsed it (on the subcommand that ran, where it is
   * declared).
   */
  static boolean verbose(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    return leaf.matchedOptionValue("--verbose", false);
  }

  public static void main(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // before the command line is built: that loads every command's classes, Spark's among them,
      // and a release on a machine without Spark still tells its versions
      for (String line : new RekeyVersion().getVersion()) {
        System.out.println(line);
      }
      System.exit(ExitCodes.OK);
    }
    int code = commandLine().execute(args);
    ServerWatch.yieldIfLost();
    if (inYarnApplicationMaster()) {
      // YARN's application master runs this main in a thread and reports the application's end
      // when it returns: an exit before that is a lost attempt, which YARN runs again (a finished
      // backfill's retry is then refused as a second load). A failure is an exception there.
      if (code != ExitCodes.OK) {
        throw new IllegalStateException("rekey " + String.join(" ", args) + " exited with " + code);
      }
      return;
    }
    System.exit(code);
  }

  /** A driver in YARN cluster deploy mode: its application master set these before main. */
  static boolean inYarnApplicationMaster() {
    return "yarn".equals(System.getProperty("spark.master"))
        && "cluster".equals(System.getProperty("spark.submit.deployMode"))
        && System.getProperty("spark.yarn.app.id") != null;
  }
}
