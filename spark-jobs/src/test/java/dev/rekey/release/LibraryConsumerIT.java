package dev.rekey.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The libraries as Maven artifacts: a service's own Maven project, built OFFLINE against the
 * release's {@code maven/} artifacts (rekey-rowkey and rekey-client 0.4.0 with their POMs)
 * installed into a temporary local repository — never ~/.m2 — reads a salted table of the embedded
 * HBase through {@code LayoutReader}: every row by natural key, every cell with its timestamp, the
 * same as written (LayoutReader reads the newest version of each column).
 */
@Tag("e2e")
class LibraryConsumerIT {
  private final Path work = SharedHBase.rekeyHome().resolve("target/consumer-it");

  @Test
  void aServiceBuildReadsATableWithTheReleasedClient() throws Exception {
    Path release =
        Releases.unpack(Releases.build(work.resolve("out"), false), work.resolve("unpacked"));
    Path repo = temporaryRepository(work.resolve("repo"));
    for (String lib : List.of("rekey-rowkey", "rekey-client")) {
      mvn(
          work,
          repo,
          "org.apache.maven.plugins:maven-install-plugin:3.1.1:install-file",
          "-Dfile=" + release.resolve("maven/" + lib + "-0.4.0.jar"),
          "-DpomFile=" + release.resolve("maven/" + lib + "-0.4.0.pom"));
    }
    // the versions rekey is tested with, which the service imports
    Path bom = release.resolve("maven/rekey-bom-0.4.0.pom");
    mvn(
        work,
        repo,
        "org.apache.maven.plugins:maven-install-plugin:3.1.1:install-file",
        "-Dfile=" + bom,
        "-DpomFile=" + bom,
        "-Dpackaging=pom");
    assertTrue(
        Files.isRegularFile(repo.resolve("dev/rekey/rekey-client/0.4.0/rekey-client-0.4.0.pom")));

    // the table: two cells of each reading, with their own timestamps, in 16 salt buckets
    KeyLayout layout = Layouts.shipped("telemetry-v2");
    TableName table = SharedHBase.uniqueTable("consumer");
    List<String> expected = new ArrayList<>();
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
              .build());
    }
    long t0 = 1_795_910_400_000L;
    try (Table t = SharedHBase.connection().getTable(table)) {
      for (int i = 0; i < 200; i++) {
        long ts = t0 + i * 60_000L;
        byte[] device = Bytes.toBytes(String.format("device-%09d", i % 7));
        Put p = new Put(layout.encode(Map.of("ts", ts, "deviceId", device)));
        for (String q : List.of("t", "v")) {
          byte[] value = Bytes.toBytes("reading " + i + " " + q);
          p.addColumn(Bytes.toBytes("d"), Bytes.toBytes(q), ts + 7, value);
          expected.add(
              ts
                  + " "
                  + HexFormat.of().formatHex(device)
                  + " d:"
                  + q
                  + "@"
                  + (ts + 7)
                  + "="
                  + HexFormat.of().formatHex(value));
        }
        t.put(p);
      }
    }

    Path project = service(work.resolve("service"));
    mvn(
        project,
        repo,
        "package",
        "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath",
        "-Dmdep.outputFile=" + project.resolve("cp.txt"));
    String cp =
        project.resolve("target/classes")
            + ":"
            + Files.readString(project.resolve("cp.txt")).trim();
    assertTrue(cp.contains(repo.resolve("dev/rekey/rekey-client/0.4.0").toString()), cp);
    assertTrue(!cp.contains(".m2/repository/dev/rekey"), "nothing of rekey from ~/.m2: " + cp);
    RekeyProcess.Result read =
        RekeyProcess.run(
            new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Dio.netty.tryReflectionSetAccessible=true",
                "-cp",
                cp,
                "example.ReadWindow",
                SharedHBase.server().clientSite().toString(),
                table.getNameAsString(),
                release.resolve("conf/layouts/telemetry-v2.yaml").toString(),
                Long.toString(t0),
                Long.toString(t0 + 200 * 60_000L)),
            300);
    assertEquals(0, read.exitCode(), read.all());
    List<String> got = read.stdout().lines().filter(l -> !l.isBlank()).toList();
    assertEquals(new TreeSet<>(expected), new TreeSet<>(got));
    assertEquals(expected.size(), got.size(), "each cell once");
    // merged in natural key order (time first) across the 16 buckets
    List<String> times = got.stream().map(l -> l.substring(0, l.indexOf(' '))).toList();
    assertEquals(times.stream().sorted().toList(), times);
  }

  /**
   * A local repository holding what ~/.m2 holds, without touching it: hard links of every file (a
   * Maven build writes new files, it does not rewrite artifacts), rekey's own dropped.
   */
  static Path temporaryRepository(Path repo) throws Exception {
    Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository");
    if (Files.exists(repo)) {
      RekeyProcess.run(new ProcessBuilder("rm", "-rf", repo.toString()), 300);
    }
    RekeyProcess.Result cp =
        RekeyProcess.run(new ProcessBuilder("cp", "-al", m2.toString(), repo.toString()), 600);
    assertEquals(0, cp.exitCode(), cp.all());
    RekeyProcess.run(new ProcessBuilder("rm", "-rf", repo.resolve("dev/rekey").toString()), 300);
    return repo;
  }

  private static void mvn(Path dir, Path repo, String... goals) throws Exception {
    List<String> cmd =
        new ArrayList<>(List.of("mvn", "-B", "-q", "-o", "-Dmaven.repo.local=" + repo));
    cmd.addAll(List.of(goals));
    RekeyProcess.Result r = RekeyProcess.run(new ProcessBuilder(cmd).directory(dir.toFile()), 600);
    assertEquals(0, r.exitCode(), String.join(" ", cmd) + "\n" + r.all());
  }

  /** A service's Maven project: rekey-client 0.4.0 and a main that reads a window. */
  private static Path service(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("src/main/java/example"));
    Files.writeString(
        dir.resolve("pom.xml"),
        """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>example</groupId>
          <artifactId>telemetry-service</artifactId>
          <version>1</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <dependencyManagement>
            <dependencies>
              <dependency>
                <groupId>dev.rekey</groupId>
                <artifactId>rekey-bom</artifactId>
                <version>0.4.0</version>
                <type>pom</type>
                <scope>import</scope>
              </dependency>
            </dependencies>
          </dependencyManagement>
          <dependencies>
            <dependency>
              <groupId>dev.rekey</groupId>
              <artifactId>rekey-client</artifactId>
            </dependency>
          </dependencies>
          <build>
            <plugins>
              <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
              <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
              <plugin><artifactId>maven-jar-plugin</artifactId><version>3.3.0</version></plugin>
              <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
              <plugin><artifactId>maven-install-plugin</artifactId><version>3.1.1</version></plugin>
              <plugin><artifactId>maven-clean-plugin</artifactId><version>3.3.2</version></plugin>
            </plugins>
          </build>
        </project>
        """);
    Files.writeString(
        dir.resolve("src/main/java/example/ReadWindow.java"),
        """
        package example;

        import dev.rekey.client.LayoutReader;
        import dev.rekey.client.ReadQuery;
        import dev.rekey.rowkey.KeyLayout;
        import java.nio.file.Path;
        import java.util.HexFormat;
        import org.apache.hadoop.conf.Configuration;
        import org.apache.hadoop.hbase.Cell;
        import org.apache.hadoop.hbase.CellUtil;
        import org.apache.hadoop.hbase.HBaseConfiguration;
        import org.apache.hadoop.hbase.TableName;
        import org.apache.hadoop.hbase.client.Connection;
        import org.apache.hadoop.hbase.client.ConnectionFactory;
        import org.apache.hadoop.hbase.client.Result;
        import org.apache.hadoop.hbase.util.Bytes;

        /** args: hbase-site.xml table layout.yaml fromMillis toMillis; one line per cell. */
        public final class ReadWindow {
          public static void main(String[] args) throws Exception {
            Configuration conf = HBaseConfiguration.create();
            conf.addResource(new org.apache.hadoop.fs.Path(args[0]));
            KeyLayout layout = KeyLayout.load(Path.of(args[2]));
            HexFormat hex = HexFormat.of();
            try (Connection conn = ConnectionFactory.createConnection(conf);
                LayoutReader reader = LayoutReader.open(conn, TableName.valueOf(args[1]), layout)) {
              ReadQuery window = ReadQuery.window(Long.parseLong(args[3]), Long.parseLong(args[4]));
              for (Result row : reader.scan(window)) {
                var key = layout.decode(row.getRow());
                for (Cell c : row.rawCells()) {
                  System.out.println(key.get("ts") + " " + hex.formatHex((byte[]) key.get("deviceId"))
                      + " " + Bytes.toString(CellUtil.cloneFamily(c)) + ":"
                      + Bytes.toString(CellUtil.cloneQualifier(c)) + "@" + c.getTimestamp() + "="
                      + hex.formatHex(CellUtil.cloneValue(c)));
                }
              }
            }
          }
        }
        """);
    return dir;
  }
}
