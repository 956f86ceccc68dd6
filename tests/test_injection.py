"""Nothing in an abstract or a content file runs in a reader's browser (real Chromium)."""

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from catalogue.routes import paper_page
from conftest import build_project, make_project

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<svg onload=alert(3)>",
    "<svg><script>alert(4)</script></svg>",
    '<iframe src="javascript:alert(5)"></iframe>',
    '<a href="javascript:alert(6)">click</a>',
    "[click](javascript:alert(7))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCg4KTwvc2NyaXB0Pg==)",
    "![image](javascript:alert(9))",
    "<javascript:alert(10)>",
    "javascript:alert(11)",
    "data:text/html,<script>alert(12)</script>",
    '"><script>alert(13)</script>',
    "'><img src=x onerror=alert(14)>",
    '" onmouseover="alert(15)',
    "</title><script>alert(16)</script>",
    "</textarea><script>alert(17)</script>",
    "{{ 7*7 }} {{ config }}",
    "{% for x in range(3) %}loop{% endfor %}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "<body onload=alert(21)>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(22)>",
    "$\\href{javascript:alert(23)}{click}$",
    "$<script>alert(24)</script>$",
    "$$\\href{javascript:alert(25)}{x}$$",
    "\\(\\href{data:text/html,x}{y}\\)",
    "\\url{javascript:alert(27)}",
    'https://example.org/"onmouseover="alert(28)',
    "https://example.org/<script>alert(29)</script>",
    "http://x.org/?q=<svg/onload=alert(30)>",
    "<details open ontoggle=alert(31)>",
    '<object data="javascript:alert(32)">',
    '<embed src="javascript:alert(33)">',
    '<base href="javascript:alert(34)//">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(35)">',
    "&lt;script&gt;alert(36)&lt;/script&gt;",
    "&#60;script&#62;alert(37)&#60;/script&#62;",
    "<!--<script>alert(38)</script>-->",
    '<style>body{background:url("javascript:alert(39)")}</style>',
    "**<script>alert(40)</script>**",
    "*<img src=x onerror=alert(41)>*",
    "\\emph{<img src=x onerror=alert(42)>}",
]

# Our own scripts, and only these, may appear on a page.
OWN_SCRIPTS = ("assets/filter.js", "assets/map.js", "assets/search.js", "assets/cite.js", "assets/reader.js", "assets/common.js",
               "list-data.js", "assets/parts.js", "assets/listview.js", "map/map-data.js", "script head json-ld", "site-data.js",
               "search-index.js", "assets/forward.js", "script site-forwards", "assets/venue.js", "assets/authors.js")  # search.js adds it when the search page's box gets focus, from disk
OFFLINE_PART = re.compile(r"script (?:\.\./)*search-index/[0-9]+\.js")  # and the offline index's parts it names

