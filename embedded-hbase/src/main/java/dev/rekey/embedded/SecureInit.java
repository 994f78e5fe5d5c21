package dev.rekey.embedded;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The kerberized stack's HDFS as its administrator leaves it before HBase starts, logged in as the
 * HDFS superuser from its keytab: directories with their owners and modes, permissions being on
 * ({@code /hbase} for the {@code hbase} user, {@code /tmp} sticky, each user's home its own). Run
 * once per start as a tool of the stack (it changes nothing that is already so).
 *
 * <p>Arguments: {@code PRINCIPAL KEYTAB PATH:OWNER:MODE...} (mode in octal).
 */
public final class SecureInit {
  private SecureInit() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new HdfsConfiguration();
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(args[0], args[1]);
    try (FileSystem fs = FileSystem.newInstance(conf)) {
      for (int i = 2; i < args.length; i++) {
        String[] spec = args[i].split(":");
        Path p = new Path(spec[0]);
        fs.mkdirs(p);
        fs.setOwner(p, spec[1], spec[1]);
        fs.setPermission(p, new FsPermission(Short.parseShort(spec[2], 8)));
        System.out.println(p + " " + spec[1] + " " + spec[2]);
      }
    }
  }
}
