package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ConfigRedactionTest {
  @Test
  void secretsAreRedactedAndSettingsAreNot() {
    for (String key :
        new String[] {
          "hbase.rpc.tls.keystore.password",
          "hbase.zookeeper.property.ssl.trustStore.password",
          "fs.s3a.secret.key",
          "fs.s3a.access.key",
          "fs.azure.account.key.acct.blob.core.windows.net",
          "hadoop.security.credential.provider.path.secret",
          "spark.some.auth.token",
          "dfs.webhdfs.oauth2.refresh.token",
          "ssl.server.keystore.keypassword"
        }) {
      assertEquals(ConfigRedaction.REDACTED, ConfigRedaction.value(key, "hunter2"), key);
    }
    for (String key :
        new String[] {
          "hbase.rpc.timeout",
          "hbase.security.authentication",
          "hbase.client.keytab.file",
          "hbase.client.keytab.principal",
          "hbase.zookeeper.quorum"
        }) {
      assertEquals("v", ConfigRedaction.value(key, "v"), key);
    }
  }
}
