package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The spark-submit of a Spark home that rekey lays out from Maven jars (no distribution). */
final class SparkSubmitScript {
  private SparkSubmitScript() {}

  /**
   * What a Spark distribution's bin/spark-submit does: run {@code org.apache.spark.launcher.Main}
   * to build the driver's command (classpath from {@code jars/} and {@code conf/},
   * spark.driver.extraClassPath, driver memory, the Java 17 module flags), then exec it.
   */
  static void write(Path home, Map<String, String> env, Map<String, String> defaults)
      throws IOException {
    write(home, env, defaults, "127.0.0.1");
  }

  /**
   * @param localIp the address drivers bind to; null: the caller's SPARK_LOCAL_IP if any, else
   *     Spark's own choice, the address of this host's name (a host of the several-host stack; one
   *     set here would travel with a standalone cluster-mode driver to its worker)
   */
  static void write(
      Path home, Map<String, String> env, Map<String, String> defaults, String localIp)
      throws IOException {
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("conf"));
    StringBuilder conf = new StringBuilder("# written by rekey at start\n");
    defaults.forEach((k, v) -> conf.append(k).append(' ').append(v).append('\n'));
    Files.writeString(home.resolve("conf/spark-defaults.conf"), conf.toString());
    Files.writeString(
        home.resolve("conf/log4j2.properties"), EmbeddedHBase.resource("spark-log4j2.properties"));
    StringBuilder sh =
        new StringBuilder(
            "#!/usr/bin/env bash\n"
                + "# spark-submit of the Spark cluster rekey started (written at start): Spark's own launcher, as a\n"
                + "# distribution's bin/spark-class runs it, over the jars in ../jars\n"
                + "export SPARK_HOME='"
                + home
                + "'\n"
                + (localIp != null
                    ? "export SPARK_SCALA_VERSION=2.12 SPARK_LOCAL_IP=" + localIp + "\n"
                    : "export SPARK_SCALA_VERSION=2.12\n"));
    env.forEach(
        (k, v) ->
            sh.append(": \"${")
                .append(k)
                .append(":=")
                .append(v)
                .append("}\"; export ")
                .append(k)
                .append('\n'));
    // the launcher prints its messages (usage, errors) first, then a NUL line, then the command
    // NUL-separated, then
    // our exit code: the same reading loop as Spark's bin/spark-class
    sh.append(
        "export JAVA_HOME=\"${JAVA_HOME:-"
            + System.getProperty("java.home")
            + "}\"\n"
            + "build_command() {\n"
            + "  \"$JAVA_HOME/bin/java\" -Xmx128m -cp \"$SPARK_HOME/jars/*\" org.apache.spark.launcher.Main "
            + "org.apache.spark.deploy.SparkSubmit \"$@\"\n"
            + "  printf '%d\\0' $?\n"
            + "}\n"
            + "CMD=(); DELIM=$'\\n'; STARTED=false\n"
            + "while IFS= read -d \"$DELIM\" -r ARG; do\n"
            + "  if [[ $STARTED == true ]]; then CMD+=(\"$ARG\")\n"
            + "  elif [[ $ARG == $'\\0' ]]; then DELIM=''; STARTED=true\n"
            + "  elif [[ -n $ARG ]]; then echo \"$ARG\"; fi\n"
            + "done < <(build_command \"$@\")\n"
            + "LAST=$((${#CMD[@]} - 1))\n"
            + "[[ $LAST -ge 0 ]] || exit 1\n"
            + "[[ ${CMD[$LAST]} == 0 ]] || exit \"${CMD[$LAST]}\"\n"
            + "exec \"${CMD[@]:0:$LAST}\"\n");
    Path script = home.resolve("bin/spark-submit");
    Files.writeString(script, sh.toString());
    script.toFile().setExecutable(true);
  }
}
