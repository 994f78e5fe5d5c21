package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.S3Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** rekey s3 start|stop|status: a real S3 endpoint (S3Proxy over a local directory) on 127.0.0.1. */
@Command(
    name = "s3",
    mixinStandardHelpOptions = true,
    description = {
      "Start, stop or show a local S3 endpoint (S3Proxy: the S3 REST API over a directory,"
          + " on 127.0.0.1), with one bucket and a fixed test access key, for s3a:// staging and"
          + " outputs.",
      "",
      "start and status print the bucket (bucket: NAME) and the fs.s3a.* settings a Hadoop client"
          + " needs, one KEY=VALUE a line, then the site file that holds them: its keys are in a"
          + " Hadoop credential file (jceks) it names, so a job gets them without a --conf that"
          + " ps would show: HADOOP_CONF_DIR=<the site's directory> bin/rekey ..."
    },
    footer = {
      "",
      "Examples:",
      "  bin/rekey s3 start",
      "  bin/rekey s3 status",
      "then, e.g.: HADOOP_CONF_DIR=.rekey/s3/client bin/rekey backfill ... --staging"
          + " s3a://rekey/staging"
    })
public final class S3Command extends DaemonCommand {
  @Option(
      names = "--run-dir",
      paramLabel = "DIR",
      description =
          "Where the endpoint keeps its objects, settings, log and pid (default:"
              + " $REKEY_RUN_DIR/s3, else .rekey/s3).")
  Path runDir;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "90",
      description = "How long to wait for the start (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  private S3Endpoint endpoint() {
    return new S3Endpoint(
        runDir != null ? runDir : S3Endpoint.defaultRunDir(), System.out::println);
  }

  @Override
  int start() {
    S3Endpoint s3 = endpoint();
    print(s3, s3.start(Duration.ofSeconds(timeoutSeconds)));
    return ExitCodes.OK;
  }

  @Override
  int stop() {
    endpoint().stop();
    return ExitCodes.OK;
  }

  @Override
  int status() {
    S3Endpoint s3 = endpoint();
    var url = s3.url();
    if (url.isEmpty()) {
      System.out.printf(
          "S3 endpoint is not running (run dir %s). Start it with `bin/rekey s3 start`.%n",
          s3.runDir());
      return ExitCodes.FAILURE;
    }
    System.out.printf(
        "S3 endpoint is running: %s, pid %d%n", url.get(), s3.runningProcess().orElseThrow().pid());
    print(s3, url.get());
    return ExitCodes.OK;
  }

  /** The bucket, then the fs.s3a.* settings one a line, then where they are for a job. */
  private static void print(S3Endpoint s3, String url) {
    System.out.println("bucket: " + S3Endpoint.BUCKET);
    s3.s3aSettings(url).forEach((k, v) -> System.out.println(k + "=" + v));
    System.out.println(
        "site: "
            + s3.clientSite()
            + " (these settings; the keys in the credential file "
            + s3.credentialFile()
            + ")");
    System.out.println("log: " + s3.logFile());
  }
}
