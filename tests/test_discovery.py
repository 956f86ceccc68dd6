"""Discovery pages in the built site: related papers, the map, overviews and statistics."""

import json
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


def map_data(site) -> dict:
    """map/map-data.js, the script the map page loads, read as the JSON it assigns."""
    text = (site / "map" / "map-data.js").read_text(encoding="utf-8")
    assert text.startswith("window.CATALOGUE_MAP = ") and text.endswith(";\n")
    return json.loads(text.removeprefix("window.CATALOGUE_MAP = ").removesuffix(";\n"))


def paper_slugs(site) -> list[str]:
    return sorted(p.parent.name for p in (site / "papers").glob("*/*/index.html"))


def test_the_map_data_places_every_paper_once_and_the_page_is_valid_svg(built_site):
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    (plot, *swatches) = svgs(html)
    data = map_data(built_site.out)
    assert sorted(point[3] for point in data["points"]) == paper_slugs(built_site.out)
    drawn = {g.get("data-group") for g in plot.iter(f"{SVG}g") if "dots" in g.get("class", "")}
    assert {str(point[2]) for point in data["points"]} == drawn  # each dot has its colour's group
    assert all(0 <= point[0] <= 1000 and 0 <= point[1] <= 750 for point in data["points"])
    labels = [text for text in plot.iter(f"{SVG}text") if text.get("class") == "map-label"]
    assert 4 <= len(labels) == len(swatches) <= 12  # a label on the map and a swatch in the list per group
    assert '<script src="../map/map-data.js"></script>' in html  # a file, so it loads from disk too


def test_the_map_names_each_group_and_its_data_lists_its_papers(built_site):
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    section = html[html.index('<section class="map-groups"'):]
    groups = re.findall(r'<details class="map-group">(.*?)</details>', section, re.S)
    data = map_data(built_site.out)
    assert 4 <= len(groups) == len(data["groups"]) <= 12
    assert sorted(i for members in data["groups"] for i in members) == list(range(len(data["points"])))
    for number, group in enumerate(groups):
        words = re.search(r'<span class="group-words">([^<]+)</span>', group)[1]
        assert 1 <= len(words.split(" · ")) <= 3
        count = int(re.search(r"(\d+) papers?", group)[1])
        assert count == len(data["groups"][number]) and f'<ol data-group="{number}"></ol>' in group
        assert {data["points"][i][2] for i in data["groups"][number]} == {number}  # its dots wear its colour


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
    assert page.locator("svg.map .dots a").count() == 0  # the dots are the script's to draw, and it says so
    assert "venue and topic pages" in page.locator("figure.map").inner_text()
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


def test_the_map_page_carries_no_paper_of_its_own(built_site):
    """Its size does not grow with the catalogue: every paper is in the data script, none in the page."""
    html = (built_site.out / "map" / "index.html").read_text(encoding="utf-8")
    assert len(html.encode()) < 20_000
    assert [slug for slug in paper_slugs(built_site.out) if slug in html] == []


@pytest.mark.parametrize("served", [False, True], ids=["from disk", "from a server"])
def test_the_map_draws_its_data_and_keys_and_pointers_reach_the_papers(built_site, browser, tmp_path, served):
    from conftest import serve_under_subpath

    policy = "default-src 'self'; script-src 'self'; style-src 'self'"
    with serve_under_subpath(built_site.out, tmp_path, policy=policy) as address:
        url = f"{address}map/index.html" if served else (built_site.out / "map" / "index.html").as_uri()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto(url)
        data = map_data(built_site.out)
        dots = page.locator("svg.map .dots a")
        assert dots.count() == len(data["points"]) == 38
        lists = page.locator(".map-group li a")
        assert lists.count() == 38  # every group's papers, listed below the map
        first = data["points"][data["groups"][0][0]]
        page.locator(".map-group summary").first.click()
        assert lists.first.inner_text() == f"{first[4]} {first[5]}".strip()
        # The keyboard: Tab reaches a dot, named by its paper, and shows its name.
        page.focus("svg.map")
        page.keyboard.press("Tab")
        focused = page.evaluate("[document.activeElement.getAttribute('aria-label'), document.activeElement.closest('svg') !== null]")
        assert focused[1] and focused[0] in {point[4] or point[5] for point in data["points"]}
        assert page.is_visible("#map-tip") and page.inner_text("#map-tip") == focused[0]
        # The pointer: hovering a dot names it, a click opens its paper.
        circle = dots.nth(5).locator("circle").bounding_box()
        page.mouse.move(circle["x"] + circle["width"] / 2, circle["y"] + circle["height"] / 2)
        assert page.is_visible("#map-tip")
        name = page.inner_text("#map-tip")
        page.mouse.click(circle["x"] + circle["width"] / 2, circle["y"] + circle["height"] / 2)
        page.wait_for_url("**/papers/**/index.html")
        assert page.url.rsplit("/", 2)[1] in {point[3] for point in data["points"] if (point[4] or point[5]) == name}
        assert errors == []
        page.close()
