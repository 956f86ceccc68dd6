"""Hosting: the Netlify configuration, the GitHub Pages workflow, and the built site served the
way GitHub Pages serves a project site (under /REPO/), crawled link by link over HTTP.
"""

from __future__ import annotations

import gzip
import http.server
import json
import mimetypes
import re
import shlex
import subprocess
import threading
import tomllib
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import pytest
import yaml

from conftest import BuiltSite, build_project, make_project
from catalogue.publish.manifest import record_folder
from catalogue.routes import bucket
from catalogue.system.cache import CACHE_DIR

PROJECT = Path(__file__).resolve().parent.parent
SUBPATH = "REPO"
PAPER_COUNT = 38
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
                           "style-src 'self'; frame-ancestors 'none'")
IMMUTABLE = "public, max-age=31536000, immutable"
# What Netlify sends when no rule sets Cache-Control (its default, as served for HTML).
NETLIFY_DEFAULT_CACHE = "public, max-age=0, must-revalidate"
# Pagefind names these by a hash of their content: pagefind.en_3c91fdadfb.pf_meta, index/en_1326905.pf_index, ...
# (in each bundle: pagefind/<shard>/...)
FINGERPRINTED = re.compile(r"^pagefind/[^/]+/(?:(?:index|fragment(?:/[0-9a-f])?|filter)/[^/]*_[0-9a-f]{7,}\.pf_\w+"
                           r"|pagefind\.[^/]*_[0-9a-f]{7,}\.pf_meta)$")


# --- fixtures ------------------------------------------------------------------------------


class PagesHandler(http.server.BaseHTTPRequestHandler):
    """GitHub Pages for a project site: the site at /REPO/; /REPO/x serves x.html when there is
    one; a folder without its slash is redirected (301) to it; a folder serves its index.html;
    anything else is the site's own 404.html with status 404. Query strings are ignored."""

    server: SiteServer

    def do_GET(self):
        self.respond(send_body=True)

    def do_HEAD(self):
        self.respond(send_body=False)

    def respond(self, send_body: bool) -> None:
        site = self.server.site
        path = unquote(urlsplit(self.path).path)
        prefix = f"/{SUBPATH}/"
        if path == prefix.rstrip("/"):
            return self.redirect(prefix)
        if not path.startswith(prefix) or "\0" in path:
            return self.not_found(send_body)
        relative = path[len(prefix):]
        target = (site / relative).resolve()
        if not target.is_relative_to(site.resolve()):
            return self.not_found(send_body)
        if relative == "" or relative.endswith("/"):
            target = target / "index.html"
        elif target.is_dir():
            return self.redirect(path + "/")
        elif not target.is_file() and target.with_name(target.name + ".html").is_file():
            target = target.with_name(target.name + ".html")
        if not target.is_file():
            return self.not_found(send_body)
        self.send_file(200, target, send_body)

    def redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def not_found(self, send_body: bool) -> None:
        self.send_file(404, self.server.site / "404.html", send_body)

    def send_file(self, status: int, path: Path, send_body: bool) -> None:
        body = path.read_bytes()
        self.send_response(status)
        self.send_header("Content-Type", content_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format, *args):
        pass


class SiteServer(http.server.ThreadingHTTPServer):
    site: Path


def content_type(path: Path) -> str:
    """Roughly GitHub Pages' types: JavaScript modules need a JavaScript type; Pagefind's
    index files have none of their own."""
    known = {".html": "text/html; charset=utf-8", ".js": "application/javascript; charset=utf-8",
             ".json": "application/json; charset=utf-8", ".css": "text/css; charset=utf-8",
             ".svg": "image/svg+xml", ".xml": "application/xml"}
    return known.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


@dataclass(frozen=True)
class ServedSite:
    built: BuiltSite
    base: str  # http://127.0.0.1:PORT/REPO/

    @property
    def out(self) -> Path:
        return self.built.out


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[ServedSite]:
    """A fresh build (with search) whose base URL is the address it is served at: the server's
    socket is bound first, so its port is known to the build."""
    server = SiteServer(("127.0.0.1", 0), PagesHandler)
    base = f"http://127.0.0.1:{server.server_address[1]}/{SUBPATH}/"
    try:
        built = build_project(make_project(tmp_path_factory.mktemp("hosted") / "project"), "--base-url", base)
        server.site = built.out
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield ServedSite(built, base)
        finally:
            server.shutdown()
            thread.join(timeout=5)
    finally:
        server.server_close()


