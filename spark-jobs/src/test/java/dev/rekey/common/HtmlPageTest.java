package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class HtmlPageTest {
  @Test
  void textIsEscapedAndMarkupIsNot() {
    String html =
        new HtmlPage("a <b> & \"c\"")
            .h1("x<script>", HtmlPage.span("bad", "<i>"))
            .p(HtmlPage.code("k=\"v\""))
            .render();
    assertTrue(html.contains("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"), html);
    assertTrue(html.contains("<h1>x&lt;script&gt;<span class=\"bad\">&lt;i&gt;</span></h1>"), html);
    assertTrue(html.contains("<p><code>k=&quot;v&quot;</code></p>"), html);
    assertFalse(html.contains("<script"), html);
  }

  @Test
  void aPageFetchesNothingAndRunsNothing() {
    String html = new HtmlPage("t").list(List.of("one")).render();
    assertTrue(html.startsWith("<!DOCTYPE html>") && html.endsWith("</body></html>\n"), html);
    assertFalse(html.contains("http"), "no external stylesheet, font or script: " + html);
  }

  @Test
  void numbersAreRightAlignedWithSeparatorsAndTextLeft() {
    String html =
        new HtmlPage("t")
            .add(new HtmlPage.Table("name", "rows", "share").row("alice", 1_234_567L, "+3"))
            .render();
    assertTrue(
        html.contains(
            "<tr><th class=\"l\">name</th><th>rows</th><th>share</th></tr>\n"
                + "<tr><td class=\"l\">alice</td><td>1,234,567</td><td>+3</td></tr>"),
        html);
  }

  @Test
  void aRowCarriesItsClass() {
    String html = new HtmlPage("t").add(new HtmlPage.Table("a").rowWithClass("bad", "x")).render();
    assertTrue(html.contains("<tr class=\"bad\"><td class=\"l\">x</td></tr>"), html);
  }

  @Test
  void aBarChartHasOneBarPerValueScaledToTheLargest() {
    String svg =
        SvgChart.bars("rows", List.of(10L, 5L, 0L), "#123456", i -> "r" + i, i -> "<r" + i + ">")
            .html();
    Matcher m = Pattern.compile("<rect class=\"bar\" [^>]*height=\"([0-9.]+)\"").matcher(svg);
    double[] heights = new double[3];
    int n = 0;
    while (m.find()) {
      heights[n++] = Double.parseDouble(m.group(1));
    }
    assertEquals(3, n, svg);
    assertEquals(heights[0] / 2, heights[1], 0.1, svg);
    assertEquals(0, heights[2], svg);
    assertTrue(svg.contains("<title>&lt;r0&gt;</title>"), "tooltips escaped: " + svg);
  }

  @Test
  void ticksUnderThinBarsStayApart() {
    List<Long> values = java.util.Collections.nCopies(256, 1L);
    String svg = SvgChart.bars("bytes", values, "#000", i -> "t" + i, i -> "").html();
    assertTrue(svg.contains(">t0<") && svg.contains(">t32<"), svg);
    assertFalse(svg.contains(">t1<") || svg.contains(">t16<"), "2 px bars: one tick in 32");
  }
}
