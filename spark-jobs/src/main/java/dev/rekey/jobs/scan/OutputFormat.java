package dev.rekey.jobs.scan;

import dev.rekey.common.RekeyException;
import java.util.Locale;

/** How report outputs are written under {@code --out/<report>/} (Spark's own writers). */
public enum OutputFormat {
  PARQUET,
  CSV,
  JSON;

  public String sparkName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static OutputFormat parse(String s) {
    for (OutputFormat f : values()) {
      if (f.sparkName().equalsIgnoreCase(s.trim())) {
        return f;
      }
    }
    throw RekeyException.usage("Invalid --format '" + s + "': expected parquet, csv or json");
  }
}
