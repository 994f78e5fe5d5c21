package dev.rekey.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * A jar of a few test classes, for {@code bin/rekey --conf spark.jars=...}: test code the driver
 * and executors of a submitted job load, while the production jar knows nothing about it.
 */
public final class TestJar {
  private TestJar() {}

  public static Path of(Path file, Class<?>... classes) throws IOException {
    Files.createDirectories(file.getParent());
    try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(file))) {
      for (Class<?> k : classes) {
        String name = k.getName().replace('.', '/') + ".class";
        j.putNextEntry(new JarEntry(name));
        try (InputStream in = k.getClassLoader().getResourceAsStream(name)) {
          in.transferTo(j);
        }
        j.closeEntry();
      }
    }
    return file;
  }
}
