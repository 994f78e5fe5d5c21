package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.embedded.EmbeddedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class ServerWatchTest {
  @TempDir Path dir;

  @Test
  void theLineNamesTheServerItsLogAndTheRestartWithTheRunDirWhenNotTheDefault() {
    Path run = Path.of("/data/rekey/hbase");
    assertEquals(
        "Error: Cannot run rekey scan: the embedded HBase server it runs on (pid 42) is gone (its"
            + " log: /data/rekey/hbase/logs/hbase.log; start it again with bin/rekey hbase start,"
            + " or bin/rekey demo)",
        ServerWatch.line("scan", 42, run, run.resolve("logs/hbase.log"), run));
    assertEquals(
        "Error: Cannot run rekey demo: the embedded HBase server it runs on (pid 42) is gone (its"
            + " log: /data/rekey/hbase/logs/hbase.log; start it again with bin/rekey hbase start"
            + " --run-dir /data/rekey/hbase, or bin/rekey demo --run-dir /data/rekey/hbase)",
        ServerWatch.line("demo", 42, run, run.resolve("logs/hbase.log"), Path.of("/x/hbase")));
  }

  @Test
  void onlyAnEmbeddedServersClientSiteIsWatched() throws Exception {
    EmbeddedHBase hbase = new EmbeddedHBase(dir.resolve("hbase"), s -> {});
    Files.createDirectories(hbase.clientSite().getParent());
    Files.writeString(hbase.clientSite(), "<configuration/>");
    assertEquals(
        Optional.of(hbase.runDir()),
        EmbeddedHBase.ofClientSite(hbase.clientSite()).map(h -> h.runDir()));
    Path cluster = Files.writeString(dir.resolve("hbase-site.xml"), "<configuration/>");
    assertEquals(Optional.empty(), EmbeddedHBase.ofClientSite(cluster));
    // a site of an embedded server that does not run here: nothing to watch
    assertEquals(ServerWatch.NONE, ServerWatch.ofSite(hbase.clientSite(), "scan", null));
  }
}
