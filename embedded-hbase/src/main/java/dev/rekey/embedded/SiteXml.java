package dev.rekey.embedded;

import java.util.Map;

/**
 * Hadoop-style {@code *-site.xml} text from ordered properties: what every daemon of the cluster
 * reads.
 */
final class SiteXml {
  private SiteXml() {}

  static String of(String comment, Map<String, String> props) {
    if (comment.contains("--")) {
      throw new IllegalArgumentException("an XML comment cannot hold '--': " + comment);
    }
    StringBuilder sb =
        new StringBuilder("<?xml version=\"1.0\"?>\n<!-- ")
            .append(comment)
            .append(" -->\n<configuration>\n");
    props.forEach(
        (k, v) ->
            sb.append("  <property><name>")
                .append(escape(k))
                .append("</name><value>")
                .append(escape(v))
                .append("</value></property>\n"));
    return sb.append("</configuration>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
