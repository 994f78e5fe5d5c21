"""Makes an exported notebook page self-contained: drops the <script src=...> tags nbconvert links to (Debian's
nbconvert points them at file:///usr/share/javascript, which exists on no reader's machine). The pages hold only
static outputs (images embedded as data: URIs, tables, markdown), so nothing needs those scripts."""
import re
import sys

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        html = f.read()
    html = re.sub(r'<script[^>]*\bsrc="[^"]*"[^>]*>\s*</script>', "", html)
    if re.search(r'<(script|link)[^>]*\b(src|href)="(file:|https?:)', html):
        sys.exit(f"Cannot make {path} self-contained: it still loads an outside file")
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
