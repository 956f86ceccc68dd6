"""JSON written into the site's pages and scripts, escaped so that no text in it can read as a
tag: inside a <script> element (script_json) or as a script file of its own (plain_script_json)."""

from __future__ import annotations

import json

from markupsafe import Markup as SafeHtml


def script_json(data) -> SafeHtml:
    """JSON to embed in a <script> element: '<', '>' and '&' escaped so it cannot close the element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return SafeHtml(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def plain_script_json(data) -> str:
    """JSON for a script file; '<' escaped, so no text can read as a tag (a tag-leak check reads these files)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")
