package dev.rekey.jobs.backfill;

import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.hbase.Coprocessor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Puts {@link LoadFaultObserver} on a target table of the shared HBase server. The server process
 * runs from its own classpath, without the test classes: the observer goes to it the way a user's
 * coprocessor does, in a jar named on the table descriptor (built here from the compiled class).
 */
final class LoadFaults {
  private LoadFaults() {}

  /** The observer's jar, built once per test run under the run dir. */
  static synchronized Path jar() throws IOException {
    Path jar = SharedHBase.runRoot().resolve("load-fault-observer.jar");
    if (Files.exists(jar)) {
      return jar;
    }
    String entry = LoadFaultObserver.class.getName().replace('.', '/') + ".class";
    Path tmp = jar.resolveSibling(jar.getFileName() + ".tmp");
    Files.createDirectories(jar.getParent());
    try (InputStream in = LoadFaultObserver.class.getClassLoader().getResourceAsStream(entry);
        OutputStream out = Files.newOutputStream(tmp);
        JarOutputStream j = new JarOutputStream(out)) {
      j.putNextEntry(new JarEntry(entry));
      in.transferTo(j);
      j.closeEntry();
    }
    Files.move(tmp, jar);
    return jar;
  }

  /**
   * Registers the observer on {@code table} (its regions reopen with it): bulk loads into the
   * region starting at {@code regionStart} fail {@code failures} times, with a plain IOException
   * ({@code io}) or a DoNotRetryIOException ({@code dnr}). Returns the control file ({@link #set}).
   */
  static Path arm(TableName table, byte[] regionStart, int failures, String mode)
      throws IOException {
    Path control = SharedHBase.runRoot().resolve("load-fault-" + table.getNameAsString());
    set(control, failures, mode);
    Admin admin = SharedHBase.connection().getAdmin();
    admin.modifyTable(
        TableDescriptorBuilder.newBuilder(admin.getDescriptor(table))
            .setCoprocessor(
                CoprocessorDescriptorBuilder.newBuilder(LoadFaultObserver.class.getName())
                    .setJarPath(jar().toUri().toString())
                    .setPriority(Coprocessor.PRIORITY_USER)
                    .setProperty(LoadFaultObserver.CONTROL, control.toString())
                    .setProperty(LoadFaultObserver.REGION_START, Bytes.toStringBinary(regionStart))
                    .build())
            .build());
    return control;
  }

  static void set(Path control, int failures, String mode) throws IOException {
    Files.writeString(control, failures + " " + mode, StandardCharsets.UTF_8);
  }

  /** The failures not used yet. */
  static int left(Path control) throws IOException {
    return Integer.parseInt(Files.readString(control, StandardCharsets.UTF_8).trim().split(" ")[0]);
  }
}
