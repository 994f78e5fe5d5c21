package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rekey.properties: the command line wins, then the file, then the environment, then defaults. */
@Tag("unit")
class RekeyConfigTest {
  @TempDir Path dir;

  private Path file(String text) throws Exception {
    Path f = dir.resolve("rekey.properties");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void theCommandLineWinsOverTheFileWhichWinsOverTheEnvironmentAndTheDefaults() throws Exception {
    Path envConf = Files.createDirectories(dir.resolve("hbase-conf"));
    Files.writeString(envConf.resolve("hbase-site.xml"), "<configuration/>");
    Path f =
        file(
            "rekey.master=yarn\nrekey.deploy-mode=cluster\nrekey.hbase-site=/etc/hbase/site.xml\n"
                + "rekey.staging-root=hdfs:///st\nspark.executor.memory=4g\nspark.yarn.queue=etl\n");
    RekeyConfig.Resolved r =
        RekeyConfig.resolve(
            f,
            RekeyConfig.read(f),
            Map.of(RekeyConfig.MASTER, "spark://m:7077"),
            List.of("spark.executor.memory=8g"),
            Map.of("HBASE_CONF_DIR", envConf.toString()),
            null);
    assertEquals(
        new RekeyConfig.Value("spark://m:7077", "command line"),
        r.settings().get(RekeyConfig.MASTER));
    assertEquals(
        new RekeyConfig.Value("cluster", f.toString()), r.settings().get(RekeyConfig.DEPLOY_MODE));
    assertEquals("/etc/hbase/site.xml", r.get(RekeyConfig.HBASE_SITE));
    assertEquals("hdfs:///st", r.get(RekeyConfig.STAGING_ROOT));
    assertNull(r.get(RekeyConfig.OUTPUT_ROOT));
    // the file's Spark settings first, the command line's after them: spark-submit keeps the last
    assertEquals(
        List.of(
            new RekeyConfig.Value("spark.executor.memory=4g", f.toString()),
            new RekeyConfig.Value("spark.yarn.queue=etl", f.toString()),
            new RekeyConfig.Value("spark.executor.memory=8g", "command line")),
        r.sparkConf());
    List<String> lines = r.lines();
    assertEquals("properties file: " + f, lines.get(0));
    assertTrue(
        lines.stream().anyMatch(l -> l.matches("spark.executor.memory=8g\\s+command line")),
        lines.toString());
    assertTrue(
        lines.stream().noneMatch(l -> l.startsWith("spark.executor.memory=4g")), lines.toString());
  }

  @Test
  void withoutFileOrCommandLineTheEnvironmentThenRekeysDefaults() throws Exception {
    Path envConf = Files.createDirectories(dir.resolve("hbase-conf"));
    Files.writeString(envConf.resolve("hbase-site.xml"), "<configuration/>");
    RekeyConfig.Resolved r =
        RekeyConfig.resolve(
            null,
            new Properties(),
            Map.of(),
            List.of(),
            Map.of("HBASE_CONF_DIR", envConf.toString()),
            null);
    assertEquals(
        new RekeyConfig.Value("local[*]", "default"), r.settings().get(RekeyConfig.MASTER));
    assertEquals(
        new RekeyConfig.Value("client", "default"), r.settings().get(RekeyConfig.DEPLOY_MODE));
    assertEquals(
        new RekeyConfig.Value(envConf.resolve("hbase-site.xml").toString(), "$HBASE_CONF_DIR"),
        r.settings().get(RekeyConfig.HBASE_SITE));
    Path embedded = dir.resolve("client-site.xml");
    Files.writeString(embedded, "<configuration/>");
    RekeyConfig.Resolved none =
        RekeyConfig.resolve(null, new Properties(), Map.of(), List.of(), Map.of(), embedded);
    assertEquals("the embedded server's", none.settings().get(RekeyConfig.HBASE_SITE).source());
    assertEquals("properties file: none", none.lines().get(0));
  }

  @Test
  void theShippedTemplateSetsNothing() {
    Path shipped = Path.of(System.getProperty("rekey.home", "..")).resolve("conf/rekey.properties");
    Properties p = RekeyConfig.read(shipped);
    assertTrue(p.isEmpty(), "every line of " + shipped + " is a comment: " + p);
  }

  @Test
  void aMisspeltKeyOrDeployModeIsAUsageErrorNamingTheFile() throws Exception {
    Path f = file("rekey.mastr=yarn\n");
    RekeyException e = assertThrows(RekeyException.class, () -> RekeyConfig.read(f));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(e.getMessage().contains("Unknown key 'rekey.mastr' in " + f), e.getMessage());
    assertTrue(e.getMessage().contains("rekey.master"), e.getMessage());
    Path g = file("rekey.deploy-mode=cluser\n");
    RekeyException m = assertThrows(RekeyException.class, () -> RekeyConfig.read(g));
    assertTrue(
        m.getMessage().contains("Invalid rekey.deploy-mode in " + g + " 'cluser'"), m.getMessage());
  }

  @Test
  void theFileIsTheNamedOneElseRekeyConfDirsElseTheInstalls() throws Exception {
    Path named = file("");
    assertEquals(named, RekeyConfig.locate(named, Map.of(), dir));
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> RekeyConfig.locate(dir.resolve("nope.properties"), Map.of(), dir));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(e.getMessage().startsWith("Cannot read --properties-file"), e.getMessage());
    Path confDir = Files.createDirectories(dir.resolve("etc"));
    Files.writeString(confDir.resolve("rekey.properties"), "");
    Path home = Files.createDirectories(dir.resolve("home/conf")).getParent();
    Files.writeString(home.resolve("conf/rekey.properties"), "");
    assertEquals(
        confDir.resolve("rekey.properties"),
        RekeyConfig.locate(null, Map.of("REKEY_CONF_DIR", confDir.toString()), home));
    assertEquals(home.resolve("conf/rekey.properties"), RekeyConfig.locate(null, Map.of(), home));
    assertNull(RekeyConfig.locate(null, Map.of(), dir.resolve("elsewhere")));
  }
}
