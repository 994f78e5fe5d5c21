package dev.rekey.cli;

import dev.rekey.common.RekeyException;
import dev.rekey.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --target TABLE=LAYOUT}, repeatable (picocli mixin): the tables of a command that takes
 * several, instead of its single-table options. The values are parsed in the command's {@code
 * options()}, as its other checks are, so a bad one is a usage error naming it (exit 2).
 */
final class TargetOptions {
  @Option(
      names = Target.OPTION,
      paramLabel = "TABLE=LAYOUT",
      description =
          "A table and its layout (a file or a name from conf/layouts), repeatable, instead of the"
              + " single-table options: ${COMMAND-NAME} runs on each in turn, each with its own"
              + " report dir (<out>/<table>) or staging subdir (<staging>/backfill-<table>), a"
              + " namespace's ':' written '_'; backfill reads the snapshot once for all.")
  List<String> values = new ArrayList<>();

  /**
   * How a command's messages name its single-table form.
   *
   * @param verb as in "Cannot backfill"
   * @param noun what several are called: "targets", "new tables"
   * @param shape the single form with its values: "--target-table T --target-layout L"
   * @param options the single form's options: "--target-table/--target-layout"
   */
  record Single(String verb, String noun, String shape, String options) {}

  /**
   * The targets given, each as {@code each} makes it; else the one {@code single} makes of the
   * command's single-table options. Neither form, an incomplete single form, or both forms is a
   * usage error.
   *
   * @param anySingle whether any of the single-table options is given
   * @param wholeSingle whether all of them are
   */
  <T> List<T> orSingle(
      Single form,
      boolean anySingle,
      boolean wholeSingle,
      Supplier<T> single,
      Function<Target, T> each) {
    if (values.isEmpty()) {
      if (!wholeSingle) {
        throw RekeyException.usage(
            "Cannot %s: give %s, or %s TABLE=LAYOUT (repeatable) for several %s",
            form.verb(), form.shape(), Target.OPTION, form.noun());
      }
      return List.of(single.get());
    }
    if (anySingle) {
      throw RekeyException.usage(
          "Cannot %s: give the %s either as %s TABLE=LAYOUT or as %s, not both",
          form.verb(), form.noun(), Target.OPTION, form.options());
    }
    return values.stream().map(Target::parse).map(each).toList();
  }

  /** True when --target is given: each table then gets its own report dir (even one of them). */
  boolean given() {
    return !values.isEmpty();
  }
}
