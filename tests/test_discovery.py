"""Discovery pages in the built site: related papers, the map, overviews and statistics."""

import re
import xml.etree.ElementTree as ElementTree

import pytest



def svgs(html: str) -> list[ElementTree.Element]:
    return [ElementTree.fromstring(svg) for svg in re.findall(r"<svg\b.*?</svg>", html, re.S)]


def test_each_paper_lists_five_related_papers_never_itself(built_site):
    for page in sorted((built_site.out / "papers").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        section = html[html.index('<section class="related"'):html.index("</section>", html.index('<section class="related"'))]
        links = re.findall(r'href="\.\./\.\./papers/([^/]+)/index\.html"', section)
        assert len(links) == 5 and len(set(links)) == 5, page
        assert page.parent.name not in links
        assert section.count('class="shared"') == 5


def test_the_map_links_every_paper_once_and_is_valid_svg(built_site):
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    (plot, *swatches) = svgs(html)
    links = [a.get("href") for a in plot.iter("{http://www.w3.org/2000/svg}a")]
    slugs = sorted(re.fullmatch(r"\.\./papers/([^/]+)/index\.html", href)[1] for href in links)
    assert slugs == sorted(p.name for p in (built_site.out / "papers").iterdir() if p.is_dir())
    assert len(swatches) >= 1  # the legend


def test_statistics_charts_are_valid_svg_with_links_that_resolve(built_site):
    page = built_site.out / "stats" / "index.html"
    html = page.read_text(encoding="utf-8")
    charts = svgs(html)
    assert len(charts) == 4
    for chart in charts:
        for link in chart.iter("{http://www.w3.org/2000/svg}a"):
            target = link.get("href").split("?")[0]
            assert (page.parent / target).resolve().is_file(), target


def test_overview_pages_count_papers(built_site):
    venues = (built_site.out / "venues" / "index.html").read_text(encoding="utf-8")
    assert 'href="../venues/icml-2026/index.html"' in venues and "38 papers" in venues
    icml = (built_site.out / "venues" / "icml-2026" / "index.html").read_text(encoding="utf-8")
    assert icml.count('class="card"') == 38
    topics = (built_site.out / "topics" / "index.html").read_text(encoding="utf-8")
    assert topics.count("<li>") >= 10


@pytest.mark.parametrize("width", [1280, 390])
def test_the_home_page_filters_by_venue_and_sorts(built_site, browser, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto((built_site.out / "index.html").as_uri())
    page.select_option("#sort-order", "title")
    titles = [card.get_attribute("data-title") for card in page.locator("#paper-list .card").all()]
    assert titles == sorted(titles, key=str.lower)
    page.select_option("#venue-filter", "ICML 2026")
    assert page.locator("#paper-list .card:visible").count() == 38
    page.close()
