"""Checks a built site: its links work everywhere, its HTML is valid, every page has a title
and a description, and the search index covers every paper. Reads the site, never writes it.

Problems are strings `path: message` (or `path:line: message`), path relative to the site.
"""

from __future__ import annotations

import gzip
import json
import os
import posixpath
import shutil
import subprocess
import zlib
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from catalogue.site.authors import author_key, shown_names
from catalogue.site.cite import venue_year_label
from catalogue.errors import shown
from catalogue import routes
from catalogue.site.authors import author_path
from catalogue.search.bundles import FRAGMENT_SIGNATURE, fragment_files
from catalogue.search.index import BUNDLE_DIR, SHARDS_FILE
from catalogue.site import hosts

PROJECT = Path(__file__).resolve().parents[2]
VNU_JAR_VARIABLE = "VNU_JAR"
VNU_JAR = PROJECT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"  # from `npm install`
# One run over a site is short: Java's quick compiler alone finishes it with a fraction of the CPU
# that the optimising one spends; its frames are larger, so the checker's deep recursion over
# the HTML schema gets a larger stack than Java's default.
JAVA_OPTIONS = ("-XX:TieredStopAtLevel=1", "-Xss16m")
EXTERNAL_SCHEMES = ("http", "https", "mailto")
PAPERS_JSON = "papers.json"
REDIRECTS = "_redirects"
# Problems with the checker's own tools, not with a file of the site: named as they are, not under the site folder.
TOOL_PROBLEMS = ("java: ", "vnu.jar: ")


def check_site(site_dir: Path, *, validate_html: bool = True, index_command: str = "python3 build.py index",
               limits: hosts.Limits | None = None, tell: Callable[[str], None] | None = None) -> list[str]:
    """Every problem found in the built site at site_dir, sorted; an empty list means it is fine.
    `index_command`: the command that indexes this site, for a site built without search;
    `limits`: the hosts' (hosts.LIMITS unless given); `tell` receives the site's size, file count,
    fullest folder and largest file against them."""
    site = site_dir.resolve()
    if not (site / "index.html").is_file():
        return [f"index.html: missing; is {site_dir} a built site?"]
    files, problems = hosts.report_hosts(site, limits or hosts.LIMITS, tell)
    pages = sorted(f for f in files if f.endswith(".html") and not f.startswith(f"{BUNDLE_DIR}/"))
    parsed = {}
    for page in pages:
        parser = parse_page((site / page).read_text(encoding="utf-8", errors="replace"))
        problems += page_problems(page, parser, files)
        if page.startswith(routes.LIST_FOLDERS):
            parsed[page] = parser
    problems += check_collections(site, parsed)
    problems += check_redirects(site)
    problems += check_search_index(site, pages, index_command)
    if validate_html:
        problems += check_html(site)
    return sorted(problems)


class PageParser(HTMLParser):
    """The links, title and description of one page; of each <section id> (an author's), its h2 and links."""

    def __init__(self):
        super().__init__()
        self.references: list[str] = []
        self.title = self.description = self.heading = ""
        self.in_title = self.in_heading = self.in_section_heading = False
        self.section: str | None = None
        self.section_headings: dict[str, str] = {}
        self.section_references: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        found = [attrs[name] for name in ("href", "src", "action") if attrs.get(name)]
        found += [candidate.split()[0] for candidate in attrs.get("srcset", "").split(",") if candidate.strip()]
        self.references += found
        if self.section is not None:
            self.section_references[self.section] += found
        if tag == "meta" and attrs.get("name", "").lower() == "description":
            self.description = attrs.get("content", "")
        if tag == "title":
            self.in_title = True
        if tag == "h1" and not self.heading:
            self.in_heading = True
        if tag == "section" and attrs.get("id"):
            self.section = attrs["id"]
            self.section_headings[self.section], self.section_references[self.section] = "", []
        if tag == "h2" and self.section is not None and not self.section_headings[self.section]:
            self.in_section_heading = True

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if tag == "h1":
            self.in_heading = False
        if tag == "h2":
            self.in_section_heading = False
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.in_heading:
            self.heading += data
        if self.in_section_heading:
            self.section_headings[self.section] += data


