"""The preview server's request handler: the content types Pagefind needs, no log line per request."""

from __future__ import annotations

import http.server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".mjs": "text/javascript"}

    def log_message(self, format, *args):  # one line per request is noise while previewing
        pass
