package dev.rekey.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.commons.text.StringEscapeUtils;

/**
 * One self-contained report page (scan, reconcile, analyze): the one stylesheet inline, charts as
 * inline SVG ({@link SvgChart}), no scripts and nothing fetched, so the page reads the same from a
 * mail attachment, a CI artifact or a file share. Text is always escaped here; {@link Markup} is
 * the only way to put tags into a page.
 */
public final class HtmlPage {
  /** HTML that is already safe: made only by the factories here and by {@link SvgChart}. */
  public record Markup(String html) {}

  static final String STYLE =
      "body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1340px}"
          + "h1{font-size:26px;margin:0 0 .5em}h2{font-size:19px;margin:1.4em 0 .4em}"
          + "h3{font-size:15px;margin:1.2em 0 .3em}"
          + "table{border-collapse:collapse;margin:.5em 0 1.5em}"
          + "th,td{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:right;"
          + "vertical-align:top}th{background:#f0f0f0}.l{text-align:left}"
          + "code{font-family:ui-monospace,monospace;font-size:12px}"
          + "tr.bad td{background:#fde2e2}tr.run td{color:#555}"
          + ".ok{color:#1a7f37}.bad{color:#c62828}p.bad{font-weight:bold}"
          + "svg{display:inline-block;vertical-align:top;margin:.5em 1.5em 1em 0;"
          + "font:11px system-ui,sans-serif}"
          + "svg .axis{fill:#555}svg .warn{fill:#c62828}";

  /** A cell that reads as a number: right-aligned so the digits line up. */
  private static final Pattern NUMBER =
      Pattern.compile("-|[+-]?[0-9][0-9,]*(\\.[0-9]+)?([eE][+-]?[0-9]+)?%?");

  private final StringBuilder b = new StringBuilder(16_384);

  public HtmlPage(String title) {
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(esc(title))
        .append("</title>\n<style>")
        .append(STYLE)
        .append("</style></head><body>\n");
  }

  /** Text as HTML ({@code null} as nothing). */
  public static String esc(Object text) {
    return text == null ? "" : StringEscapeUtils.escapeHtml4(text.toString());
  }

  public static Markup code(Object text) {
    return new Markup("<code>" + esc(text) + "</code>");
  }

  public static Markup bold(Object text) {
    return new Markup("<b>" + esc(text) + "</b>");
  }

  public static Markup span(String cssClass, Object text) {
    return new Markup("<span class=\"" + cssClass + "\">" + esc(text) + "</span>");
  }

  public HtmlPage h1(Object... parts) {
    return element("h1", parts);
  }

  public HtmlPage h2(Object... parts) {
    return element("h2", parts);
  }

  public HtmlPage h3(Object... parts) {
    return element("h3", parts);
  }

  public HtmlPage p(Object... parts) {
    return element("p", parts);
  }

  /** A paragraph that must stand out (a warning). */
  public HtmlPage warning(Object... parts) {
    return element("p class=\"bad\"", parts);
  }

  public HtmlPage list(List<?> items) {
    b.append("<ul>");
    items.forEach(i -> b.append("<li>").append(inline(i)).append("</li>"));
    b.append("</ul>\n");
    return this;
  }

  public HtmlPage add(Markup m) {
    b.append(m.html());
    return this;
  }

  public HtmlPage add(Table t) {
    b.append(t.html());
    return this;
  }

  public String render() {
    return b + "</body></html>\n";
  }

  private HtmlPage element(String tag, Object[] parts) {
    b.append('<').append(tag).append('>');
    for (Object p : parts) {
      b.append(inline(p));
    }
    int space = tag.indexOf(' ');
    b.append("</").append(space < 0 ? tag : tag.substring(0, space)).append(">\n");
    return this;
  }

  private static String inline(Object part) {
    return part instanceof Markup m ? m.html() : esc(part);
  }

  /**
   * A table: numbers (and text that reads as one) right-aligned, other text left; a column whose
   * cells are all text gets a left-aligned header too. Whole numbers get thousands separators.
   */
  public static final class Table {
    private final List<String> headers;
    private final List<String> rowClasses = new ArrayList<>();
    private final List<List<String>> cells = new ArrayList<>();
    private final List<List<Boolean>> left = new ArrayList<>();

    public Table(String... headers) {
      this.headers = List.of(headers);
    }

    public Table row(Object... values) {
      return rowWithClass(null, values);
    }

    /** A row with a class from the stylesheet: {@code bad} (a mismatch), {@code run} (folded). */
    public Table rowWithClass(String cssClass, Object... values) {
      List<String> html = new ArrayList<>(values.length);
      List<Boolean> l = new ArrayList<>(values.length);
      for (Object v : values) {
        html.add(cell(v));
        l.add(leftAligned(v));
      }
      rowClasses.add(cssClass);
      cells.add(html);
      left.add(l);
      return this;
    }

    public int rows() {
      return cells.size();
    }

    String html() {
      StringBuilder t = new StringBuilder("<table><tr>");
      for (int c = 0; c < headers.size(); c++) {
        t.append(textColumn(c) ? "<th class=\"l\">" : "<th>").append(esc(headers.get(c)));
        t.append("</th>");
      }
      t.append("</tr>\n");
      for (int r = 0; r < cells.size(); r++) {
        String cls = rowClasses.get(r);
        t.append(cls == null ? "<tr>" : "<tr class=\"" + cls + "\">");
        for (int c = 0; c < cells.get(r).size(); c++) {
          t.append(left.get(r).get(c) ? "<td class=\"l\">" : "<td>").append(cells.get(r).get(c));
          t.append("</td>");
        }
        t.append("</tr>\n");
      }
      return t.append("</table>\n").toString();
    }

    private boolean textColumn(int c) {
      boolean any = false;
      for (List<Boolean> l : left) {
        if (c < l.size()) {
          if (!l.get(c)) {
            return false;
          }
          any = true;
        }
      }
      return any;
    }

    private static String cell(Object v) {
      if (v instanceof Long || v instanceof Integer) {
        return String.format(Locale.ROOT, "%,d", ((Number) v).longValue());
      }
      if (v instanceof Double || v instanceof Float) {
        return String.format(Locale.ROOT, "%,.1f", ((Number) v).doubleValue());
      }
      return inline(v);
    }

    private static boolean leftAligned(Object v) {
      if (v == null || v instanceof Number) {
        return false;
      }
      return v instanceof Markup || !NUMBER.matcher(v.toString()).matches();
    }
  }
}
