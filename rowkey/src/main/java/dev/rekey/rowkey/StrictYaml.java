package dev.rekey.rowkey;

import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Reads the layout YAML subset (docs/layouts.md) exactly as the Python reference does: block
 * mappings and lists, quoted or plain strings, decimal integers and {@code true}/{@code false}, and
 * nothing else.
 *
 * <p>Why not SnakeYAML's loader: it implements YAML 1.1, which reads {@code 016} as 14 (octal),
 * {@code 1:0} as 60 (base 60), {@code no} as false, and expands anchors; a layout file would then
 * mean one thing to Java and another to a Python writer. SnakeYAML is used only to tokenise; every
 * scalar is resolved here by the subset's rules.
 */
final class StrictYaml {
  /**
   * Plain scalars YAML 1.1 or 1.2 would read as something other than a string, a decimal int or a
   * bool.
   */
  private static final Pattern REJECT_PLAIN =
      Pattern.compile(
          "^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|~|null|Null|NULL|True|TRUE|False|FALSE"
              + "|[-+]?(?:0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+|[0-9][0-9_]*(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9]+"
              + "|\\.inf|\\.Inf|\\.nan|\\.NaN)"
              + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+)$");

  private static final Pattern DECIMAL = Pattern.compile("-?(?:0|[1-9][0-9]*)");
  private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
  private static final String SCALAR_HINT =
      " in the layout subset (quote strings; use decimal integers and true/false)";

  private final String source;
  private final Iterator<Event> events;

  private StrictYaml(String source, Iterator<Event> events) {
    this.source = source;
    this.events = events;
  }

  /**
   * Parses {@code text} into maps, lists, strings, integers and booleans; {@code source} names it
   * in errors.
   */
  static Object load(String text, String source) {
    LoaderOptions opts = new LoaderOptions();
    Iterator<Event> it = new Yaml(opts).parse(new StringReader(text)).iterator();
    try {
      return new StrictYaml(source, it).document();
    } catch (LayoutException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new LayoutException(
          String.format("Cannot read layout %s: not valid YAML: %s", source, e.getMessage()), e);
    }
  }

  private Object document() {
    next(); // stream start
    Event e = next();
    if (e.is(Event.ID.StreamEnd)) {
      throw new LayoutException("Cannot read layout " + source + ": empty");
    }
    Object root = node(next());
    next(); // document end
    Event end = next();
    if (!end.is(Event.ID.StreamEnd)) {
      throw fail(end, "unexpected content (one document only)");
    }
    return root;
  }

  private Event next() {
    return events.next();
  }

  private LayoutException fail(Event e, String problem) {
    return new LayoutException(
        String.format(
            "Cannot read layout %s: line %s: %s",
            source, (e.getStartMark().getLine() + 1), problem));
  }

  private Object node(Event e) {
    if (e instanceof AliasEvent) {
      throw fail(e, "unsupported YAML alias '*" + ((AliasEvent) e).getAnchor() + "'" + SCALAR_HINT);
    }
    if (e instanceof NodeEvent && ((NodeEvent) e).getAnchor() != null) {
      throw fail(e, "unsupported YAML anchor '&" + ((NodeEvent) e).getAnchor() + "'" + SCALAR_HINT);
    }
    if (e instanceof CollectionStartEvent) {
      CollectionStartEvent c = (CollectionStartEvent) e;
      if (c.getTag() != null) {
        throw fail(e, "unsupported YAML tag '" + c.getTag() + "'" + SCALAR_HINT);
      }
      if (c.isFlow()) {
        throw fail(
            e,
            "unsupported YAML flow collection ('[...]' or '{...}'); use block mappings and lists");
      }
      return e instanceof MappingStartEvent ? mapping() : sequence();
    }
    if (e instanceof ScalarEvent) {
      return scalar((ScalarEvent) e);
    }
    throw fail(e, "unexpected " + e.getEventId());
  }

  private Map<String, Object> mapping() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Event e = next(); !e.is(Event.ID.MappingEnd); e = next()) {
      if (!(e instanceof ScalarEvent)) {
        throw fail(e, "expected 'key: value' with a plain or quoted key");
      }
      ScalarEvent k = (ScalarEvent) e;
      if (k.isPlain() && !PLAIN_KEY.matcher(k.getValue()).matches()) {
        throw fail(e, "expected 'key: value', got key '" + k.getValue() + "'");
      }
      if (out.containsKey(k.getValue())) {
        throw fail(e, "duplicate key '" + k.getValue() + "'");
      }
      out.put(k.getValue(), node(next()));
    }
    return out;
  }

  private List<Object> sequence() {
    List<Object> out = new ArrayList<>();
    for (Event e = next(); !e.is(Event.ID.SequenceEnd); e = next()) {
      out.add(node(e));
    }
    return out;
  }

  private Object scalar(ScalarEvent e) {
    String t = e.getValue();
    if (e.getTag() != null) {
      throw fail(e, "unsupported YAML tag '" + e.getTag() + "'" + SCALAR_HINT);
    }
    if (e.getScalarStyle() == DumperOptions.ScalarStyle.SINGLE_QUOTED
        || e.getScalarStyle() == DumperOptions.ScalarStyle.DOUBLE_QUOTED) {
      return t;
    }
    if (!e.isPlain()) {
      throw fail(e, "unsupported YAML block scalar ('|' or '>')" + SCALAR_HINT);
    }
    if (t.isEmpty()) {
      return null;
    }
    if (t.equals("true") || t.equals("false")) {
      return Boolean.valueOf(t);
    }
    if (DECIMAL.matcher(t).matches()) {
      BigInteger v = new BigInteger(t);
      return v.bitLength() < 32
          ? (Object) v.intValue()
          : v.bitLength() < 64 ? (Object) v.longValue() : v;
    }
    if ("[]{}&*!|>%@`#,?".indexOf(t.charAt(0)) >= 0
        || REJECT_PLAIN.matcher(t).matches()
        || t.contains(": ")
        || t.contains(" #")) {
      throw fail(e, "unsupported YAML scalar '" + t + "'" + SCALAR_HINT);
    }
    return t;
  }
}