def parse_page(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    parser.close()
    return parser


def page_problems(page: str, parser: PageParser, files: set[str]) -> list[str]:
    """The problems of one page (path from the site root) among the site's files."""
    problems = [f"{page}: no <title>"] if not parser.title.strip() else []
    problems += [f"{page}: no <meta name=\"description\">"] if not parser.description.strip() else []
    # Hosts serve the root 404.html at any depth, so its links start from the site's base path.
    base = base_path(parser.references) if page == "404.html" else None
    for reference in parser.references:
        if problem := check_reference(page, reference, files, base):
            problems.append(f"{page}: {problem}")
    return problems


def base_path(references: list[str]) -> str:
    """The site's path on its host that a root-absolute page uses: what precedes its assets/ ('/REPO/')."""
    for reference in references:
        path = urlsplit(reference).path
        if path.startswith("/") and "/assets/" in path:
            return path[:path.rindex("/assets/") + 1]
    return "/"


def check_reference(page: str, reference: str, files: set[str], base: str | None = None) -> str | None:
    """Why a link from page fails from disk or under a subpath; None if it works everywhere.

    Relative links must name a file of the site; with a base ('/REPO/', for 404.html) links
    must instead be root-absolute under that base.
    """
    parts = urlsplit(reference)
    if parts.scheme in EXTERNAL_SCHEMES:
        return None
    if parts.scheme:  # javascript:, data:, file:, ...
        return f"{shown(reference)} uses the {parts.scheme}: scheme; only http(s) and mailto links may leave the site"
    if parts.netloc:
        return f"{shown(reference)} is protocol-relative; it fails from disk"
    path = unquote(parts.path)
    if not path:  # '#fragment' or '?query': this page
        return None
    if base is None and path.startswith("/"):
        return f"{shown(reference)} is root-absolute; it breaks from disk and under a subpath"
    if base is not None and not path.startswith(base):
        return f"{shown(reference)} does not start with the site's base path {shown(base)}; hosts serve this page at any depth"
    target = posixpath.normpath(path[len(base):] if base is not None else posixpath.join(posixpath.dirname(page), path))
    if target == ".." or target.startswith("../"):
        return f"{shown(reference)} points outside the site"
    if path.endswith("/"):
        return f"{shown(reference)} names a folder; link to its index.html so it works from disk"
    if target not in files:
        return f"{shown(reference)} is broken: there is no file {target}"
    return None


def check_collections(site: Path, parsed: dict[str, PageParser]) -> list[str]:
    """Each venue's, topic's and author's page (by papers.json; an author's is a section of a page,
    page#slug) is theirs alone and lists all their papers: two labels at one address would leave
    one of them without a page."""
    try:
        records, topic_labels = read_records(site)
        groups: dict[str, dict[str, list[str]]] = {}  # page -> label -> paper pages
        names = shown_names(tuple(record["authors"]) for record in records)
        venues = routes.venue_slugs(venue_year_label(record["venue"], record["year"]) for record in records)
        for record in records:
            page = routes.PaperAddresses(record["slug"]).page
            for author in dict.fromkeys(record["authors"]):
                groups.setdefault(author_path(author), {}).setdefault(names[author_key(author)], []).append(page)
            venue = venue_year_label(record["venue"], record["year"])
            groups.setdefault(routes.venue_page(venues[venue]), {}).setdefault(venue, []).append(page)
            for topic in record["topics"]:
                groups.setdefault(routes.topic_page(topic), {}).setdefault(topic_labels[topic], []).append(page)
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"{PAPERS_JSON}: missing or unreadable ({error})"]
    problems = []
    for page, labels in sorted(groups.items()):
        file, _, section = page.partition("#")
        if len(labels) > 1:
            problems.append(f"{page}: the address of {len(labels)} labels in {PAPERS_JSON}: "
                            f"{', '.join(map(shown, sorted(labels)))}; only one can have the page")
        if file not in parsed or (section and section not in parsed[file].section_headings):
            problems.append(f"{page}: missing; the page of {shown(next(iter(labels)))} in {PAPERS_JSON}")
            continue
        heading = " ".join((parsed[file].section_headings[section] if section else parsed[file].heading).split())
        views = {page: linked(file, parsed[file].section_references[section])} if section else views_of(page, parsed)
        for label, members in sorted(labels.items()):
            if heading != label:
                problems.append(f"{page}: is headed {shown(heading)}, not {shown(label)} as {PAPERS_JSON} says")
            for first, links in views.items():
                missing = [member for member in members if member not in links]
                if missing:
                    problems.append(f"{first}: does not list {len(missing)} of the {len(members)} papers of "
                                    f"{shown(label)} (first: {missing[0]}), over all its pages")
    return problems


def read_records(site: Path) -> tuple[list[dict], dict[str, str]]:
    """Every paper's record (from the parts papers.json names, in its order), and topic labels by slug."""
    index = json.loads((site / PAPERS_JSON).read_text(encoding="utf-8"))
    records = [record for part in index["parts"]
               for record in json.loads((site / part["url"]).read_text(encoding="utf-8"))["papers"]]
    return records, {topic["slug"]: topic["label"] for topic in index["topics"]}


def views_of(page: str, parsed: dict[str, PageParser]) -> dict[str, set[str]]:
    """A list by its first page (topics/x/index.html) with the pages linked from all its pages
    (page/2/index.html, ...); its compact view is the same pages."""
    folder = routes.list_folder(page)
    pages = [routes.list_page(folder, 1)]
    while (following := routes.list_page(folder, len(pages) + 1)) in parsed:
        pages.append(following)
    if pages[0] not in parsed:
        return {}
    return {pages[0]: {posixpath.normpath(posixpath.join(posixpath.dirname(path), unquote(urlsplit(reference).path)))
                       for path in pages for reference in parsed[path].references}}


def linked(page: str, references: list[str]) -> set[str]:
    """The files these links of a page name, from the site's root."""
    return {posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(urlsplit(reference).path)))
            for reference in references}


