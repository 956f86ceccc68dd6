"""Discovery pages in the built site: related papers, the map, overviews and statistics."""

import re
import xml.etree.ElementTree as ElementTree

import pytest



def svgs(html: str) -> list[ElementTree.Element]:
    return [ElementTree.fromstring(svg) for svg in re.findall(r"<svg\b.*?</svg>", html, re.S)]


def test_each_paper_lists_five_related_papers_never_itself(built_site):
    for page in sorted((built_site.out / "papers").glob("*/*/index.html")):
        html = page.read_text(encoding="utf-8")
        section = html[html.index('<section class="related"'):html.index("</section>", html.index('<section class="related"'))]
        links = re.findall(r'href="\.\./\.\./\.\./papers/[0-9a-f]{2}/([^/]+)/index\.html"', section)
        assert len(links) == 5 and len(set(links)) == 5, page
        assert page.parent.name not in links
        items = re.findall(r"<li>(.*?)</li>", section, re.S)  # each a link named by the paper's title, and its mark
        assert len(items) == 5 and all(item.startswith("<a href=") for item in items), page
        assert all(re.sub(r' <span class="derived-mark">.*', "", item).endswith("</a>") for item in items), page


SVG = "{http://www.w3.org/2000/svg}"


def test_the_map_links_every_paper_once_and_is_valid_svg(built_site):
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    (plot, *swatches) = svgs(html)
    links = [a.get("href") for a in plot.iter(f"{SVG}a")]
    slugs = sorted(re.fullmatch(r"\.\./papers/[0-9a-f]{2}/([^/]+)/index\.html", href)[1] for href in links)
    assert slugs == sorted(p.parent.name for p in (built_site.out / "papers").glob("*/*/index.html"))
    labels = [text for text in plot.iter(f"{SVG}text") if text.get("class") == "map-label"]
    assert 4 <= len(labels) == len(swatches) <= 12  # a label on the map and a swatch in the list per group


def test_the_map_lists_each_group_s_papers_below_it(built_site):
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    section = html[html.index('<section class="map-groups"'):]
    groups = re.findall(r'<details class="map-group">(.*?)</details>', section, re.S)
    assert 4 <= len(groups) <= 12
    listed = [slug for group in groups for slug in re.findall(r'href="\.\./papers/[0-9a-f]{2}/([^/]+)/index\.html"', group)]
    assert sorted(listed) == sorted(p.parent.name for p in (built_site.out / "papers").glob("*/*/index.html"))
    for group in groups:
        words = re.search(r'<span class="group-words">([^<]+)</span>', group)[1]
        assert 1 <= len(words.split(" · ")) <= 3
        count = int(re.search(r"(\d+) papers?", group)[1])
        assert count == group.count("<li>")


def view_box(page) -> list[float]:
    return [float(n) for n in page.get_attribute("svg.map", "viewBox").split()]


def test_the_map_zooms_pans_and_picks_the_nearest_dot_on_a_phone(built_site, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((built_site.out / "map" / "index.html").as_uri())
    assert page.is_visible("#map-tools")
    assert view_box(page) == [0, 0, 1000, 750]
    dots = page.locator("svg.map .dots a")
    assert dots.count() == 38
    for box in (dots.nth(i).bounding_box() for i in range(dots.count())):  # a finger's width, at least
        assert box["width"] >= 24 and box["height"] >= 24, box
    page.click("[data-zoom=in]")
    zoomed = view_box(page)
    assert zoomed[2] < 1000 * 0.7 and zoomed[3] == pytest.approx(zoomed[2] * 0.75, abs=0.1)
    assert zoomed[0] == pytest.approx((1000 - zoomed[2]) / 2, abs=0.1)  # about the middle
    for i in range(dots.count()):  # still a finger's width on the screen when zoomed
        box = dots.nth(i).bounding_box()
        if box and box["width"]:
            assert box["width"] >= 23.5, box
    page.click("[data-zoom=out]")
    assert view_box(page) == pytest.approx([0, 0, 1000, 750], abs=0.01)
    page.focus("svg.map")
    page.keyboard.press("+")
    page.keyboard.press("+")
    before = view_box(page)
    page.keyboard.press("ArrowRight")
    after = view_box(page)
    assert after[2] == before[2] and after[0] > before[0]  # moved right, same zoom
    page.click("[data-zoom=reset]")
    assert view_box(page) == pytest.approx([0, 0, 1000, 750], abs=0.01)
    # A tap 9 px beside a dot opens that dot's paper (the nearest), not whichever is drawn on top.
    first = dots.first
    box = first.locator("circle").bounding_box()
    href = first.get_attribute("href")
    page.mouse.click(box["x"] + box["width"] / 2 + 9, box["y"] + box["height"] / 2)
    page.wait_for_url("**/papers/**")
    assert page.url.endswith(href.removeprefix(".."))
    assert errors == []
    context.close()


def test_the_map_zooms_at_the_wheel_and_reads_without_script(built_site, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((built_site.out / "map" / "index.html").as_uri())
    box = page.locator("svg.map").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.25)
    page.mouse.wheel(0, -300)
    zoomed = view_box(page)
    assert zoomed[2] < 700 and zoomed[0] < 250 - zoomed[2] * 0.2  # towards the pointer, top left
    assert page.locator("svg.map .map-label").first.is_visible()
    page.close()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((built_site.out / "map" / "index.html").as_uri())
    assert not page.is_visible("#map-tools")  # nothing to press without the script
    labels = page.locator("svg.map .map-label")
    assert labels.count() >= 4 and all(labels.nth(i).is_visible() for i in range(labels.count()))
    for i in range(labels.count()):  # readable on the phone: 12 px or more
        assert labels.nth(i).bounding_box()["height"] >= 12
    box = page.locator("svg.map .dots a").first.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    context.close()


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
    page.wait_for_function("""() => {  // the catalogue's data loads when a control is first used
        const titles = [...document.querySelectorAll('#paper-list .card .card-title a')].map(a => a.innerText.toLowerCase());
        return new URLSearchParams(location.search).get('sort') === 'title' && titles.every((t, i) => !i || titles[i - 1] <= t);
    }""")
    titles = page.locator("#paper-list .card .card-title a").all_inner_texts()
    assert len(titles) == 38 and titles == sorted(titles, key=str.lower)
    page.select_option("#venue-filter", "ICML 2026")
    assert page.locator("#paper-list .card:visible").count() == 38
    page.close()
