"""An ingest after hand edits in content/ alone merges only the changed files (ingest/snapshot.py);
whatever changed, its content files and report equal those of a whole ingest of the same folder."""

import os
import random
import re
import shutil
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

import catalogue.ingest.run as run
from catalogue.content.paper_file import parse_paper_markdown, render_paper_markdown
from catalogue.errors import CatalogueError
from catalogue.ingest.snapshot import RECORD_FILE
from catalogue.ingest.state import STATE_FILE
from catalogue.system.cache import Cache
from catalogue.ingest.run import KEPT_TYPES
from conftest import PROJECT, build_project, run_cli

HEADER = "ICLR 2025 Accepted Papers"
FIRST = ["We propose ZetaNet, a graph model for molecules. It is accurate on every benchmark we tried.",
         "We introduce Beta Gamma Search (BGS), a search method for policies. It finds high reward quickly.",
         "Polytrees are useful. We devise an algorithm that finds the optimal polytree in linear time."]
SECOND = ["We present ThetaNet, a system for indoor scenes. It is different from earlier systems.",
          "We study OmegaFlow, a flow model for audio. It beats strong baselines on speech."]


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "p"
    (root / "seeds").mkdir(parents=True)
    (root / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    write_seed(root, "a.txt", FIRST)
    write_seed(root, "b.txt", SECOND)
    ingest(root)
    return root


@pytest.fixture
def whole_runs(monkeypatch) -> list[int]:
    """Counts the ingests that read every seed file and content file."""
    calls = []
    whole = run.ingest_all

    def counted(*args, **kwargs):
        calls.append(1)
        return whole(*args, **kwargs)

    monkeypatch.setattr(run, "ingest_all", counted)
    return calls


def write_seed(root: Path, name: str, abstracts: list[str]) -> None:
    (root / "seeds" / name).write_text(HEADER + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


def ingest(root: Path, **flags) -> run.IngestReport:
    """As a build ingests: with the cache beside content/."""
    with closing(Cache.beside(root / "content", KEPT_TYPES)) as cache:
        return run.ingest(root / "seeds", root / "content", cache=cache, **flags)


def contents(root: Path) -> dict[str, bytes]:
    content = root / "content"
    return {path.relative_to(content).as_posix(): path.read_bytes() for path in sorted(content.rglob("*"))
            if path.is_file() and ".cache" not in path.parts}


def described(report: run.IngestReport, root: Path) -> tuple:
    """The report, the project's folder named alike in any copy."""
    return replace(report, problems=()), [str(problem).replace(root.as_posix(), "ROOT") for problem in report.problems]


def whole_ingest_of_copy(root: Path, scratch: Path, **flags) -> tuple[dict[str, bytes], tuple]:
    """What a whole ingest (no cache, no record of the last ingest) makes of the project as it is now, in a copy."""
    copy = scratch / "whole"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".cache", RECORD_FILE))
    report = run.ingest(copy / "seeds", copy / "content", **flags)
    return contents(copy), described(report, copy)


def paper_file(root: Path, slug: str) -> Path:
    return root / "content" / "papers" / f"{slug}.md"


def edit(root: Path, file: str, **changes) -> None:
    path = paper_file(root, file)
    paper = parse_paper_markdown(path.read_text(encoding="utf-8"), path.as_posix())
    path.write_text(render_paper_markdown(replace(paper, **changes)), encoding="utf-8")


def assert_as_whole(root: Path, tmp_path: Path, whole_runs: list[int], expected_whole: int,
                    **flags) -> run.IngestReport:
    """Ingest as a build does; the result equals a whole ingest's; `expected_whole` whole ingests ran."""
    expected = whole_ingest_of_copy(root, tmp_path, **flags)
    whole_runs.clear()
    report = ingest(root, **flags)
    assert len(whole_runs) == expected_whole
    assert (contents(root), described(report, root)) == expected
    return report


def test_a_hand_edit_merges_that_file_alone_and_equals_a_whole_ingest(project, tmp_path, whole_runs):
    edit(project, "zetanet", title="ZetaNet, retitled by hand", authors=("Ada Lovelace",))
    report = assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)
    assert (report.updated, report.kept_edits) == (1, 1)  # the file now says its title was edited
    assert "title_source: edited" in paper_file(project, "zetanet").read_text(encoding="utf-8")
    assert "retitled by hand" in paper_file(project, "zetanet").read_text(encoding="utf-8")
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)  # and nothing to do after


def test_a_touched_file_is_merged_again_and_nothing_written(project, tmp_path, whole_runs):
    path = paper_file(project, "thetanet")
    before = path.read_bytes()
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    report = assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)
    assert report.updated == 0 and path.read_bytes() == before


def test_an_edited_seed_file_takes_a_whole_ingest_and_its_note_is_given_once(project, tmp_path, whole_runs):
    write_seed(project, "a.txt", [FIRST[0].replace("every benchmark", "every single benchmark"), *FIRST[1:]])
    report = assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    assert any("abstract changed slightly" in problem.message for problem in report.problems)
    again = assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)
    assert not any("abstract changed slightly" in problem.message for problem in again.problems)


