package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The HTTPS keystore of a kerberized stack's HDFS daemons (dfs.http.policy HTTPS_ONLY, which lets a
 * DataNode run on unprivileged ports): a self-signed key for the stack's host made with the JDK's
 * keytool, a new random password each start, and Hadoop's {@code ssl-server.xml} / {@code
 * ssl-client.xml} naming them. The password is in those two files only (mode 600), as on a real
 * node.
 */
final class HttpsKeystore {
  private HttpsKeystore() {}

  static void write(Path keystore, Path sslServer, Path sslClient, String host) throws IOException {
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    String password = HexFormat.of().formatHex(random);
    Files.deleteIfExists(keystore);
    Files.createDirectories(keystore.getParent());
    List<String> cmd =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair",
            "-alias",
            host,
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-validity",
            "365",
            "-dname",
            "CN=" + host,
            "-ext",
            "SAN=dns:" + host + ",ip:127.0.0.1",
            "-keystore",
            keystore.toString(),
            "-storetype",
            "JKS",
            "-storepass:env",
            "REKEY_KEYSTORE_PASSWORD",
            "-keypass:env",
            "REKEY_KEYSTORE_PASSWORD");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("REKEY_KEYSTORE_PASSWORD", password);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new EmbeddedHBaseException(
            "Cannot make the HTTPS keystore " + keystore + " with keytool: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddedHBaseException("Interrupted while making the HTTPS keystore");
    }
    Map<String, String> server = new LinkedHashMap<>();
    server.put("ssl.server.keystore.location", keystore.toString());
    server.put("ssl.server.keystore.password", password);
    server.put("ssl.server.keystore.keypassword", password);
    server.put("ssl.server.keystore.type", "jks");
    server.put("ssl.server.truststore.location", keystore.toString());
    server.put("ssl.server.truststore.password", password);
    server.put("ssl.server.truststore.type", "jks");
    Map<String, String> client = new LinkedHashMap<>();
    client.put("ssl.client.truststore.location", keystore.toString());
    client.put("ssl.client.truststore.password", password);
    client.put("ssl.client.truststore.type", "jks");
    writePrivate(sslServer, SiteXml.of("HTTPS of the kerberized stack's HDFS daemons", server));
    writePrivate(sslClient, SiteXml.of("HTTPS clients of the kerberized stack", client));
    Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
  }

  private static void writePrivate(Path file, String text) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }
}
