package dev.rekey.embedded;

import java.util.List;

/**
 * One process of the pseudo-distributed cluster: its role (also the name of its pid and log files),
 * main class and arguments, heap, the port clients know it by, the log line that says it is ready,
 * and the roles it needs ready before it can start.
 */
record ClusterDaemon(
    String role,
    String mainClass,
    List<String> args,
    String heap,
    String portKey,
    String readyLine,
    List<String> after) {}
