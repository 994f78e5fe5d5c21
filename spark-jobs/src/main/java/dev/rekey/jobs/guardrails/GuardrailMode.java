package dev.rekey.jobs.guardrails;

import dev.rekey.common.RekeyException;
import java.util.Locale;

/** What a backfill does with the guardrails ({@code --guardrails}). */
public enum GuardrailMode {
  /** No check before the write (a dry run checks anyway: it reads every row). */
  OFF,
  /** Check every source row first (one more read of the snapshot), print what is found, go on. */
  REPORT,
  /** Check first and refuse to start, before any write, when anything is found. */
  STRICT;

  /** From {@code --guardrails off|report|strict}. */
  public static GuardrailMode parse(String s) {
    if (s == null) {
      return OFF;
    }
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Invalid --guardrails '%s': expected off, report (check the source first and go on) or"
              + " strict (refuse to start when anything is found)",
          s);
    }
  }
}
