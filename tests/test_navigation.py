"""A reader's way around in Chromium (issue 40 items 3, 6, 8): the phone fits, venue pages filter,
sort and jump, the authors index filters, j/k turn a paper page."""

import re

from catalogue.routes import bucket, venue_page
from catalogue.site.author_parts import name_words, part_key
from catalogue.site.views import name_begins_title
from conftest import BuiltSite, serve_folder
from site_data import part_data

PHONE = {"width": 390, "height": 844}


def test_the_phone_fits(built_site: BuiltSite, page):
    page.set_viewport_size(PHONE)
    page.goto((built_site.out / "index.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for link in page.locator(".site-nav a").all():  # "My list" among them, no sideways scroll
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    first = page.locator("#paper-list > li").first.locator(".card-title").bounding_box()
    assert first["y"] + first["height"] <= PHONE["height"]  # the first paper's title on the first screen
    star = page.locator("#paper-list button.star").first.bounding_box()
    assert star["width"] >= 44 and star["height"] >= 44
    # A pager as the templates write it (the seeds fill one page): its links are finger-sized.
    page.evaluate("""document.getElementById('list-pager').innerHTML =
        '<nav class="list-pager"><a class="prev" href="#">P</a><ol><li><a href="#">1</a></li></ol></nav>'""")
    for link in page.locator(".list-pager a").all():
        box = link.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    page.fill("#site-search", "learning")
    page.locator(".quick-results .result").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator(".quick-results").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_the_search_pages_first_result_is_on_a_phones_first_screen(built_site: BuiltSite, page):
    page.set_viewport_size(PHONE)
    page.goto((built_site.out / "search.html").as_uri() + "?q=learning")
    title = page.locator("#search-results .result-title").first
    title.wait_for()
    box = title.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]


def venue_of_most(built_site: BuiltSite) -> str:
    parts = sorted((built_site.out / "list-data" / "venues").glob("*.js"), key=lambda path: -len(part_data(path)))
    return parts[0].stem


def test_a_venue_page_filters_and_sorts_its_papers(built_site: BuiltSite, page):
    slug = venue_of_most(built_site)
    rows = part_data(built_site.out / "list-data" / "venues" / f"{slug}.js")
    assert len(rows) > 3
    page.goto((built_site.out / venue_page(slug)).as_uri())
    page.select_option(".list-tools select", "title")
    page.locator("#paper-list[aria-busy]").wait_for(state="detached")
    titles = page.locator("#paper-list .card-title a").all_inner_texts()
    assert titles == sorted((row[2] for row in rows), key=str.lower) and page.locator("#paper-list .venue").count() == 0
    word = next(w for w in re.findall(r"[a-z]{6,}", rows[0][2].lower()))
    page.fill(".list-tools input", word[:5])  # half a word
    shown = page.locator("#paper-list .card-title a").all_inner_texts()
    wanted = [row[2] for row in rows if any(w.startswith(word[:5]) for w in re.findall(r"\w+", " ".join(
        [row[2], row[3]] + [a if isinstance(a, str) else a[0] for a in row[6]] + (row[9] if len(row) > 9 else [])).lower()))]
    assert rows[0][2] in shown and sorted(shown) == sorted(wanted) and len(shown) < len(rows)
    assert f"q={word[:5]}" in page.url and "sort=title" in page.url
    page.reload()  # the address keeps the choice
    page.locator("#paper-list[aria-busy]").wait_for(state="detached")
    assert page.locator("#paper-list .card-title a").all_inner_texts() == shown
    page.fill(".list-tools input", "")
    page.select_option(".list-tools select", "")
    assert "?" not in page.url and page.locator("#paper-list .card").count() == len(rows)


def test_a_venue_pages_pager_jumps_to_any_page(built_site: BuiltSite, page, tmp_path):
    slug = venue_of_most(built_site)
    def in_pages_of_two(route):  # so that the venue has several pages
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace('data-per-page="100"', 'data-per-page="2"'))

    with serve_folder(built_site.out) as address:
        page.route("**/" + venue_page(slug), in_pages_of_two)
        page.goto(address + venue_page(slug))
        page.select_option(".list-tools select", "author")
        page.locator("#paper-list:not([aria-busy])").wait_for()
        jump = page.locator(".page-jump select")
        jump.wait_for()
        pages = jump.locator("option").count()
        assert pages >= 2
        jump.select_option(str(pages))
        assert "page=" not in page.url  # choosing alone does not move on
        page.locator(".page-jump button").click()
        assert f"page={pages}" in page.url
        assert page.locator("#paper-list").get_attribute("start") == str(2 * (pages - 1) + 1)
        assert page.locator(".list-pager [aria-current]").inner_text() == str(pages)


def test_the_authors_index_filters_by_part_of_a_name(authored_site, page):
    parts = {path.stem: part_data(path) for path in (authored_site / "list-data" / "authors").glob("*.js")}
    for key, rows in parts.items():  # a name is in the part of each of its words' first letters
        assert all(key in {part_key(word) for word in name_words(row[0])} for row in rows)
    name = max((row[0] for rows in parts.values() for row in rows), key=lambda n: (len(n.split()), n))
    family = name.split()[-1]
    loaded = []
    page.on("request", lambda request: "list-data/" in request.url and loaded.append(request.url))
    page.goto((authored_site / "authors" / "index.html").as_uri())
    page.fill(".author-filter-box input", family[:4].upper())
    page.locator("#author-matches li").first.wait_for()
    found = page.locator("#author-matches li a").all_inner_texts()
    assert name in found and all(any(w.startswith(family[:4].lower()) for w in name_words(n)) for n in found)
    assert page.locator("section.letter:visible").count() == 0
    assert [url.rsplit("/", 1)[1] for url in loaded] == [part_key(family.lower()) + ".js"]  # one part alone
    page.locator("#author-matches a", has_text=name).first.click()
    assert page.locator(".authors-page section:target h2").inner_text() == name


def test_j_and_k_turn_a_paper_page(built_site: BuiltSite, page):
    first = built_site.out / "index.html"
    page.goto(first.as_uri())
    slug = page.locator("#paper-list .card-title a").nth(1).get_attribute("href").split("/")[-2]
    page.goto((built_site.out / "papers" / bucket(slug) / slug / "index.html").as_uri())
    following = page.locator('nav.pager a[rel="next"]').get_attribute("href").split("/")[-2]
    page.keyboard.press("j")
    page.wait_for_url(re.compile(following))
    page.keyboard.press("k")
    page.wait_for_url(re.compile(slug))
    page.keyboard.press("?")
    assert "paper's page" in page.locator("#shortcuts").inner_text()


def test_a_name_its_title_begins_with_is_shown_once(page, built_site: BuiltSite):
    table = [("MIMICause", "MIMICause: Representation"), ("BERT", "BERTology Meets"), ("X", "Y: X"),
             ("mimicause", "MIMICause - a way"), ("Deep", "Deep")]
    page.goto((built_site.out / "index.html").as_uri())
    for name, title in table:  # the script's rule is the build's
        assert page.evaluate("([n, t]) => window.catalogueNameInTitle(n, t)", [name, title]) == name_begins_title(name, title)
    assert [name_begins_title(n, t) for n, t in table] == [True, False, False, True, True]
