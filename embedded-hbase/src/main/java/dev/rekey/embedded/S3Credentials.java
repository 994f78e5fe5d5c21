package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/**
 * The S3 keys in a Hadoop credential file ({@code jceks}), as {@code hadoop credential create}
 * makes it: S3A reads {@code fs.s3a.access.key} and {@code fs.s3a.secret.key} from the providers
 * {@code hadoop.security.credential.provider.path} names, so no setting, site file or command line
 * holds them. Hadoop's classes are loaded only here, in the CLI's JVM, which has them.
 */
final class S3Credentials {
  private S3Credentials() {}

  static void write(Path file, String accessKey, String secretKey) throws IOException {
    Files.createDirectories(file.getParent());
    Files.deleteIfExists(file);
    Configuration conf = new Configuration(false);
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, "jceks://file" + file);
    CredentialProvider provider = CredentialProviderFactory.getProviders(conf).get(0);
    provider.createCredentialEntry("fs.s3a.access.key", accessKey.toCharArray());
    provider.createCredentialEntry("fs.s3a.secret.key", secretKey.toCharArray());
    provider.flush();
  }
}
