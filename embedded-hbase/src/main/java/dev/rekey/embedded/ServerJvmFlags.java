package dev.rekey.embedded;

import java.util.List;

/**
 * JVM flags the HBase server needs on Java 17 (without them the master dies opening java.lang
 * reflectively).
 */
final class ServerJvmFlags {
  static final List<String> FLAGS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "-Dio.netty.tryReflectionSetAccessible=true",
          "--add-modules",
          "jdk.unsupported",
          "--add-opens",
          "java.base/java.nio=ALL-UNNAMED",
          "--add-opens",
          "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.lang=ALL-UNNAMED",
          "--add-opens",
          "java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.util=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-exports",
          "java.base/jdk.internal.misc=ALL-UNNAMED",
          "--add-exports",
          "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
          "--add-exports",
          "java.base/sun.net.dns=ALL-UNNAMED",
          "--add-exports",
          "java.base/sun.net.util=ALL-UNNAMED",
          "-Djava.net.preferIPv4Stack=true");

  private ServerJvmFlags() {}
}
