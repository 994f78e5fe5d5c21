package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * The one exit-code contract ({@link ExitCodes}), listed at the end of every command's {@code
 * --help}: a scheduler wrapping any command reads the same codes.
 */
final class ExitCodeHelp {
  private ExitCodeHelp() {}

  static Map<String, String> codes() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(key(ExitCodes.OK), "success");
    codes.put(key(ExitCodes.FAILURE), "failure (a server, a file, a task; a retry may help)");
    codes.put(key(ExitCodes.USAGE), "usage error or bad input: nothing was done");
    codes.put(
        key(ExitCodes.MISMATCH),
        "a difference found (reconcile, repair's re-check, a verification, a campaign table that still differs, check-config, get)");
    codes.put(
        key(ExitCodes.REFUSED),
        "refused to protect data (a second load, a lock held, a run to resume, masked cells)");
    return codes;
  }

  /** Adds the list to {@code cl}'s help and to each of its subcommands', at every depth. */
  static void addTo(CommandLine cl) {
    cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(codes());
    cl.getSubcommands().values().forEach(ExitCodeHelp::addTo);
  }

  private static String key(int code) {
    return "  " + code;
  }
}