def check_redirects(site: Path) -> list[str]:
    """Netlify's _redirects: 'from to status' lines from old paper addresses, none to itself or to
    another redirect (a loop, or a chain a browser follows twice)."""
    try:
        text = (site / REDIRECTS).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []  # a site for another host
    rules = []
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 3 or not fields[0].startswith("/" + routes.PAPERS_FOLDER) or not fields[1].startswith("/" + routes.PAPERS_FOLDER):
            problems.append(f"{REDIRECTS}:{number}: {shown(line)} is not an old paper address, its paper's "
                            "address and a status")
            continue
        rules.append((number, fields[0].removesuffix("*").rstrip("/"), fields[1].rstrip("/")))
    sources = {source for _, source, _ in rules}
    for number, source, target in rules:
        if source == target:
            problems.append(f"{REDIRECTS}:{number}: {source}/ redirects to itself (a loop)")
        elif target in sources:
            problems.append(f"{REDIRECTS}:{number}: {source}/ redirects to {target}/, which redirects again")
    return problems


def check_search_index(site: Path, pages: list[str], index_command: str) -> list[str]:
    """Pagefind's fragments (one per indexed page, in the shards' bundles that shards.json names)
    must name exactly the paper pages, each once; the vocabulary bundle must be there."""
    bundle = site / BUNDLE_DIR
    if not bundle.is_dir():
        return [f"{BUNDLE_DIR}/: missing; the site was built without search (--no-search, or by render alone): "
                f"run '{index_command}'"]
    try:
        shards = json.loads((bundle / SHARDS_FILE).read_text(encoding="utf-8"))
        folders = [shards["vocabulary"]["path"], *(entry["path"] for entry in shards["bundles"])]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"{BUNDLE_DIR}/{SHARDS_FILE}: missing or unreadable ({error})"]
    problems, indexed = [], {}
    missing = [folder for folder in folders if not (bundle / folder / "pagefind-entry.json").is_file()]
    problems += [f"{BUNDLE_DIR}/{folder}: named in {SHARDS_FILE}, but not a Pagefind bundle" for folder in missing]
    for fragment in [f for folder in folders[1:] for f in fragment_files(bundle / folder)]:
        name = fragment.relative_to(site).as_posix()
        try:
            url = json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(FRAGMENT_SIGNATURE))["url"]
        except (OSError, EOFError, zlib.error, ValueError, KeyError, TypeError) as error:
            problems.append(f"{name}: unreadable Pagefind fragment ({error})")
            continue
        path = unquote(urlsplit(url).path).lstrip("/")  # Pagefind records '/papers/x/'
        path = path + "index.html" if path.endswith("/") or not path else path
        if path in indexed:
            problems.append(f"{name}: indexes {path} again (also in {indexed[path]})")
        indexed[path] = name
    papers = {page for page in pages if routes.slug_of_paper_page(page) and not is_redirect(site / page)}
    problems += [f"{page}: missing from the search index" for page in papers - indexed.keys()]
    problems += [f"{indexed[path]}: indexes {path}, which is not a paper page" for path in indexed.keys() - papers]
    return problems


def is_redirect(page: Path) -> bool:
    """An old paper address (a renamed slug) holds a redirect page, which is not indexed."""
    return 'http-equiv="refresh"' in page.read_text(encoding="utf-8", errors="replace")


def check_html(site: Path) -> list[str]:
    """The Nu Html Checker's errors, run once over every page outside the search bundle."""
    site = site.resolve()  # vnu reports absolute file: URLs
    java, jar = shutil.which("java"), Path(os.environ.get(VNU_JAR_VARIABLE) or VNU_JAR)
    if java is None:
        return ["java: not found; the HTML check needs Java 17+ (Debian: apt-get install default-jre-headless)"]
    if not jar.is_file():
        return [f"vnu.jar: not found at {jar}; run 'npm install' in {PROJECT} (or set ${VNU_JAR_VARIABLE})"]
    # vnu walks folders itself; --skip-non-html keeps it to pages, and the search bundle is left out.
    targets = sorted(str(path) for path in site.iterdir() if path.name != BUNDLE_DIR)
    command = [java, *JAVA_OPTIONS, "-jar", str(jar), "--format", "json", "--skip-non-html", "--stdout", *targets]
    result = subprocess.run(command, capture_output=True, encoding="utf-8", errors="replace")
    try:
        messages = json.loads(result.stdout)["messages"]
    except (ValueError, KeyError, TypeError):
        return [f"vnu.jar: failed (exit {result.returncode}): {(result.stderr or result.stdout).strip()[-500:]}"]
    # Only errors fail the check: "info" messages, warnings among them, are advice (vnu's own
    # exit status ignores them too); "non-document-error" means a page could not be read.
    return [f"{vnu_location(message, site)}: {message['message']}"
            for message in messages if message["type"] in ("error", "non-document-error")]


def vnu_location(message: dict, site: Path) -> str:
    """Where a vnu message points, as 'path:line' from the site root (vnu gives a file: URL)."""
    url = message.get("url", "vnu.jar")
    path = Path(unquote(urlsplit(url).path))
    where = path.relative_to(site).as_posix() if path.is_relative_to(site) else url
    return f"{where}:{message['lastLine']}" if "lastLine" in message else where
