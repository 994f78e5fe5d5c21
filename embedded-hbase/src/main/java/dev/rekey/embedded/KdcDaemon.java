package dev.rekey.embedded;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.minikdc.MiniKdc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KDC of a kerberized development stack, run as a daemon of its own: Hadoop's MiniKdc (Apache
 * Kerby) for realm {@link KerberosRealm#DEFAULT_REALM} on {@code 127.0.0.1:PORT}, which creates
 * every principal it is given (random keys) and exports each into its keytab (mode 600), writes the
 * realm's krb5.conf, logs {@value #READY} and serves until stopped. Its database is in memory: each
 * start makes new keys, and so new keytabs, before any other daemon starts.
 *
 * <p>Arguments: {@code WORKDIR PORT KRB5_CONF KEYTAB=principal[,principal...]...}.
 */
public final class KdcDaemon {
  static final String READY = "KDC ready for realm";
  private static final Logger LOG = LoggerFactory.getLogger(KdcDaemon.class);

  private KdcDaemon() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    Files.createDirectories(work);
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.ORG_NAME, KerberosRealm.ORG);
    conf.setProperty(MiniKdc.ORG_DOMAIN, KerberosRealm.DOMAIN);
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    conf.setProperty(MiniKdc.KDC_PORT, args[1]);
    MiniKdc kdc = new MiniKdc(conf, work.toFile());
    kdc.start();
    Runtime.getRuntime().addShutdownHook(new Thread(kdc::stop, "kdc-stop"));
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      File keytab = new File(args[i].substring(0, eq));
      Files.createDirectories(keytab.toPath().getParent());
      kdc.createPrincipal(keytab, args[i].substring(eq + 1).split(","));
      Files.setPosixFilePermissions(keytab.toPath(), PosixFilePermissions.fromString("rw-------"));
      LOG.info("keytab {}: {}", keytab, args[i].substring(eq + 1));
    }
    Path krb5 = Path.of(args[2]);
    Path tmp = krb5.resolveSibling(krb5.getFileName() + ".tmp");
    Files.copy(kdc.getKrb5conf().toPath(), tmp, StandardCopyOption.REPLACE_EXISTING);
    Files.move(tmp, krb5, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    LOG.info(
        "{} {} on {}:{} (krb5.conf {})", READY, kdc.getRealm(), kdc.getHost(), kdc.getPort(), krb5);
    new CountDownLatch(1).await();
  }
}
