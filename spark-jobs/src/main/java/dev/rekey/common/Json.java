package dev.rekey.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The one Jackson mapper of the jobs and the CLI. An {@link ObjectMapper} is thread-safe once
 * configured and costly to build (it caches serializers per type), so every result, report,
 * manifest and JSON line goes through this one.
 */
public final class Json {
  /** Compact: one value per line (quarantine files, {@code --format jsonl}). */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  /** Indented: the files people open (results, reports, manifests). */
  public static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

  private Json() {}

  /** The value as indented JSON. */
  public static String pretty(Object value) {
    try {
      return PRETTY.writeValueAsString(value);
    } catch (java.io.IOException e) {
      throw RekeyException.cannot(
          e, "Cannot serialise %s to JSON: %s", value.getClass().getSimpleName(), e.getMessage());
    }
  }
}
