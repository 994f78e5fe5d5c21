package dev.rekey.admin.checkconfig;

import dev.rekey.common.ConfigRedaction;

/**
 * One problem found in a client configuration: the key, its effective value, the rule it breaks and
 * the fix.
 *
 * @param severity VIOLATION (fails check-config with exit 3) or WARNING (printed; fails only with
 *     --strict)
 * @param key the configuration key the finding is about
 * @param value its effective value ("(default)" suffix when HBase's default applies)
 * @param rule the rule in words, with the numbers that break it
 * @param fix what to set instead
 */
public record ConfigFinding(Severity severity, String key, String value, String rule, String fix) {
  public ConfigFinding {
    // printed and written as JSON: a secret's value never is (no rule reads one today; one may)
    value = ConfigRedaction.value(key, value);
  }

  public enum Severity {
    VIOLATION,
    WARNING
  }
}
