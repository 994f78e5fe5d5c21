package dev.rekey.common;

import java.util.regex.Pattern;
import org.apache.hadoop.conf.ConfigRedactor;
import org.apache.hadoop.conf.Configuration;

/**
 * What rekey prints of a configuration property: its value, or {@code <redacted>} for a secret.
 * Secrets are the keys Hadoop itself redacts ({@code hadoop.security.sensitive-config-keys}:
 * passwords, secret keys, credentials, OAuth tokens) plus the words Spark redacts in its own output
 * ({@code spark.redaction.regex}) and keytab contents: a password in hbase-site.xml (a TLS
 * keystore's, say) must not reach a terminal, a log or a JSON report.
 */
public final class ConfigRedaction {
  public static final String REDACTED = "<redacted>";

  private static final Pattern SECRET =
      Pattern.compile(
          "(?i)secret|password|passwd|token|credential|access[.]?key|keytab[.]?content");

  // Hadoop's defaults (core-default.xml), without any site file: the list does not depend on input
  private static final ConfigRedactor HADOOP = new ConfigRedactor(new Configuration(true));

  private ConfigRedaction() {}

  public static boolean isSecret(String key) {
    return SECRET.matcher(key).find() || !"x".equals(HADOOP.redact(key, "x"));
  }

  /** The value to print for {@code key}. */
  public static String value(String key, String value) {
    return value == null || !isSecret(key) ? value : REDACTED;
  }
}
