package dev.rekey.embedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a growing log from where it last stopped, looking for one line. */
final class LogWatch {
  private final Path file;
  private final String needle;
  private long offset;
  private boolean seen;

  LogWatch(Path file, String needle) {
    this.file = file;
    this.needle = needle;
  }

  boolean seen() throws IOException {
    if (seen || !Files.exists(file)) {
      return seen;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long len = raf.length();
      if (len <= offset) {
        return false;
      }
      // keep a line's worth of overlap so a needle split across two reads is still found
      long from = Math.max(0, offset - needle.length());
      byte[] buf = new byte[(int) Math.min(len - from, 64L << 20)];
      raf.seek(from);
      raf.readFully(buf);
      offset = from + buf.length;
      seen = new String(buf, StandardCharsets.ISO_8859_1).contains(needle);
    }
    return seen;
  }
}
