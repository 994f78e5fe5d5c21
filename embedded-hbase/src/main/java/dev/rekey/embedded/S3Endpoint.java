package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * A real S3 endpoint on this machine: S3Proxy (the S3 REST API over jclouds' filesystem backend) as
 * a process of its own, from the classpath the {@code s3-endpoint} module resolves at build time,
 * bound to 127.0.0.1 on a free port, with one bucket and a fixed test access key.
 *
 * <p>Run directory ({@code .rekey/s3} by default): {@code conf/s3proxy.properties} (the server's
 * settings, its keys among them: owner-only), {@code data/<bucket>/} (the objects, as files),
 * {@code client/core-site.xml} (what a Hadoop client needs: endpoint, path-style access, no TLS and
 * where the keys are) and {@code client/s3.jceks} (the keys, a Hadoop credential file), {@code
 * endpoint.properties}, {@code s3proxy.pid}, {@code logs/s3proxy.log}.
 *
 * <p>The keys never go on a command line: S3Proxy reads them from its properties file, Hadoop
 * clients from the credential file that {@code hadoop.security.credential.provider.path} names.
 */
public final class S3Endpoint {
  /** The bucket made at start. */
  public static final String BUCKET = "rekey";

  /** The fixed test keys of the development endpoint. */
  public static final String TEST_ACCESS_KEY = "rekey-test-access-key";

  public static final String TEST_SECRET_KEY = "rekey-test-secret-key";

  static final String MAIN_CLASS = "org.gaul.s3proxy.Main";
  static final String READY_LINE = "Started ServerConnector";

  private final Path runDir;
  private final Consumer<String> out;
  private final String accessKey;
  private final String secretKey;

  /** The endpoint of {@code runDir} with the test keys. */
  public S3Endpoint(Path runDir, Consumer<String> out) {
    this(runDir, out, TEST_ACCESS_KEY, TEST_SECRET_KEY);
  }

  /** The endpoint of {@code runDir} with keys of one's own (a test's recognisable secret). */
  public S3Endpoint(Path runDir, Consumer<String> out, String accessKey, String secretKey) {
    this.runDir = runDir.toAbsolutePath().normalize();
    this.out = out;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
  }

  /** {@code $REKEY_RUN_DIR/s3}, else {@code <rekey home>/.rekey/s3}. */
  public static Path defaultRunDir() {
    return RekeyHome.runRoot().resolve("s3");
  }

  public Path runDir() {
    return runDir;
  }

  /** Where the objects are kept: one directory per bucket. */
  public Path dataDir() {
    return runDir.resolve("data");
  }

  /** The Hadoop client settings of this endpoint (no key in it: it names the credential file). */
  public Path clientSite() {
    return runDir.resolve("client/core-site.xml");
  }

  /** The Hadoop credential file holding {@code fs.s3a.access.key} and {@code fs.s3a.secret.key}. */
  public Path credentialFile() {
    return runDir.resolve("client/s3.jceks");
  }

  /**
   * {@code jceks://file/...} of {@link #credentialFile()}, for {@code
   * hadoop.security.credential.provider.path}.
   */
  public String credentialProviderPath() {
    return "jceks://file" + credentialFile();
  }

  public Path logFile() {
    return runDir.resolve("logs/s3proxy.log");
  }

  private Path pidFile() {
    return runDir.resolve("s3proxy.pid");
  }

  private Path endpointFile() {
    return runDir.resolve("endpoint.properties");
  }

  /** The running S3Proxy of this run directory, if any (a recycled pid does not count). */
  public Optional<ProcessHandle> runningProcess() {
    return Daemons.live(
        pidFile(), cmd -> cmd.contains(MAIN_CLASS) && cmd.contains(runDir.toString()));
  }

  /** {@code http://127.0.0.1:PORT} of the running endpoint. */
  public Optional<String> url() {
    if (runningProcess().isEmpty()) {
      return Optional.empty();
    }
    try (InputStream in = Files.newInputStream(endpointFile())) {
      Properties p = new Properties();
      p.load(in);
      return Optional.ofNullable(p.getProperty("url"));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** {@code s3a://<bucket>/}, the root of the bucket made at start. */
  public static String bucketUri() {
    return "s3a://" + BUCKET + "/";
  }

  /**
   * The settings a Hadoop client of the running endpoint needs, in order: endpoint, path-style
   * access, no TLS, then the two keys. What {@code rekey s3 start} prints; a job takes them from
   * {@link #clientSite()} and the credential file instead.
   */
  public Map<String, String> s3aSettings(String url) {
    Map<String, String> m = new LinkedHashMap<>(clientSettings(url));
    m.remove("hadoop.security.credential.provider.path");
    m.put("fs.s3a.access.key", accessKey);
    m.put("fs.s3a.secret.key", secretKey);
    return m;
  }

  /**
   * What {@link #clientSite()} holds: the endpoint's settings and where the keys are, no key. Also
   * what a cluster's core-site.xml takes to reach it ({@code cluster start --s3-root}).
   */
  public Map<String, String> clientSettings(String url) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("fs.s3a.endpoint", url);
    m.put("fs.s3a.path.style.access", "true");
    m.put("fs.s3a.connection.ssl.enabled", "false");
    // S3Proxy is not in a region; the SDK signs for this one when the endpoint names none
    m.put("fs.s3a.endpoint.region", "us-east-1");
    // a stopped endpoint fails a step in seconds, not after the SDK's default 20 retries
    m.put("fs.s3a.attempts.maximum", "3");
    m.put("fs.s3a.retry.limit", "3");
    m.put("fs.s3a.connection.establish.timeout", "5000");
    m.put("hadoop.security.credential.provider.path", credentialProviderPath());
    return m;
  }

  /**
   * Starts S3Proxy unless it runs; makes the bucket, writes the client site and the credential
   * file.
   *
   * @return the endpoint URL
   */
  public String start(Duration timeout) {
    try {
      return Daemons.locked(runDir, () -> startLocked(timeout));
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format("Cannot start the S3 endpoint in %s: %s", runDir, e));
    }
  }

  private String startLocked(Duration timeout) throws IOException {
    Optional<String> running = url();
    if (running.isPresent()) {
      out.accept("S3 endpoint is already running: " + running.get());
      writeClientFiles(running.get());
      return running.get();
    }
    for (String d : List.of("conf", "client", "logs", "data/" + BUCKET)) {
      Files.createDirectories(runDir.resolve(d));
    }
    int port = Daemons.freePorts(1)[0];
    String url = "http://127.0.0.1:" + port;
    Properties props = new Properties();
    props.setProperty("s3proxy.endpoint", url);
    props.setProperty("s3proxy.authorization", "aws-v2-or-v4");
    props.setProperty("s3proxy.identity", accessKey);
    props.setProperty("s3proxy.credential", secretKey);
    // the NIO.2 filesystem backend (the older "filesystem" one lists no directory marker S3A makes)
    props.setProperty("jclouds.provider", "filesystem-nio2");
    // the backend's own login, which a directory has none of: not the S3 keys above
    props.setProperty("jclouds.identity", "local");
    props.setProperty("jclouds.credential", "local");
    props.setProperty("jclouds.filesystem.basedir", dataDir().toString());
    Path conf = runDir.resolve("conf/s3proxy.properties");
    writeOwnerOnly(conf, properties(props, "S3Proxy of rekey s3 start: holds the keys"));
    Files.writeString(runDir.resolve("conf/logback.xml"), LOGBACK);
    Files.deleteIfExists(logFile());
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Dlogback.configurationFile=" + runDir.resolve("conf/logback.xml"));
    cmd.add("-Drekey.s3.dir=" + runDir);
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(MAIN_CLASS);
    cmd.add("--properties");
    cmd.add(conf.toString());
    Process p = Daemons.launch(cmd, logFile(), pidFile(), Map.of());
    LogWatch ready = new LogWatch(logFile(), READY_LINE);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.seen()) {
      if (!p.isAlive()) {
        throw new EmbeddedHBaseException(
            String.format(
                "S3Proxy exited during start-up; see %s:\n%s", logFile(), Daemons.tail(logFile())));
      }
      if (System.nanoTime() > deadline) {
        Daemons.terminate(p.toHandle(), Duration.ofSeconds(10), "S3Proxy", out);
        throw new EmbeddedHBaseException(
            String.format(
                "S3Proxy did not start within %d s; see %s:\n%s",
                timeout.toSeconds(), logFile(), Daemons.tail(logFile())));
      }
      Daemons.waitFor(p.toHandle(), Duration.ofMillis(200));
    }
    Properties ep = new Properties();
    ep.setProperty("url", url);
    ep.setProperty("bucket", BUCKET);
    Files.writeString(endpointFile(), properties(ep, "the running S3 endpoint"));
    writeClientFiles(url);
    out.accept("S3 endpoint up: " + url + " (S3Proxy, objects in " + dataDir() + ")");
    return url;
  }

  private void writeClientFiles(String url) throws IOException {
    S3Credentials.write(credentialFile(), accessKey, secretKey);
    Files.writeString(
        clientSite(),
        SiteXml.of(
            "Hadoop client settings of the S3 endpoint of rekey s3 start; its keys are in the"
                + " credential file named here",
            clientSettings(url)));
  }

  /** Stops S3Proxy (SIGTERM, then SIGKILL); the objects stay. A stopped endpoint is a no-op. */
  public void stop() {
    try {
      Daemons.locked(
          runDir,
          () -> {
            Optional<ProcessHandle> p = runningProcess();
            if (p.isPresent()) {
              Daemons.terminate(p.get(), Duration.ofSeconds(15), "S3Proxy", out);
              out.accept("S3 endpoint stopped (pid " + p.get().pid() + ")");
            } else {
              out.accept("S3 endpoint is not running");
            }
            Files.deleteIfExists(pidFile());
            return null;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot stop the S3 endpoint in %s: %s", runDir, e.getMessage()), e);
    }
  }

  static String classpath() throws IOException {
    try (InputStream in = S3Endpoint.class.getResourceAsStream("/dev/rekey/s3/s3proxy.classpath")) {
      String cp = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      if (cp.isEmpty()) {
        throw new EmbeddedHBaseException(
            "S3Proxy's classpath (dev/rekey/s3/s3proxy.classpath of the rekey-s3-endpoint jar) is"
                + " missing: rebuild with `mvn -pl s3-endpoint,embedded-hbase package` (bin/rekey"
                + " does this when sources change).");
      }
      return cp;
    }
  }

  private static String properties(Properties p, String comment) throws IOException {
    java.io.StringWriter w = new java.io.StringWriter();
    p.store(w, comment);
    return w.toString();
  }

  /** Writes {@code text} to a file only its owner can read, created so from the start. */
  static void writeOwnerOnly(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }

  private static final String LOGBACK =
      """
      <configuration>
        <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n</pattern></encoder>
        </appender>
        <root level="INFO"><appender-ref ref="OUT"/></root>
      </configuration>
      """;
}