def test_a_deleted_seed_file_marks_its_papers_and_an_edit_of_one_takes_a_whole_ingest(project, tmp_path, whole_runs):
    (project / "seeds" / "b.txt").unlink()
    report = assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    assert sum("not in any seed file any more" in problem.message for problem in report.problems) == 2
    assert "in_seeds: false" in paper_file(project, "thetanet").read_text(encoding="utf-8")
    edit(project, "thetanet", title="ThetaNet, kept by hand")  # no seed derives it: the whole ingest decides
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)


@pytest.mark.parametrize("change", ["slug", "deleted file", "unreadable file", "record of derived fields"])
def test_other_changes_in_content_take_a_whole_ingest(project, tmp_path, whole_runs, change):
    if change == "slug":
        edit(project, "zetanet", slug="zeta-net")  # its old address becomes a redirect
    elif change == "deleted file":
        paper_file(project, "zetanet").unlink()  # the seeds still list it: written again
    elif change == "unreadable file":
        paper_file(project, "zetanet").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")
        with pytest.raises(CatalogueError, match="zetanet.md"):
            ingest(project)
        return
    else:
        state = project / "content" / STATE_FILE
        state.write_text(state.read_text(encoding="utf-8").replace('"title"', '"title" ', 1), encoding="utf-8")
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)


def test_new_code_or_a_new_taxonomy_takes_a_whole_ingest(project, tmp_path, whole_runs, monkeypatch):
    monkeypatch.setattr(run, "code_version", lambda module: "another version")
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    taxonomy = project / "content" / "topics.yaml"
    taxonomy.write_text(taxonomy.read_text(encoding="utf-8").replace("keywords: [reinforcement learning, ",
                                                                     "keywords: [reinforcement learning, graph model, "),
                        encoding="utf-8")  # ZetaNet's "graph model" now counts towards it
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    assert "reinforcement-learning" in paper_file(project, "zetanet").read_text(encoding="utf-8")
    assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)


def test_a_build_after_a_hand_edit_merges_it_alone_and_equals_a_clean_build(tmp_path, seeds_builds, monkeypatch):
    from test_incremental import clean_build, edit_title, files
    project = seeds_builds.copy(tmp_path / "built", "--no-search").root
    edit_title(project / "content", "flashsinkhorn", "FlashSinkhorn, retitled by hand")
    with monkeypatch.context() as patch:
        patch.setattr(run, "ingest_all", lambda *args: pytest.fail("a whole ingest for a hand edit"))
        site = build_project(project, "--no-search").out
    assert "title_source: edited" in paper_file(project, "flashsinkhorn").read_text(encoding="utf-8")
    assert files(site) == clean_build(project, tmp_path, "--no-search")


def test_a_build_after_a_hand_edit_counts_the_seeds_notes_and_ingest_lists_them(project):
    note = "unknown LaTeX command '\\zetamacro'"
    write_seed(project, "a.txt", [*FIRST, "We study the Zeta loss, which is \\zetamacro{} small for every model we tried."])
    assert note in build_project(project).output  # the seeds were read: their notes are listed
    edit(project, "thetanet", title="ThetaNet, retitled by hand")
    output = build_project(project).output
    assert note not in output and "1 note (said when the seeds were last read" in output
    assert note in run_cli("ingest", "--seeds", str(project / "seeds"), "--content", str(project / "content"))


# A clone of the catalogue's repository: content/ committed (with ingest's record, content/.ingested.json),
# no build cache, every file written anew (a CI runner).

def clone(root: Path, to: Path) -> Path:
    shutil.copytree(root, to, ignore=shutil.ignore_patterns(".cache"), copy_function=shutil.copy)
    return to


def test_a_clone_without_the_build_cache_derives_nothing_again(project, tmp_path, whole_runs):
    copy = clone(project, tmp_path / "clone")
    report = assert_as_whole(copy, tmp_path, whole_runs, expected_whole=0)
    assert report.papers == 5 and not report.content_written
    assert str(tmp_path) not in (copy / "content" / RECORD_FILE).read_text(encoding="utf-8")


@pytest.mark.parametrize("changes, whole", [
    (dict(title="ZetaNet, retitled by hand"), 0),
    (dict(authors=("Ada Lovelace", "Alan Turing")), 0),
    (dict(keywords=("molecules",), name="Zeta"), 0),
    (dict(added=None), 0),  # dated today, as the whole ingest dates it
    (dict(title_source="given"), 0),  # the line is ingest's: written back
    (dict(cite_key=None), 1),  # the whole ingest chooses a key no other paper holds
    (dict(openalex="W2741809807"), 1),  # an answer of the lookup: the whole ingest weighs it
])
def test_a_hand_edit_in_a_clone_merges_that_file_alone_where_it_can(project, tmp_path, whole_runs, changes, whole):
    copy = clone(project, tmp_path / "clone")
    edit(copy, "zetanet", **changes)
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=whole)
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=0)


