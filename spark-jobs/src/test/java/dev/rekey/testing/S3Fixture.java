package dev.rekey.testing;

import dev.rekey.embedded.S3Endpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/**
 * One real S3 endpoint (S3Proxy) for a test class, with keys no other test uses — a recognisable
 * secret that {@link #filesHolding} looks for in whatever the jobs wrote — and the embedded HBase
 * server's configuration with the endpoint's client settings over it (the keys through the
 * endpoint's credential file, as a user's site would name it).
 */
public final class S3Fixture implements AutoCloseable {
  public final String accessKey =
      "AKIA" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase();
  public final String secretKey = "s3cret-canary-" + UUID.randomUUID();
  public final S3Endpoint endpoint;
  public final String url;

  public S3Fixture(String name) {
    Path dir = SharedHBase.runRoot().resolve("s3-" + name);
    endpoint = new S3Endpoint(dir, s -> {}, accessKey, secretKey);
    url = endpoint.start(Duration.ofSeconds(120));
    // the session's Hadoop configuration too, as --conf spark.hadoop.fs.s3a.* or a core-site in
    // HADOOP_CONF_DIR gives it: what executors and the jobs' output dirs reach S3 with
    Configuration spark = SharedSpark.session().sparkContext().hadoopConfiguration();
    endpoint.clientSettings(url).forEach(spark::set);
  }

  /** {@code s3a://rekey/<path>}. */
  public String uri(String path) {
    return S3Endpoint.bucketUri() + path;
  }

  /** The embedded server's HBase configuration, reaching this endpoint. */
  public Configuration conf() {
    Configuration c = new Configuration(SharedHBase.conf());
    endpoint.clientSettings(url).forEach(c::set);
    return c;
  }

  /**
   * Points {@code conf} at a credential file of its own holding {@code accessKey} and {@code
   * secretKey}, written as {@code hadoop credential create} does.
   */
  public static void writeCredentials(
      Configuration conf, Path file, String accessKey, String secretKey) throws IOException {
    Files.deleteIfExists(file);
    String provider = "jceks://file" + file.toAbsolutePath();
    Configuration c = new Configuration(false);
    c.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, provider);
    CredentialProvider p = CredentialProviderFactory.getProviders(c).get(0);
    p.createCredentialEntry("fs.s3a.access.key", accessKey.toCharArray());
    p.createCredentialEntry("fs.s3a.secret.key", secretKey.toCharArray());
    p.flush();
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, provider);
  }

  /** The files under {@code roots} whose bytes hold either key. */
  public List<Path> filesHolding(Path... roots) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.exists(root)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(root)) {
        for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
          if (p.startsWith(endpoint.runDir().resolve("conf"))
              || p.equals(endpoint.credentialFile())) {
            continue; // the endpoint's own key files
          }
          String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
          if (text.contains(secretKey) || text.contains(accessKey)) {
            found.add(p);
          }
        }
      }
    }
    return found;
  }

  @Override
  public void close() {
    Configuration spark = SharedSpark.session().sparkContext().hadoopConfiguration();
    endpoint.clientSettings(url).keySet().forEach(spark::unset);
    endpoint.stop();
  }
}