@pytest.fixture(scope="module")
def rebuilt(served: ServedSite, tmp_path_factory) -> BuiltSite:
    """The same input built a second time (to see which files keep their name but not their bytes)."""
    return build_project(make_project(tmp_path_factory.mktemp("rebuilt") / "project"), "--base-url", served.base)


# --- Netlify -------------------------------------------------------------------------------


def netlify_config() -> dict:
    return tomllib.loads((PROJECT / "netlify.toml").read_text(encoding="utf-8"))


def netlify_rule(for_path: str) -> re.Pattern:
    """A header rule's `for` as Netlify matches it (@netlify/headers-parser, getForRegExp):
    `:name` is one segment, a lone `*` is anything (the segment optional), `*` inside a segment
    is anything, including slashes; case-insensitive; a trailing slash is optional."""
    def part(segment: str) -> str:
        if segment.startswith(":"):
            return "([^/]+)"
        if segment == "*":
            return "?(.*)"
        if "*" in segment:
            return segment.replace("*", "(.*)")  # as Netlify does: the rest is not escaped
        return re.escape(segment)
    segments = [segment.rstrip() for segment in for_path.strip().split("/") if segment.rstrip()]
    return re.compile("^/" + "/".join(part(segment) for segment in segments) + "/?$", re.IGNORECASE)


def header_rules() -> list[tuple[str, re.Pattern, dict[str, str]]]:
    return [(rule["for"], netlify_rule(rule["for"]), rule.get("values", {})) for rule in netlify_config()["headers"]]


def cache_rules(path: str) -> list[tuple[str, str]]:
    """(for, Cache-Control) of every header rule that matches `path` and sets Cache-Control."""
    return [(for_path, value) for for_path, pattern, values in header_rules() if pattern.match(path)
            for name, value in values.items() if name.lower() == "cache-control"]


def max_age(cache_control: str) -> int:
    found = re.search(r"(?:^|[,\s])max-age=(\d+)", cache_control)
    assert found, cache_control
    return int(found.group(1))


def request_paths(site: Path) -> dict[str, Path]:
    """Every address of the site on Netlify ('/papers/x/index.html' and '/papers/x/'), with its file."""
    paths = {}
    for file in sorted(site.rglob("*")):
        if file.is_file():
            relative = file.relative_to(site).as_posix()
            paths["/" + relative] = file
            if file.name == "index.html":
                paths["/" + relative[: -len("index.html")]] = file
    return paths


def test_netlify_builds_with_the_readme_command_and_publishes_site():
    build = netlify_config()["build"]
    command = shlex.split(build["command"])
    assert command[:2] == ["python3", "build.py"], build["command"]
    assert "pip" not in command, "Netlify installs requirements.txt by itself"
    assert "python3 build.py" in (PROJECT / "README.md").read_text(encoding="utf-8")
    assert build["publish"].strip("/") == "site"
    assert re.fullmatch(r"3\.\d+", build["environment"]["PYTHON_VERSION"])
    assert (PROJECT / "requirements.txt").is_file()  # what Netlify installs


