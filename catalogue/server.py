"""The preview server's request handler: the content types Pagefind needs, the site's own
404.html for a missing address (as GitHub Pages and Netlify serve it), no log line per request."""

from __future__ import annotations

import http.server
import os

NOT_FOUND_PAGE = "404.html"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".mjs": "text/javascript"}

    def send_error(self, code, message=None, explain=None):
        page = os.path.join(self.directory, NOT_FOUND_PAGE)
        if code != 404 or not os.path.isfile(page):
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