FIND_INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (attr.name.toLowerCase().startsWith('on')) found.push(el.tagName + ' ' + attr.name);
      if (['href', 'src', 'action', 'data', 'formaction', 'xlink:href'].includes(attr.name.toLowerCase())
          && /^\\s*(javascript|data|vbscript):/i.test(attr.value)) found.push(el.tagName + ' ' + attr.value);
    }
  }
  // the map's and charts' own SVG, and the map's list of its groups (their swatches, their details)
  const ours = (el) => el.closest('svg.chart, section.chart, .map-groups');
  for (const el of document.querySelectorAll(
      'iframe, object, embed, img, svg, base, style, details:not(.citations):not(.venue-links), textarea, meta[http-equiv],'
      + ' body *  title'))
    if (!(ours(el) && ['svg', 'title', 'details'].includes(el.tagName.toLowerCase()))) found.push('element ' + el.tagName);
  for (const script of document.scripts) {
    const data = script.type === 'application/ld+json' && script.parentNode === document.head;
    const own = script.type === 'application/json' && script.id === 'site-forwards';
    found.push('script ' + (script.getAttribute('src') || (data ? 'head json-ld' : own ? script.id : 'inline')));
  }
  return found;
}"""


@pytest.fixture(scope="module")
def payload_site(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("payloads"))
    for seed in (project / "seeds").iterdir():  # payloads only: every page then shows some
        seed.unlink()
    abstracts = [f"We propose Payload{n:02d}Net, a method. {payload} It works well on benchmarks."
                 for n, payload in enumerate(PAYLOADS)]
    (project / "seeds" / "002_payloads.txt").write_text("ICML 2026\n\n" + "\n\n".join(abstracts) + "\n", "utf-8")
    built = build_project(project, "--no-search")
    # A person's hand edit with markup in the title and authors goes through the same escaping.
    edited = built.content / "papers" / "payload00net.md"
    text = edited.read_text(encoding="utf-8").replace(
        "title: 'Payload00Net: A Method'", "title: '<script>alert(99)</script>'\nauthors: ['<img src=x onerror=alert(98)>']")
    assert text != edited.read_text(encoding="utf-8")
    edited.write_text(text, encoding="utf-8")
    return build_project(project, "--no-search")


FORWARD = '<meta http-equiv="refresh"'


def all_pages(site: Path) -> list[Path]:
    """The pages a reader stays on; the forwarding pages of earlier list addresses leave at once, so
    the browser never lingers to be asked (their markup is checked by parsing below)."""
    return sorted(p for p in site.rglob("*.html") if FORWARD not in p.read_text(encoding="utf-8"))


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)


def test_a_forwarding_page_holds_only_its_own_elements(payload_site):
    """A payload in a list's title reaches the forwarding pages of its earlier addresses as text."""
    forwards = [p for p in payload_site.out.rglob("*.html") if FORWARD in p.read_text(encoding="utf-8")]
    assert forwards
    for path in forwards:
        parser = Elements()
        parser.feed(path.read_text(encoding="utf-8"))
        assert parser.tags <= {"html", "meta", "title", "link", "main", "h1", "p", "a"}, path


def test_at_least_thirty_payloads():
    assert len(PAYLOADS) >= 30


@dataclass(frozen=True)
class Visit:
    """What a reader's browser showed on a page."""
    injected: list[str]  # elements, attributes and scripts FIND_INJECTED found that are not the site's own
    texts: dict[str, str]  # selector -> its text, for the selectors in SHOWN_TEXT that the page has


SHOWN_TEXT = (".abstract", "h1", ".authors")
# (One evaluation for them all, not two round trips to the browser per selector.)
SHOWN_TEXTS = """(selectors) => Object.fromEntries(selectors.filter((selector) => document.querySelector(selector))
  .map((selector) => [selector, document.querySelector(selector).innerText]))"""


@pytest.fixture(scope="module")
def visits(payload_site, browser) -> tuple[dict[str, Visit], list[str]]:
    """Every page of the site opened once in Chromium: {page: Visit} and the dialogs that opened."""
    context = browser.new_context()
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    seen = {}
    for path in all_pages(payload_site.out):
        page.goto(path.as_uri(), wait_until="load")
        page.mouse.move(200, 300)  # give onmouseover a chance
        injected = [item for item in page.evaluate(FIND_INJECTED)
                    if not (item.startswith("script ") and item.endswith(OWN_SCRIPTS) or OFFLINE_PART.fullmatch(item))]
        texts = page.evaluate(SHOWN_TEXTS, SHOWN_TEXT)
        seen[path.relative_to(payload_site.out).as_posix()] = Visit(injected, texts)
    context.close()
    return seen, dialogs


def test_no_payload_runs_or_leaves_an_element(visits):
    seen, dialogs = visits
    assert len(seen) > len(PAYLOADS) + 1
    assert dialogs == []
    assert {page: visit.injected for page, visit in seen.items() if visit.injected} == {}


def test_payloads_are_shown_as_text(visits):
    seen, _ = visits
    shown = 0
    for n, payload in enumerate(PAYLOADS):
        text = seen[paper_page(f"payload{n:02d}net")].texts[".abstract"]
        if "alert(" in payload and not payload.startswith(("$", "\\(")):  # math shows it as formula letters
            assert "alert(" in text, (payload, text)
            shown += 1
    edited = seen[paper_page("payload00net")].texts
    assert edited["h1"] == "<script>alert(99)</script>"
    assert "<img src=x onerror=alert(98)>" in edited[".authors"]
    assert shown >= 30


def test_javascript_and_data_urls_never_become_links(payload_site):
    for path in all_pages(payload_site.out):
        html = path.read_text(encoding="utf-8").lower()
        for scheme in ("javascript:", "data:", "vbscript:"):
            assert f'href="{scheme}' not in html and f"src=\"{scheme}" not in html, path