def test_netlify_sends_the_security_headers_with_every_response():
    rules = {for_path: values for for_path, _, values in header_rules()}
    everything = rules["/*"]
    assert everything["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert everything["X-Content-Type-Options"] == "nosniff"
    assert everything["Referrer-Policy"] in ("no-referrer", "same-origin", "strict-origin",
                                             "strict-origin-when-cross-origin")
    assert not any(name.lower() == "cache-control" for name in everything), \
        "Cache-Control on /* would meet the rules for HTML and Pagefind on the same responses"


def test_netlify_caches_only_content_named_files_for_good(served: ServedSite, rebuilt: BuiltSite):
    """One Cache-Control rule at most for every address of the built site (so the result does
    not depend on how Netlify combines rules); a year and `immutable` exactly for the files
    named by their content; HTML always revalidated; the rest an hour at most."""
    site = served.out
    paths = request_paths(site)
    assert any(FINGERPRINTED.match(path.lstrip("/")) for path in paths), "no Pagefind chunks in the build?"
    problems = []
    for path, file in paths.items():
        rules = cache_rules(path)
        if len(rules) > 1:
            problems.append(f"{path}: Cache-Control set by {len(rules)} rules: {rules}")
            continue
        value = rules[0][1] if rules else NETLIFY_DEFAULT_CACHE
        relative = path.lstrip("/")
        if FINGERPRINTED.match(relative):
            if value != IMMUTABLE:
                problems.append(f"{path}: named by its content, but cached with {value!r}")
        elif "immutable" in value:
            problems.append(f"{path}: immutable, but its name does not change with its content")
        elif file.suffix == ".html":
            if max_age(value) != 0 or "must-revalidate" not in value:
                problems.append(f"{path}: HTML must be revalidated every time, is cached with {value!r}")
            elif path.endswith(".html") and not rules:
                problems.append(f"{path}: no rule sets its Cache-Control (expected the one for /*.html)")
        elif max_age(value) > 3600:
            problems.append(f"{path}: {value!r} is long for a file whose name never changes")
    assert problems == [], "\n".join(problems[:12] + [f"... and {len(problems) - 12} more"] * (len(problems) > 12))

    # Why `immutable` is safe: where two builds of the same input differ, the names differ too
    # (Pagefind writes the topic filter in a varying order, so two builds usually do differ:
    # pagefind-entry.json keeps its name and changes, and must not be cached for good).
    first = {path: file.read_bytes() for path, file in paths.items() if not path.endswith("/")}
    second = {path: file.read_bytes() for path, file in request_paths(rebuilt.out).items() if not path.endswith("/")}
    changed = [path for path in first.keys() & second.keys() if first[path] != second[path]]
    for path in changed:
        assert not any("immutable" in value for _, value in cache_rules(path)), \
            f"{path} kept its name but not its bytes, and is cached as immutable"


# --- GitHub Pages workflow -----------------------------------------------------------------


def workflow() -> dict:
    return yaml.safe_load((PROJECT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))


def action(step: dict) -> str:
    return step.get("uses", "").split("@")[0]


def test_pages_workflow_builds_with_the_pages_address_and_deploys_site():
    flow = workflow()
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["branches"] == ["main"] and "workflow_dispatch" in triggers
    permissions = flow.get("permissions", {})
    assert permissions.get("pages") == "write" and permissions.get("id-token") == "write"
    assert permissions.get("contents") == "read"
    assert flow["concurrency"]["group"] == "pages"

    jobs = flow["jobs"]
    steps = [step for job in jobs.values() for step in job.get("steps", [])]
    for step in steps:
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", step["uses"]), f"pin a major version: {step['uses']}"

    build = next(job for job in jobs.values() if any(action(step) == "actions/upload-pages-artifact"
                                                      for step in job.get("steps", [])))
    order = [action(step) or step.get("run", "") for step in build["steps"]]
    configure = next(step for step in build["steps"] if action(step) == "actions/configure-pages")
    install = next(step for step in build["steps"] if "pip install -r requirements.txt" in step.get("run", ""))
    run = next(step for step in build["steps"] if step.get("run", "").lstrip().startswith("python build.py"))
    upload = next(step for step in build["steps"] if action(step) == "actions/upload-pages-artifact")
    assert order.index(install["run"]) < order.index(run["run"]) < order.index("actions/upload-pages-artifact")
    assert order.index("actions/configure-pages") < order.index(run["run"])

    # --base-url comes from configure-pages' base_url, which has no trailing slash: one is added.
    assert "--base-url" in run["run"]
    output = f"steps.{configure['id']}.outputs.base_url"
    sources = [run["run"], *map(str, run.get("env", {}).values())]
    assert any(re.search(re.escape(output) + r"\s*}}/", source) for source in sources), sources
    assert upload["with"]["path"].strip("./") == "site"

    deploy = next(job for job in jobs.values() if any(action(step) == "actions/deploy-pages"
                                                       for step in job.get("steps", [])))
    needs = deploy["needs"]
    assert next(name for name, job in jobs.items() if job is build) in ([needs] if isinstance(needs, str) else needs)
    assert deploy["environment"]["name"] == "github-pages"
    deploy_step = next(step for step in deploy["steps"] if action(step) == "actions/deploy-pages")
    assert f"steps.{deploy_step['id']}.outputs.page_url" in deploy["environment"]["url"]


def test_pages_artifact_keeps_every_file_the_build_writes(served: ServedSite):
    """upload-pages-artifact v4 and later leave out dotfiles (.nojekyll, ...) unless asked."""
    upload = next(step for job in workflow()["jobs"].values() for step in job.get("steps", [])
                  if action(step) == "actions/upload-pages-artifact")
    dotfiles = [p.relative_to(served.out).as_posix() for p in served.out.rglob(".*")]
    major = int(upload["uses"].rsplit("@v", 1)[1])
    if dotfiles and major >= 4:
        assert upload.get("with", {}).get("include-hidden-files") in (True, "true"), \
            f"the build writes {dotfiles}, which {upload['uses']} would leave out"


# --- what CI keeps between runs ----------------------------------------------------------

PLUGIN_IN_NODE = """
const plugin = require(process.argv[1]);
const calls = [];
const utils = {cache: {
  restore: async (paths) => { calls.push(["restore", paths]); return false; },
  save: async (paths) => { calls.push(["save", paths]); return true; },
}};
(async () => {
  await plugin.onPreBuild({utils});
  calls.push(["build"]);
  await plugin.onPostBuild({utils});
  process.stdout.write("\\n" + JSON.stringify(calls));
})();
"""


def kept_between_runs() -> list[str]:
    """The build's records a CI run keeps for the next, as the build names them: the cache of slow
    results, the published folder and the record folder beside it."""
    publish = netlify_config()["build"]["publish"]
    return [f"content/{CACHE_DIR}", publish, record_folder(PROJECT / publish).name]


def test_the_pages_workflow_keeps_the_builds_records_between_runs():
    steps = next(job["steps"] for job in workflow()["jobs"].values()
                 if any(action(step) == "actions/upload-pages-artifact" for step in job.get("steps", [])))
    order = [action(step) or step.get("run", "") for step in steps]
    cache = next(step for step in steps if action(step) == "actions/cache")
    run = next(step for step in steps if step.get("run", "").lstrip().startswith("python build.py"))
    assert order.index("actions/cache") < order.index(run["run"])  # restored before, saved after the job
    assert cache["with"]["path"].split() == kept_between_runs()
    key, prefix = cache["with"]["key"], cache["with"]["restore-keys"]
    assert "${{ github.run_id }}" in key and key.startswith(prefix)  # a new entry each run; the newest restored


def test_netlifys_build_plugin_keeps_the_builds_records_between_builds():
    plugins = netlify_config()["plugins"]
    folder = PROJECT / plugins[0]["package"].lstrip("/")
    assert len(plugins) == 1 and yaml.safe_load((folder / "manifest.yml").read_text(encoding="utf-8"))["name"]
    done = subprocess.run(["node", "-e", PLUGIN_IN_NODE, str(folder / "index.js")], capture_output=True,
                          text=True, timeout=60, check=True)
    kept = kept_between_runs()
    assert json.loads(done.stdout.splitlines()[-1]) == [["restore", kept], ["build"], ["save", kept]]  # after its log lines


# --- the site under /REPO/, as GitHub Pages serves it --------------------------------------


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


@dataclass
class Response:
    status: int
    content_type: str
    body: bytes
    location: str | None


def fetch(url: str) -> Response:
    try:
        with OPENER.open(url, timeout=10) as response:
            return Response(response.status, response.headers.get("Content-Type", ""), response.read(), None)
    except urllib.error.HTTPError as error:
        with error:
            return Response(error.code, error.headers.get("Content-Type", ""), error.read(),
                            error.headers.get("Location"))


class Links(HTMLParser):
    """Every address a page makes the browser load or offer: href, src, srcset, form action,
    a refresh's url, the addresses it gives to link previews (og:image, ...); and
    <html data-root>, the site root the page's scripts resolve against."""

    META_ADDRESSES = frozenset({"og:image", "og:url", "og:image:url", "og:image:secure_url", "twitter:image"})

    ATTRIBUTES = frozenset({"href", "src", "action", "poster", "data"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.root: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "html":
            self.root = attributes.get("data-root")
        for name, value in attrs:
            if value is None:
                continue
            if name in self.ATTRIBUTES:
                self.links.append(value.strip())
            elif name == "srcset":
                self.links += [candidate.strip().split()[0] for candidate in value.split(",") if candidate.strip()]
        if tag == "meta" and (attributes.get("property") or attributes.get("name")) in self.META_ADDRESSES:
            self.links.append((attributes.get("content") or "").strip())
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
            found = re.search(r"url\s*=\s*['\"]?([^'\";]+)", attributes.get("content") or "", re.IGNORECASE)
            if found:
                self.links.append(found.group(1).strip())


@dataclass
class Crawl:
    base: str
    seen: dict[str, Response] = field(default_factory=dict)  # address (no query, no fragment) -> response
    referrers: dict[str, set[str]] = field(default_factory=dict)
    queue: deque = field(default_factory=deque)
    runtime: str = ""  # the Pagefind bundle whose runtime search.js runs (the others are merged into it)

    def add(self, url: str, referrer: str) -> None:
        url = urldefrag(url).url
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or parts.netloc != urlsplit(self.base).netloc:
            return  # mailto:, data:, javascript:, other hosts
        address = parts._replace(query="").geturl()
        self.referrers.setdefault(address, set()).add(referrer)
        if address not in self.seen and address not in self.queue:
            self.queue.append(address)

    def run(self) -> None:
        while self.queue:
            address = self.queue.popleft()
            response = self.seen[address] = fetch(address)
            self.follow(address, response)

    def follow(self, address: str, response: Response) -> None:
        kind = response.content_type.split(";")[0]
        if kind == "text/html":
            parser = Links()
            parser.feed(response.body.decode("utf-8"))
            for link in parser.links:
                if not link.startswith("#"):  # same document: nothing to load
                    self.add(urljoin(address, link), address)
            if parser.root is not None:
                # assets/search.js loads these, relative to data-root, on every page
                for script_path in ("pagefind/shards.json", "search-index.js"):
                    self.add(urljoin(address, (parser.root or "./") + script_path), address)
        elif kind in ("application/xml", "text/xml", "application/atom+xml", "application/rss+xml"):
            text = response.body.decode("utf-8")  # feeds and sitemaps: href="..." and <loc>...</loc>
            for link in re.findall(r'\bhref="([^"]+)"', text) + re.findall(r"<loc>\s*([^<\s]+)", text):
                self.add(urljoin(address, link.replace("&amp;", "&")), address)
        elif address.endswith("/robots.txt"):
            for link in re.findall(r"(?im)^\s*sitemap:\s*(\S+)", response.body.decode("utf-8")):
                self.add(urljoin(address, link), address)
        elif kind == "text/css":
            for link in re.findall(r"url\(\s*['\"]?([^'\")]+)", response.body.decode("utf-8")):
                self.add(urljoin(address, link), address)
        elif address.endswith("/pagefind/shards.json") and response.status == 200:
            shards = json.loads(response.body)  # search.js loads the vocabulary's pagefind.js, merges the shards
            self.runtime = urljoin(address, shards["vocabulary"]["path"])
            self.add(self.runtime + "pagefind.js", address)
            for bundle in [shards["vocabulary"], *shards["bundles"]]:
                self.add(urljoin(address, bundle["path"] + "pagefind-entry.json"), address)
        elif address.endswith("/pagefind.js") and "/pagefind/" in address:
            self.add(urljoin(address, "pagefind-worker.js"), address)
        elif address.endswith("/pagefind-entry.json") and response.status == 200:
            for language in json.loads(response.body)["languages"].values():
                self.add(urljoin(address, f"pagefind.{language['hash']}.pf_meta"), address)
                if address.startswith(self.runtime):  # a merged index never loads its WebAssembly
                    self.add(urljoin(address, f"wasm.{language.get('wasm') or 'unknown'}.pagefind"), address)
        elif address.endswith("/search-index.js") and response.status == 200:
            text = response.body.decode("utf-8")  # the offline index's manifest: its parts, from the site's root
            for part in json.loads(text[text.index("{"):].rstrip().removesuffix(";"))["parts"]:
                self.add(urljoin(address, part), address)


def test_the_local_server_behaves_like_github_pages(served: ServedSite):
    root = urlsplit(served.base)._replace(path="").geturl()
    slug = min(p.parent.name for p in (served.out / "papers").glob("*/*/index.html"))
    not_found = (served.out / "404.html").read_bytes()

    assert fetch(root + f"/{SUBPATH}").location == f"/{SUBPATH}/"
    response = fetch(served.base + f"papers/{bucket(slug)}/{slug}")
    assert (response.status, response.location) == (301, f"/{SUBPATH}/papers/{bucket(slug)}/{slug}/")
    assert fetch(served.base + f"papers/{bucket(slug)}/{slug}/").body == (served.out / "papers" / bucket(slug) / slug / "index.html").read_bytes()
    assert fetch(served.base).body == (served.out / "index.html").read_bytes()
    assert fetch(served.base + "search").body == (served.out / "search.html").read_bytes()
    for missing in ("nope", "papers/nope/", "papers/nope/deeper/x.html", "../etc/passwd"):
        response = fetch(served.base + missing)
        assert (response.status, response.body) == (404, not_found), missing
    assert fetch(root + "/index.html").status == 404  # outside the project's path


def test_every_link_and_asset_resolves_under_the_project_path(served: ServedSite):
    """Crawl from /REPO/index.html over HTTP, following every link, asset and script entry point,
    and from a missing address deep in the site (answered by 404.html): nothing may fail."""
    site, base = served.out, served.base
    search_script = (site / "assets" / "search.js").read_text(encoding="utf-8")
    assert '"pagefind/shards.json"' in search_script and '"search-index.js"' in search_script, \
        "assets/search.js no longer loads these two: update Crawl.follow"

    crawl = Crawl(base)
    crawl.add(base + "index.html", "(start)")
    if (site / "robots.txt").is_file():
        crawl.add(base + "robots.txt", "(start)")  # for its Sitemap: line
    crawl.run()

    missing = base + "papers/does-not-exist/deeper/x.html"
    response = fetch(missing)
    assert response.status == 404 and response.body == (site / "404.html").read_bytes()
    crawl.follow(missing, response)  # its links, resolved against the missing address as a browser would
    crawl.run()

    broken = [f"{response.status} {address}  (from {', '.join(sorted(crawl.referrers[address])[:3])})"
              for address, response in sorted(crawl.seen.items()) if response.status != 200]
    assert broken == [], "broken under /REPO/:\n" + "\n".join(broken)

    # What the crawl reached, as files of the site
    reached = set()
    for address in crawl.seen:
        path = urlsplit(address).path[len(f"/{SUBPATH}/"):]
        reached.add(path + "index.html" if path == "" or path.endswith("/") else path)
    papers = {p for p in reached if re.fullmatch(r"papers/[0-9a-f]{2}/[^/]+/index\.html", p)}
    assert len(papers) == PAPER_COUNT, sorted(papers)
    on_disk = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    pages = {p for p in on_disk if p.endswith(".html")} - {"404.html"}
    assert pages - reached == set(), f"pages no link leads to: {sorted(pages - reached)}"
    assert {p for p in on_disk if p.startswith("topics/")} <= reached
    assert {"search.html", "search-index.js", "pagefind/shards.json", "pagefind/vocabulary/pagefind.js",
            "pagefind/vocabulary/pagefind-entry.json", "pagefind/part-1/pagefind-entry.json"} <= reached
    assert any(p.endswith(".pf_meta") for p in reached) and "pagefind/vocabulary/wasm.en.pagefind" in reached
    assert "search-index/1.js" in reached
    assets = {p for p in on_disk if p.startswith("assets/")}
    if "authors/index.html" not in on_disk:  # lists without authors: no authors index, whose filter's script is unused
        assets -= {"assets/authors.js"}
    assert assets - reached == set(), f"assets nothing refers to: {sorted(assets - reached)}"

    # The rest of Pagefind's bundle (its chunks are named inside the compressed metadata): served as files
    for path in sorted(p for p in on_disk if p.startswith("pagefind/") and p not in reached):
        response = fetch(base + path)
        assert response.status == 200 and response.body == (site / path).read_bytes(), path
        if path.endswith((".pf_index", ".pf_fragment", ".pf_filter", ".pf_meta", ".pagefind")):
            assert response.body[:2] == b"\x1f\x8b" and gzip.decompress(response.body), path
