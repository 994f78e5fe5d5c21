package dev.rekey.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM command line of one daemon of a development stack (one host or several): small daemons on
 * a shared 2-core machine get one GC thread and, but for the RegionServers, no C2 compiler threads
 * at start-up; the server flags Java 17 needs; the role, stack dir and log file the stack's log4j2
 * configuration reads.
 *
 * @param role the daemon's role, e.g. {@code regionserver1}
 * @param heap the heap flag, e.g. {@code -Xmx256m}
 * @param stackDir the stack's directory (its {@code conf/log4j2.properties})
 * @param logFile the daemon's log file
 * @param logDir where Hadoop and YARN daemons write their own logs
 */
record DaemonJvm(String role, String heap, Path stackDir, Path logFile, Path logDir) {
  /** {@code java} with the flags, then {@code -cp classpath}; the caller adds the main class. */
  List<String> command(String classpath) {
    return command(classpath, List.of());
  }

  /** As {@link #command(String)}, with {@code extra} JVM options before the class path. */
  List<String> command(String classpath, List<String> extra) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(heap);
    cmd.add("-XX:+UseSerialGC");
    if (!role.startsWith("regionserver")) {
      cmd.add("-XX:TieredStopAtLevel=1");
    }
    cmd.addAll(ServerJvmFlags.FLAGS);
    cmd.add("-Drekey.cluster.role=" + role);
    cmd.add("-Drekey.cluster.dir=" + stackDir);
    cmd.add("-Drekey.cluster.log.file=" + logFile);
    cmd.add("-Dlog4j2.configurationFile=" + stackDir.resolve("conf/log4j2.properties"));
    cmd.add("-Dzookeeper.admin.enableServer=false");
    cmd.add("-Dhadoop.log.dir=" + logDir);
    cmd.add("-Dyarn.log.dir=" + logDir);
    cmd.addAll(extra);
    cmd.add("-cp");
    cmd.add(classpath);
    return cmd;
  }
}
