package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher against the real server process: start, idempotence, crash recovery, failure
 * reasons, stop.
 */
@Tag("e2e")
class EmbeddedHBaseIT {
  @TempDir Path tmp;

  @Test
  void startsOnceServesOnLoopbackAndStopsCleanly() throws Exception {
    List<String> out = Collections.synchronizedList(new ArrayList<>());
    EmbeddedHBase hbase = new EmbeddedHBase(tmp.resolve("run"), out::add);
    try {
      assertTrue(hbase.start(Duration.ofSeconds(180)), "first start starts the server");
      long pid = hbase.runningProcess().orElseThrow().pid();
      EmbeddedHBase.Ports ports = hbase.ports().orElseThrow();
      assertListening(ports.zookeeper());
      assertListening(ports.regionServer());
      assertTrue(
          Files.readString(hbase.clientSite()).contains(Integer.toString(ports.zookeeper())),
          "the client config names the chosen ZooKeeper port");

      assertFalse(hbase.start(Duration.ofSeconds(180)), "second start is a no-op");
      assertEquals(pid, hbase.runningProcess().orElseThrow().pid(), "still the same single server");
      assertTrue(out.stream().anyMatch(l -> l.contains("already running")), String.join("\n", out));
    } finally {
      assertTrue(hbase.stop(Duration.ofSeconds(120)));
    }
    assertTrue(hbase.runningProcess().isEmpty());
    assertFalse(hbase.stop(Duration.ofSeconds(10)), "stopping a stopped server is a no-op");
  }

  @Test
  void recoversFromAKilledServer() throws Exception {
    EmbeddedHBase hbase = new EmbeddedHBase(tmp.resolve("run"), s -> {});
    try {
      hbase.start(Duration.ofSeconds(180));
      ProcessHandle first = hbase.runningProcess().orElseThrow();
      first.destroyForcibly();
      first.onExit().get();
      assertTrue(hbase.runningProcess().isEmpty(), "a dead pid is not taken for a running server");

      // an empty start (test runs) drops what earlier runs left; a running server's data is never
      // touched
      Path leftover = hbase.runDir().resolve("data/hbase/leftover-of-an-earlier-run");
      Files.writeString(leftover, "x");
      assertTrue(
          hbase.startEmpty(Duration.ofSeconds(180)), "a stale pid file does not block a new start");
      assertNotEquals(first.pid(), hbase.runningProcess().orElseThrow().pid());
      assertFalse(Files.exists(leftover), "the empty start cleared the data of the dead server");
      Files.writeString(leftover, "x");
      assertFalse(hbase.startEmpty(Duration.ofSeconds(180)), "already running");
      assertTrue(Files.exists(leftover), "a running server's data is kept");
    } finally {
      hbase.stop(Duration.ofSeconds(120));
    }
  }

  @Test
  void failedStartPrintsTheReasonFromTheServerLogAndLeavesNoServer() throws IOException {
    // Another process holds the ZooKeeper port the server is told to use: the server itself gives
    // up.
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      EmbeddedHBase hbase =
          new EmbeddedHBase(
              tmp.resolve("clash"),
              s -> {},
              List.of("-D", "hbase.zookeeper.property.clientPort=" + taken.getLocalPort()));
      EmbeddedHBaseException e =
          assertThrows(EmbeddedHBaseException.class, () -> hbase.start(Duration.ofSeconds(90)));
      assertTrue(e.getMessage().contains("Reason from the server log"), e.getMessage());
      assertTrue(e.getMessage().contains(Integer.toString(taken.getLocalPort())), e.getMessage());
      assertTrue(hbase.runningProcess().isEmpty());
    }
  }

  @Test
  void unusableRunDirectoryIsAClearError() throws IOException {
    Path run = tmp.resolve("broken");
    Files.createDirectories(run.resolve("data"));
    Files.writeString(run.resolve("data/hbase"), "a file where the root directory belongs");
    EmbeddedHBase hbase = new EmbeddedHBase(run, s -> {});
    EmbeddedHBaseException e =
        assertThrows(EmbeddedHBaseException.class, () -> hbase.start(Duration.ofSeconds(90)));
    assertTrue(e.getMessage().contains(run.toString()), e.getMessage());
    assertTrue(hbase.runningProcess().isEmpty());
  }

  private static void assertListening(int port) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      assertTrue(s.isConnected());
    }
  }
}
