package dev.rekey.common;

import static dev.rekey.common.HtmlPage.esc;

import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The reports' charts, as inline SVG: {@link #bars} draws the common one (a bar per value, scaled
 * to the largest); {@link #rect}, {@link #text} and {@link #line} draw a chart of its own (the
 * reconcile chart). A {@code title} is the tooltip a browser shows over the shape.
 */
public final class SvgChart {
  /** The widest a bar chart's plot grows, in px, before its bars get thinner. */
  static final int PLOT_WIDTH = 760;

  private final StringBuilder s = new StringBuilder();

  public SvgChart(int width, int height, String label) {
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\""
                + " aria-label=\"%s\">%n",
            width,
            height,
            esc(label)));
  }

  /** A rectangle; {@code cssClass} and {@code title} may be null. */
  public SvgChart rect(
      String cssClass, double x, double y, double w, double h, String fill, String title) {
    s.append("<rect");
    if (cssClass != null) {
      s.append(" class=\"").append(cssClass).append('"');
    }
    s.append(
        String.format(
            Locale.ROOT,
            " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
            x,
            y,
            w,
            h,
            fill));
    s.append(title == null ? "/>\n" : "><title>" + esc(title) + "</title></rect>\n");
    return this;
  }

  /**
   * A label; {@code anchor} is start, middle or end; {@code cssClass} axis (grey) or warn (red).
   */
  public SvgChart text(double x, double y, String anchor, String cssClass, String text) {
    s.append(
        String.format(
            Locale.ROOT,
            "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n",
            cssClass,
            x,
            y,
            anchor,
            esc(text)));
    return this;
  }

  public SvgChart line(double x1, double y1, double x2, double y2) {
    s.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>%n",
            x1,
            y1,
            x2,
            y2));
    return this;
  }

  public HtmlPage.Markup markup() {
    return new HtmlPage.Markup(s + "</svg>\n");
  }

  /**
   * A bar chart: one bar per value, scaled to the largest, its maximum and 0 on the axis, a tick
   * label under each bar (under every 2nd, 4th, ... when bars are thinner than 40 px) and the
   * caption below. Bars are {@code <rect class="bar">}, each with a tooltip.
   *
   * @param tick the label under bar i
   * @param tooltip the tooltip over bar i
   */
  public static HtmlPage.Markup bars(
      String caption,
      List<Long> values,
      String color,
      IntFunction<String> tick,
      IntFunction<String> tooltip) {
    int n = values.size();
    long max = Math.max(1, values.stream().mapToLong(Long::longValue).max().orElse(1));
    int left = 8 + 7 * String.format(Locale.ROOT, "%,d", max).length();
    int slot = Math.max(2, Math.min(40, PLOT_WIDTH / Math.max(1, n)));
    int plotHeight = 160;
    int top = 8;
    int axis = top + plotHeight;
    int width = Math.max(260, left + n * slot + 10);
    SvgChart c = new SvgChart(width, axis + 36, caption);
    c.text(left - 4, top + 8, "end", "axis", String.format(Locale.ROOT, "%,d", max));
    c.text(left - 4, axis, "end", "axis", "0");
    double bar = slot > 4 ? slot * 0.8 : slot;
    int every = 1; // a tick under every 1st, 2nd, 4th, ... bar: at least 40 px apart
    while (every * slot < 40) {
      every *= 2;
    }
    for (int i = 0; i < n; i++) {
      long v = values.get(i);
      double h = v <= 0 ? 0 : Math.max(1, (double) v / max * plotHeight);
      double x = left + i * slot;
      c.rect("bar", x, axis - h, bar, h, color, tooltip.apply(i));
      if (i % every == 0) {
        c.text(x + bar / 2, axis + 13, "middle", "axis", tick.apply(i));
      }
    }
    c.line(left, axis + 0.5, left + n * slot, axis + 0.5);
    c.text(left, axis + 30, "start", "axis", caption);
    return c.markup();
  }
}
