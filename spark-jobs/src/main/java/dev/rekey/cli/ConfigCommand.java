package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * rekey config: what a command line would run with (master, deploy mode, HBase site, staging and
 * output roots, Spark settings) and where each value comes from, and the spark-submit arguments a
 * job command would be submitted with. Runs nothing.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description =
        "Show what a command would use and where each value comes from: the command line, the"
            + " properties file (conf/rekey.properties, --properties-file), the environment or"
            + " rekey's default; for a Spark job command also the spark-submit arguments. Runs"
            + " nothing, connects to nothing.",
    footer = {
      "",
      "Example:",
      "  bin/rekey config scan --master yarn --table events_v2 --layout events-v2 --day 2026-11-29"
    })
public final class ConfigCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "COMMAND",
      description =
          "The command line to show, without bin/rekey (e.g. backfill --master yarn ...).")
  List<String> commandLine = new ArrayList<>();

  @Override
  public Integer call() {
    CommandLine cl = Rekey.commandLine();
    ParseResult parsed;
    try {
      parsed = cl.parseArgs(commandLine.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw RekeyException.usage(
          "Cannot show config of '%s': %s", String.join(" ", commandLine), e.getMessage());
    }
    ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    GlobalOptions global = KerberosPreflight.globalOptionsOf(leaf);
    var out = spec.commandLine().getOut();
    if (global == null) {
      out.printf(
          "rekey %s connects to no cluster and submits nothing: no settings to resolve.%n",
          leaf.commandSpec().qualifiedName(" ").replaceFirst("^rekey ", ""));
      return ExitCodes.OK;
    }
    global.config().lines().forEach(out::println);
    String submit = System.getProperty(SparkSubmitLauncher.SPARK_SUBMIT);
    if (leaf.commandSpec().userObject() instanceof SparkCommand<?>) {
      boolean external = submit != null && !submit.isBlank();
      String jar;
      try {
        jar = SparkSubmitLauncher.applicationJar();
      } catch (RekeyException e) {
        jar = "<rekey's jar>";
      }
      out.println(
          "spark-submit: "
              + (external
                  ? submit
                  : "Spark's SparkSubmit in rekey's JVM (no cluster Spark named)"));
      List<String> argv =
          SparkSubmitLauncher.argv(global, false, jar, external, leaf.originalArgs());
      out.println("  " + String.join(" ", argv.stream().map(ConfigCommand::quote).toList()));
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static String quote(String s) {
    return s.matches("[A-Za-z0-9_./:=,@+%#\\[\\]*-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
