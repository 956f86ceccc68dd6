"""Seed lists that carry titles, authors and links (JSON, CSV, BibTeX) through ingest into content/.

The readers themselves are tested in test_records.py; here: what ingest makes of their records
(given fields used as given, hand edits still winning, papers without an abstract) and that one
record gives one content file whatever the format it comes in.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.content.papers import read_papers
from catalogue.ingest.run import ingest

from conftest import PROJECT
from seed_writers import corpus_records, write_bibtex, write_csv, write_jsonl
from catalogue.routes import bucket

ABSTRACT = ("We propose SparseVLM, a training-free method that prunes visual tokens of $\\mathcal{V}$ by the "
            "text's attention. It keeps accuracy while cutting the cost of vision-language models by half.")
RECORD = {"title": "SparseVLM: Visual Token Sparsification for $\\mathcal{V}$-Efficient Inference",
          "abstract": ABSTRACT, "authors": ["Ada Lovelace", "Alan Turing"], "keywords": ["pruning", "efficiency"],
          "pdf": "https://example.org/sparsevlm.pdf", "site": "https://proceedings.example.org/sparsevlm.html",
          "github": "https://github.com/example/sparsevlm", "venue": "ICML", "year": 2025, "tldr": "ignored",
          "doi": "https://doi.org/10.1007/978-3-030-58452-8_13"}


@pytest.fixture
def project(tmp_path):
    (tmp_path / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", tmp_path / "content" / "topics.yaml")
    (tmp_path / "seeds").mkdir()
    return tmp_path


def only_paper(content: Path):
    papers = list(read_papers(content).values())
    assert len(papers) == 1
    return papers[0]


def test_a_given_title_authors_and_links_are_used_as_given(project):
    (project / "seeds" / "list.jsonl").write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    report = ingest(project / "seeds", project / "content")
    paper = only_paper(project / "content")
    assert paper.title == RECORD["title"] and paper.title_source == "given"  # math as written
    assert paper.name == "SparseVLM" and paper.slug == "sparsevlm"
    assert paper.authors == ("Ada Lovelace", "Alan Turing") and paper.keywords == ("pruning", "efficiency")
    assert paper.pdf == RECORD["pdf"] and paper.url == RECORD["site"] and paper.doi == "10.1007/978-3-030-58452-8_13"
    assert [(link.label, link.url) for link in paper.links] == [("Code", RECORD["github"])]
    assert (paper.venue, paper.year) == ("ICML", 2025)
    assert str(paper.source) == "seeds/list.jsonl:record 1"
    assert not [problem for problem in report.problems if "record" in str(problem.source)]


def test_a_title_without_a_coined_name_gives_no_name_the_title_does_not_write(project):
    record = RECORD | {"title": "Deep Learning: A Survey of Visual Token Pruning"}
    (project / "seeds" / "list.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    paper = only_paper(project / "content")
    assert paper.name is None and paper.title == record["title"]
    assert paper.slug == "deep-learning-survey-visual-token-pruning"


def test_hand_edits_win_over_the_list_on_re_ingest(project):
    seed = project / "seeds" / "list.jsonl"
    seed.write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    path = next((project / "content" / "papers").glob("*.md"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("- Alan Turing", "- Alan M. Turing").replace(RECORD["pdf"], "https://example.org/v2.pdf"),
                    encoding="utf-8")
    seed.write_text(json.dumps(RECORD | {"title": RECORD["title"] + " Revisited", "authors": ["Ada Lovelace",
                                                                                                "Alan Turing", "Grace Hopper"]})
                    + "\n", encoding="utf-8")
    report = ingest(project / "seeds", project / "content")
    paper = only_paper(project / "content")
    assert paper.authors == ("Ada Lovelace", "Alan M. Turing")  # the person's list, not the seed's new one
    assert paper.pdf == "https://example.org/v2.pdf"
    assert paper.title.endswith("Revisited") and paper.title_source == "given"  # not edited: the list's new title
    assert report.kept_edits == 1


def test_authors_added_by_hand_to_an_abstract_only_paper_survive_the_upgrade(project):
    """Content written before ingest read authors: a person's authors list is an edit, not stale."""
    (project / "seeds" / "list.txt").write_text("ICML 2025\n\n" + ABSTRACT + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    state = project / "content" / ".derived.json"
    records = json.loads(state.read_text(encoding="utf-8"))
    for record in records.values():  # as an older ingest wrote it
        for field in ("authors", "keywords", "pdf", "url"):
            del record[field]
    state.write_text(json.dumps(records), encoding="utf-8")
    path = next((project / "content" / "papers").glob("*.md"))
    path.write_text(path.read_text(encoding="utf-8").replace("\nsource:", "\nauthors:\n- Ada Lovelace\nsource:"),
                    encoding="utf-8")
    ingest(project / "seeds", project / "content")
    assert only_paper(project / "content").authors == ("Ada Lovelace",)


def test_a_record_without_an_abstract_is_a_paper_and_renders(project):
    record = {"title": "Attention Is All You Need", "authors": "Ashish Vaswani and Noam Shazeer", "year": 2017,
              "venue": "NeurIPS", "abstract": ""}
    (project / "seeds" / "list.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    paper = only_paper(project / "content")
    assert (paper.title, paper.abstract, paper.title_source) == (record["title"], "", "given")
    assert paper.authors == ("Ashish Vaswani", "Noam Shazeer")
    result = CliRunner().invoke(main, ["render", "--content", str(project / "content"), "--out", str(project / "site")])
    assert result.exit_code == 0, result.output
    page = (project / "site" / "papers" / bucket(paper.slug) / paper.slug / "index.html").read_text(encoding="utf-8")
    assert "Attention Is All You Need" in page and "Ashish Vaswani" in page
    assert "gives no abstract" in page and '<meta name="citation_title" content="Attention Is All You Need">' in page


def test_moving_a_text_list_to_json_keeps_every_paper(project):
    """The id is the abstract's hash in both formats: same files, same slugs, the title now given."""
    (project / "seeds" / "list.txt").write_text("ICML 2025\n\n" + ABSTRACT + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    before = only_paper(project / "content")
    (project / "seeds" / "list.txt").unlink()
    (project / "seeds" / "list.jsonl").write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    ingest(project / "seeds", project / "content")
    after = only_paper(project / "content")
    assert (after.id, after.slug, after.in_seeds) == (before.id, before.slug, True)
    assert after.title == RECORD["title"] and after.authors == tuple(RECORD["authors"])


def test_a_bad_record_is_named_and_the_others_are_read(project):
    lines = [json.dumps(RECORD), "[1, 2", json.dumps(RECORD | {"abstract": ABSTRACT + " Again.", "title": "Second"})]
    (project / "seeds" / "list.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(project / "seeds"),
                                       "--content", str(project / "content")])
    assert result.exit_code == 0, result.output
    assert "seeds/list.jsonl:record 2: " in result.output or "seeds/list.jsonl:2: " in result.output
    assert sorted(p.title for p in read_papers(project / "content").values()) == ["Second", RECORD["title"]]


def test_seeds_may_name_one_file(project):
    (project / "seeds" / "a.jsonl").write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    (project / "seeds" / "b.txt").write_text("ICML 2025\n\nWe study one more problem with five words here.\n")
    result = CliRunner().invoke(main, ["ingest", "--seeds", str(project / "seeds" / "a.jsonl"),
                                       "--content", str(project / "content")])
    assert result.exit_code == 0, result.output
    assert only_paper(project / "content").title == RECORD["title"]


# --- one record, one content file, whatever the format ------------------------------------------

FORMATS = {"jsonl": write_jsonl, "csv": write_csv, "bib": write_bibtex}


def test_the_same_records_give_the_same_content_files_from_every_format(tmp_path):
    records = corpus_records(40)
    files: dict[str, dict[str, str]] = {}
    for extension, write in FORMATS.items():
        root = tmp_path / extension
        (root / "seeds").mkdir(parents=True)
        (root / "content").mkdir()
        shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
        (root / "seeds" / f"corpus.{extension}").write_text(write(records), encoding="utf-8")
        ingest(root / "seeds", root / "content")
        files[extension] = {path.name: "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                                                 if not line.startswith("source: "))
                            for path in sorted((root / "content" / "papers").glob("*.md"))}
    assert len(files["jsonl"]) == len(records)
    for extension in ("csv", "bib"):
        assert files[extension].keys() == files["jsonl"].keys(), extension
        differing = [name for name in files["jsonl"] if files[extension][name] != files["jsonl"][name]]
        assert not differing, (extension, differing[:3])
    papers = read_papers(tmp_path / "jsonl" / "content").values()
    assert all(paper.title_source == "given" and paper.authors for paper in papers)
    assert sorted(paper.title for paper in papers) == sorted(" ".join(r["title"].split()) for r in records)
