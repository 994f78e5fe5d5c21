package dev.rekey.cli;

import dev.rekey.demo.Demo;
import dev.rekey.demo.DemoOptions;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.RekeyException;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** rekey demo: the migration story on the embedded HBase server. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run the migration story on the embedded HBase: legacy hotspot table, snapshot, and the jobs.")
public final class DemoCommand extends SparkCommand {
  @Option(names = "--rows", defaultValue = "1000000", description = "Synthetic readings to write (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(names = "--devices", defaultValue = "1000", description = "Devices the readings come from (default: ${DEFAULT-VALUE}).")
  int devices;

  @Option(names = "--run-dir", paramLabel = "DIR", description = "Embedded HBase run directory (default: $REKEY_RUN_DIR/hbase, else .rekey/hbase).")
  Path runDir;

  @Option(names = "--stop", description = "Stop the embedded HBase at the end (default: leave it running).")
  boolean stop;

  @Override
  protected String commandName() {
    return "demo";
  }

  @Override
  protected int run(SparkSession spark) throws Exception {
    DemoOptions options;
    try {
      options = new DemoOptions(rows, devices, runDir != null ? runDir : EmbeddedHBase.defaultRunDir(), stop);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(e.getMessage());
    }
    new Demo(options, System.out).run(spark);
    return ExitCodes.OK;
  }
}
