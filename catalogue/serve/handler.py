"""The preview server's request handler: the content types Pagefind needs, the site's own
404.html for a missing address (as GitHub Pages and Netlify serve it), no log line per request."""

from __future__ import annotations

import http.server
import os

NOT_FOUND_PAGE = "404.html"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".mjs": "text/javascript"}

    def not_found_page(self) -> str | None:
        """The page served, with status 404, for a missing address (None: Python's own error page)."""
        page = os.path.join(self.directory, NOT_FOUND_PAGE)
        return page if os.path.isfile(page) else None

    def send_error(self, code, message=None, explain=None):
        page = self.not_found_page() if code == 404 else None
        if page is None:
            return super().send_error(code, message, explain)
        with open(page, "rb") as file:
            body = file.read()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args):  # one line per request is noise while previewing
        pass
