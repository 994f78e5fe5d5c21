package dev.rekey.cli;

import dev.rekey.admin.checkconfig.CheckConfig;
import dev.rekey.admin.checkconfig.CheckConfigResult;
import dev.rekey.admin.checkconfig.ClientConfigRules;
import dev.rekey.admin.checkconfig.ConfigFinding;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.RekeyException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * rekey check-config: the client timeout, scan and WAL rules over an hbase-site.xml. Not a Spark
 * command and no cluster contact. It takes its file as {@code --conf} (as the issue names it; an
 * alias of the global {@code --hbase-site}), so it does not mix in GlobalOptions, whose {@code
 * --conf} means a Spark setting.
 */
@Command(
    name = "check-config",
    mixinStandardHelpOptions = true,
    description =
        "Check HBase client settings: operation timeout > rpc timeout x retries, rpc timeout >= 5 s, "
            + "retries >= 5, scanner caching vs timeout, WAL disabled, block cache on full scans. "
            + "Exit 0 clean, 3 on violations.",
    footer = {
      "",
      "Example:",
      "  bin/rekey check-config --conf conf/check-config/hbase-site.bad.xml"
    })
public final class CheckConfigCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"--conf", "--hbase-site"},
      paramLabel = "FILE",
      description =
          "The hbase-site.xml to check. Default: $HBASE_CONF_DIR/hbase-site.xml, else the embedded server's.")
  Path site;

  @Option(
      names = "--scan-rows-per-sec",
      paramLabel = "N",
      defaultValue = "" + ClientConfigRules.DEFAULT_ASSUMED_SCAN_ROWS_PER_SECOND,
      description =
          "Assumed slowest rows/s of one scanner batch (filtered or cold scans) for the caching rule "
              + "(default: ${DEFAULT-VALUE}).")
  long scanRowsPerSecond;

  @Option(
      names = "--strict",
      description = "Warnings (WAL disabled, block cache on scans) also exit 3.")
  boolean strict;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the findings as JSON.")
  Path json;

  @Option(
      names = {"-v", "--verbose"},
      description = "Stack traces on errors.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    Path file = HBaseConfigs.resolveSite(site);
    org.apache.hadoop.conf.Configuration conf;
    try {
      conf = HBaseConfigs.load(file);
      conf.size(); // parses the file now, so a broken file is reported here, with its name
    } catch (RekeyException e) {
      throw e; // already names the file, the line and the fix
    } catch (RuntimeException e) {
      throw RekeyException.usage(
          "Cannot read HBase configuration %s: %s (fix the XML, or pass another"
              + " file with --conf)",
          file, e.getMessage());
    }
    CheckConfigResult r =
        CheckConfig.of(conf, file.toString()).assumedScanRowsPerSecond(scanRowsPerSecond).execute();
    PrintWriter out = spec.commandLine().getOut();
    print(r, out);
    out.flush();
    if (json != null) {
      AtomicFile.writeJson(json, r);
    }
    return r.exitCode(strict);
  }

  static void print(CheckConfigResult r, PrintWriter out) {
    out.println("check-config " + r.source());
    for (ConfigFinding f : r.findings()) {
      out.printf("%-9s %s = %s%n", f.severity(), f.key(), f.value());
      out.println("  rule: " + f.rule());
      out.println("  fix:  " + f.fix());
    }
    out.printf(
        Locale.ROOT,
        "%d violation(s), %d warning(s)%s (scanner rule assumes %,d rows/s per batch)%n",
        r.violations(),
        r.warnings(),
        r.findings().isEmpty() ? ": clean" : "",
        r.assumedScanRowsPerSecond());
  }
}