def test_a_title_edited_and_written_back_takes_a_whole_ingest(project, tmp_path, whole_runs):
    """Its source is then the derivation's, which only the seeds tell."""
    copy = clone(project, tmp_path / "clone")
    original = parse_paper_markdown(paper_file(copy, "zetanet").read_text(encoding="utf-8"), "zetanet.md").title
    edit(copy, "zetanet", title="ZetaNet, retitled by hand")
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=0)
    edit(copy, "zetanet", title=original)
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=1)
    assert "title_source: derived" in paper_file(copy, "zetanet").read_text(encoding="utf-8")


def conflicted(record: str) -> str:
    """The record as git leaves it when two branches changed its inputs line: the other lines, its
    "about" line among them, outside the markers."""
    inputs = re.search(r'(?m)^"inputs": .*\n', record)[0]
    return record.replace(inputs, f"<<<<<<< HEAD\n{inputs}=======\n\"inputs\": \"0\",\n>>>>>>> branch\n")


@pytest.mark.parametrize("damage", [conflicted, lambda record: record[:len(record) // 2],
                                    lambda record: record.replace('"papers": ', '"papers": "many", "was": ')])
def test_a_record_of_another_shape_takes_a_whole_ingest_and_is_written_anew(project, tmp_path, whole_runs, damage):
    copy = clone(project, tmp_path / "clone")
    record = copy / "content" / RECORD_FILE
    record.write_text(damage(record.read_text(encoding="utf-8")), encoding="utf-8")
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=1)
    assert_as_whole(copy, tmp_path, whole_runs, expected_whole=0)


@pytest.mark.parametrize("foreign", ["[1, 2]", "[" * 100_000, '{"inputs": 3}', "\udcff", "my notes on the catalogue\n"])
def test_a_file_of_the_records_name_that_ingest_did_not_write_is_refused_and_kept(project, foreign):
    """It may be the user's own: neither replaced nor removed (nor is anything else written)."""
    record = project / "content" / RECORD_FILE
    record.write_text(foreign, encoding="utf-8", errors="surrogateescape")
    write_seed(project, "new-2026.txt", ["A new abstract, which a whole ingest would write as a paper of its own."])
    before = contents(project)
    for flags in ({}, {"prune": True}):
        with pytest.raises(CatalogueError, match=re.escape(f"{RECORD_FILE}: not the record ingest writes")):
            ingest(project, **flags)
        assert contents(project) == before


def test_a_record_that_is_no_regular_file_is_refused(project):
    record = project / "content" / RECORD_FILE
    record.unlink()
    record.mkdir()
    with pytest.raises(CatalogueError, match=re.escape(f"{RECORD_FILE}: not a regular file")):
        ingest(project)
    assert record.is_dir()


def test_random_hand_edits_in_a_clone_equal_a_whole_ingest(project, tmp_path, whole_runs):
    seed = random.randrange(2**32)
    print(f"random seed: {seed}")  # a failure names it
    chance = random.Random(seed)
    copy = clone(project, tmp_path / "clone")
    slugs = sorted(path.stem for path in (copy / "content" / "papers").glob("*.md"))
    originals = {slug: parse_paper_markdown(paper_file(copy, slug).read_text(encoding="utf-8"), slug) for slug in slugs}
    edits = [lambda p: dict(title=f"{p.title} {chance.choice(['again', 'revised', 'II'])}"),
             lambda p: dict(title=originals[p.slug].title),
             lambda p: dict(authors=tuple(chance.sample(["Ada Lovelace", "Alan Turing", "Grace Hopper"], 2))),
             lambda p: dict(authors=originals[p.slug].authors),
             lambda p: dict(keywords=("graphs",)),
             lambda p: dict(title_source=chance.choice(["derived", "given", "lookup", "edited"])),
             lambda p: dict(added=None),
             lambda p: dict(name=chance.choice([None, "Zed"]))]
    for _ in range(4):
        for slug in chance.sample(slugs, chance.randint(1, 2)):
            current = parse_paper_markdown(paper_file(copy, slug).read_text(encoding="utf-8"), slug)
            edit(copy, slug, **chance.choice(edits)(current))
        expected = whole_ingest_of_copy(copy, tmp_path)
        report = ingest(copy)  # merged alone or whole, as merge_alone tells: the same either way
        assert (contents(copy), described(report, copy)) == expected


def test_notes_on_a_seed_file_whose_name_is_not_utf8_are_recorded_and_read_back(project, tmp_path, whole_runs):
    name = os.fsdecode(b"c\xff.txt")  # a byte no encoding gave: a lone surrogate in the name, and in its notes
    (project / "seeds" / name).write_text(HEADER + "\n\nrow one\n", encoding="utf-8")
    first = assert_as_whole(project, tmp_path, whole_runs, expected_whole=1)
    assert any(name in problem.source.path for problem in first.problems)
    again = assert_as_whole(project, tmp_path, whole_runs, expected_whole=0)
    assert again.problems == first.problems
