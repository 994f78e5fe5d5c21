package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a command on one host of a several-host stack: in the host's network namespace ({@code ip
 * netns exec}, which also gives the command a mount namespace of its own, a slave of the
 * machine's), a UTS namespace with the host's name, and the host's mounts, made by its {@code
 * enter} script before it execs the command: the stack's hosts file over /etc/hosts, the host's own
 * /tmp, and its local dirs at {@link HostPlan#local()}. Every process of a host makes the same
 * mounts, so they see one /tmp and one set of local dirs, for as long as each lives; no other host
 * sees them (the directory that holds every host's private dirs is hidden under an empty tmpfs).
 */
final class HostShell {
  private final HostPlan plan;

  HostShell(HostPlan plan) {
    this.plan = plan;
  }

  /** Writes each host's hosts file, enter script and private dirs. */
  void write() throws IOException {
    Files.createDirectories(plan.local());
    for (Host h : plan.hosts()) {
      Path hostDir = plan.hostDir(h);
      Files.createDirectories(hostDir.resolve("etc"));
      Files.createDirectories(plan.logs(h));
      Files.createDirectories(plan.privateDir(h).resolve("tmp"));
      Files.createDirectories(plan.privateDir(h).resolve("local"));
      // a /tmp as the machine's: everyone may write, the sticky bit keeps users apart
      plan.privateDir(h).resolve("tmp").toFile().setWritable(true, false);
      Files.writeString(hostDir.resolve("etc/hosts"), plan.hostsFile());
      Path enter = enterScript(h);
      Files.writeString(enter, script(h));
      enter.toFile().setExecutable(true);
    }
  }

  Path enterScript(Host h) {
    return plan.hostDir(h).resolve("enter");
  }

  private String script(Host h) {
    Path priv = plan.privateDir(h);
    return "#!/bin/sh\n"
        + "# enters host "
        + h.name()
        + " of the rekey stack in "
        + plan.dir()
        + " (run by `ip netns exec NS unshare --uts`), then execs its arguments\n"
        + "set -e\n"
        + "# entered from another host of the stack (a restart from the gateway): its namespace hides\n"
        + "# the private dirs, uncover them first\n"
        + "if mountpoint -q '"
        + plan.dir().resolve("private")
        + "'; then umount '"
        + plan.dir().resolve("private")
        + "'; fi\n"
        + "hostname "
        + h.name()
        + "\n"
        + "mount --bind '"
        + plan.hostDir(h).resolve("etc/hosts")
        + "' /etc/hosts\n"
        + "mount --bind '"
        + priv.resolve("tmp")
        + "' /tmp\n"
        + "chmod 1777 /tmp\n"
        + "mount --bind '"
        + priv.resolve("local")
        + "' '"
        + plan.local()
        + "'\n"
        + "# the other hosts' private dirs: out of sight\n"
        + "mount -t tmpfs -o size=16k,mode=0555 rekey-private '"
        + plan.dir().resolve("private")
        + "'\n"
        + "exec \"$@\"\n";
  }

  /** {@code command} as run on host {@code h}. */
  List<String> on(Host h, List<String> command) {
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            "ip", "netns", "exec", h.netns(), "unshare", "--uts", "--", enterScript(h).toString()));
    cmd.addAll(command);
    return cmd;
  }

  /**
   * What a user on host {@code h} has in the environment: the host's Hadoop and HBase configs, the
   * stack's Spark, Java. No SPARK_LOCAL_IP: the host's name resolves to its address (its hosts
   * file), and a SPARK_LOCAL_IP in a submitter's environment travels with a standalone cluster-mode
   * driver to the worker that runs it (Spark passes the submitter's environment in the driver's
   * command), where that address is not the worker's and the driver cannot bind.
   */
  Map<String, String> userEnv(Host h) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HADOOP_CONF_DIR", plan.hadoopConf(h).toString());
    env.put("YARN_CONF_DIR", plan.hadoopConf(h).toString());
    env.put("HBASE_CONF_DIR", plan.hbaseConf(h).toString());
    env.put("SPARK_HOME", plan.sparkHome().toString());
    env.put("SPARK_SCALA_VERSION", "2.12");
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("REKEY_HOST", h.name());
    return env;
  }
}
