import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from catalogue.content.papers import read_papers
from catalogue.ingest.identity import paper_id
from catalogue.ingest.run import ingest
from catalogue.ingest.shared_names import FieldTerm, is_known_term, shipped_terms
from catalogue.model import Paper, Source
from catalogue.ingest.titles import derive_title, title_key
from catalogue.ingest.state import STATE_FILE
from catalogue.system.workers import JOBS_VARIABLE

from conftest import PROJECT

HEADER = "ICLR 2025 Accepted Papers"
ABSTRACTS = [
    "We propose ZetaNet, a graph model for molecules. It is accurate.",
    "We introduce Beta Gamma Search (BGS), a search method for policies. It finds reward.",
    "Polytrees are useful. We devise an algorithm that finds the optimal polytree quickly.",
    "We present ThetaNet, a system for scenes. It is different.",
]


def make_seeds(folder: Path, abstracts: list[str], name: str = "000_list.txt", header: str = HEADER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


@pytest.fixture
def project(tmp_path):
    (tmp_path / "content").mkdir()
    shutil.copy(PROJECT / "content" / "topics.yaml", tmp_path / "content" / "topics.yaml")
    return tmp_path


def slugs_by_id(content: Path) -> dict[str, str]:
    return {paper.id: paper.slug for paper in read_papers(content).values()}


def test_every_paragraph_becomes_a_paper_with_a_readable_unique_slug(project):
    make_seeds(project / "seeds", ABSTRACTS)
    report = ingest(project / "seeds", project / "content")
    papers = {p.id: p for p in read_papers(project / "content").values()}
    assert report.papers == report.added == 4
    assert papers[paper_id(ABSTRACTS[0])].slug == "zetanet"
    assert papers[paper_id(ABSTRACTS[1])].slug == "bgs"
    assert papers[paper_id(ABSTRACTS[2])].slug == "algorithm-finds-optimal-polytree"  # no name: the derived title
    assert all(p.venue == "ICLR" and p.year == 2025 for p in papers.values())
    assert (project / "content" / "papers" / "zetanet.md").exists()


def test_a_name_clash_gets_part_of_the_id(project):
    twin = "We present ZetaNet, a second system that shares a name. It is different."
    make_seeds(project / "seeds", [ABSTRACTS[0], twin])
    ingest(project / "seeds", project / "content")
    slugs = sorted(slugs_by_id(project / "content").values())
    assert slugs[0] == "zetanet" and slugs[1].startswith("zetanet-") and len(slugs[1]) == len("zetanet-") + 6


def test_slugs_are_stable_when_seeds_are_reordered_rerun_or_extended(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    before = slugs_by_id(project / "content")

    make_seeds(project / "seeds", list(reversed(ABSTRACTS)))
    ingest(project / "seeds", project / "content")
    assert slugs_by_id(project / "content") == before

    make_seeds(project / "seeds", ["We propose AlphaZed, a new thing. It works."] + ABSTRACTS)
    report = ingest(project / "seeds", project / "content")
    after = slugs_by_id(project / "content")
    assert report.added == 1 and {k: after[k] for k in before} == before


def test_same_slugs_whatever_the_seed_order_on_a_fresh_content_folder(tmp_path):
    results = []
    for order, abstracts in enumerate([ABSTRACTS, list(reversed(ABSTRACTS))]):
        root = tmp_path / str(order)
        (root / "content").mkdir(parents=True)
        shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
        make_seeds(root / "seeds", abstracts)
        ingest(root / "seeds", root / "content")
        results.append(slugs_by_id(root / "content"))
    assert results[0] == results[1]


def test_reingest_keeps_hand_edits(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    path = project / "content" / "papers" / "zetanet.md"
    text = path.read_text(encoding="utf-8")
    edited = re.sub(r"(?m)^title: .*$", "title: 'ZetaNet: Graphs for Chemistry'", text)
    edited = edited.replace("venue: ICLR", "authors:\n- Ada Lovelace\n- Alan Turing\nvenue: ICLR")
    assert edited != text
    path.write_text(edited, encoding="utf-8")

    report = ingest(project / "seeds", project / "content")
    paper = read_papers(project / "content")[path]
    assert paper.title == "ZetaNet: Graphs for Chemistry" and paper.title_source == "edited"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert report.kept_edits == 1

    ingest(project / "seeds", project / "content")  # and again: still there
    assert read_papers(project / "content")[path].title == "ZetaNet: Graphs for Chemistry"


def test_unedited_derived_fields_follow_the_seeds(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    make_seeds(project / "seeds", ABSTRACTS, header="NeurIPS 2024")  # the list's header was wrong
    ingest(project / "seeds", project / "content")
    assert {p.venue for p in read_papers(project / "content").values()} == {"NeurIPS"}


def test_a_renamed_slug_belongs_to_the_paper(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    path = project / "content" / "papers" / "bgs.md"
    path.write_text(path.read_text(encoding="utf-8").replace("slug: bgs", "slug: beta-gamma-search"), "utf-8")
    ingest(project / "seeds", project / "content")
    assert slugs_by_id(project / "content")[paper_id(ABSTRACTS[1])] == "beta-gamma-search"


def test_duplicates_within_and_across_files_are_one_paper_and_reported(project):
    seeds = project / "seeds"
    make_seeds(seeds, [ABSTRACTS[0], ABSTRACTS[1], "  " + ABSTRACTS[0].replace(" ", "  ")], name="000_a.txt")
    make_seeds(seeds, [ABSTRACTS[1]], name="001_b.txt")
    report = ingest(seeds, project / "content")
    assert report.papers == 2
    duplicates = [str(p) for p in report.problems if "same abstract" in p.message]
    assert len(duplicates) == 2
    assert any("000_a.txt:7" in d and "000_a.txt:3" in d for d in duplicates)
    assert any("001_b.txt:3" in d and "000_a.txt:5" in d for d in duplicates)


def test_a_paper_gone_from_the_seeds_is_kept_and_marked_until_pruned(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    path = project / "content" / "papers" / "zetanet.md"
    make_seeds(project / "seeds", ABSTRACTS[1:])
    report = ingest(project / "seeds", project / "content")
    assert any("zetanet.md" in str(p) and "not in any seed" in p.message for p in report.problems)
    assert read_papers(project / "content")[path].in_seeds is False
    assert "in_seeds: false" in path.read_text(encoding="utf-8")

    make_seeds(project / "seeds", ABSTRACTS)  # back in the list: the mark goes
    ingest(project / "seeds", project / "content")
    assert read_papers(project / "content")[path].in_seeds is True

    make_seeds(project / "seeds", ABSTRACTS[1:])
    report = ingest(project / "seeds", project / "content", prune=True, allow_removals=True)
    assert not path.exists() and report.pruned == 1
    assert len(read_papers(project / "content")) == 3


def test_math_problems_are_reported_with_seed_file_and_line(project):
    make_seeds(project / "seeds", ["We study a lone $ sign in text. It is odd."])
    report = ingest(project / "seeds", project / "content")
    assert [str(p.source) for p in report.problems if "unbalanced" in p.message] == ["seeds/000_list.txt:3"]


def test_reingesting_unchanged_seeds_rewrites_nothing(project):
    make_seeds(project / "seeds", ABSTRACTS)
    ingest(project / "seeds", project / "content")
    files = sorted((project / "content" / "papers").glob("*.md"))
    stamps = [f.stat().st_mtime_ns for f in files]
    report = ingest(project / "seeds", project / "content")
    assert report.added == report.updated == 0
    assert [f.stat().st_mtime_ns for f in files] == stamps


OPENING = "Reinforcement learning from human feedback for language models is popular."
SAME_OPENING = [f"{OPENING} Rewards get hacked.",
                f"{OPENING} Labels are costly.",
                f"{OPENING} Longer answers win.",
                f"{OPENING} Labels disagree."]


def titles_by_abstract(content: Path) -> dict[str, str]:
    return {paper.abstract: paper.title for paper in read_papers(content).values()}


def test_papers_of_one_venue_year_get_distinct_derived_titles(project):
    """Abstracts opening with one field phrase derive one title: the first in the seeds keeps it, a later
    one of the venue-year takes its next-best title, one of another venue-year and a given title keep theirs."""
    same = derive_title(SAME_OPENING[0], None)
    assert all(derive_title(abstract, None) == same for abstract in SAME_OPENING)
    records = [{"abstract": SAME_OPENING[0], "venue": "COLM", "year": 2024},
               {"abstract": SAME_OPENING[1], "venue": "COLM", "year": 2024},
               {"abstract": SAME_OPENING[2], "venue": "COLM", "year": 2024, "title": same.upper()},
               {"abstract": SAME_OPENING[3], "venue": "COLM", "year": 2025}]
    (project / "seeds").mkdir()
    (project / "seeds" / "colm.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ingest(project / "seeds", project / "content")
    titles = titles_by_abstract(project / "content")
    first, later, given, other_year = (titles[abstract] for abstract in SAME_OPENING)
    assert first == other_year == same and given == same.upper()
    assert title_key(later) != title_key(same) and later.startswith("Reinforcement Learning")
    files = sorted((project / "content" / "papers").glob("*.md"))
    stamps = [f.stat().st_mtime_ns for f in files]
    report = ingest(project / "seeds", project / "content")
    assert report.added == report.updated == 0
    assert [f.stat().st_mtime_ns for f in files] == stamps
    edited = next(f for f in files if f"\ntitle: {later}\n" in f.read_text(encoding="utf-8"))
    edited.write_text(edited.read_text(encoding="utf-8").replace(later, same), encoding="utf-8")  # a person's choice
    ingest(project / "seeds", project / "content")
    assert titles_by_abstract(project / "content")[SAME_OPENING[1]] == same


def test_papers_sharing_a_name_and_the_start_of_their_id_get_distinct_slugs():
    """Found at 100,000 papers: two FlashOptim papers whose ids both begin 4ed4dd shared one file."""
    from catalogue.ingest.identity import choose_slug
    from catalogue.markup.convert import TextConverter
    from catalogue.model import Paper, Source

    taken: set[str] = set()
    slugs = []
    for pid in ("4ed4dd81c49a", "4ed4ddde466b", "4ed4dd81c4ff", "0123456789ab"):
        paper = Paper(id=pid, slug="", title="FlashOptim: a title", abstract="x", source=Source("s.txt", 1),
                      name="FlashOptim")
        slugs.append(choose_slug(paper, pid, taken, TextConverter()))
        taken.add(slugs[-1])
    assert slugs == ["flashoptim", "flashoptim-4ed4dd", "flashoptim-4ed4dd81", "flashoptim-012345"]


def test_the_committed_content_is_what_ingest_derives_from_the_seeds(tmp_path):
    """content/ is committed: when the extractor changes, the derived fields of the seeds' papers
    must be derived again and committed with it, or the repository shows a stale catalogue."""
    shutil.copytree(PROJECT / "content", tmp_path / "content")

    def committed() -> dict[str, bytes]:  # the paper files and ingest's record of what it derived
        content = tmp_path / "content"
        return {f.relative_to(content).as_posix(): f.read_bytes()
                for f in [*(content / "papers").glob("*.md"), content / STATE_FILE]}
    before = committed()
    ingest(PROJECT / "seeds", tmp_path / "content")
    after = committed()
    stale = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    assert len(before) == 39 and not stale, (
        f"content/ differs from what `python3 build.py ingest` derives now: {stale}; run it and commit content/")


# An acronym no corpus writes (not in the shipped list): only the venue-year can tell it is the field's.
FIELD_TERM = "We propose a spectral hop network (SHN) for designing molecules. The SHN is trained on drug data."
WRITING_SHN = ["Training an SHN is unstable; we study why mode collapse occurs in practice.",
               "We compare SHNs with diffusion models on image synthesis benchmarks.",
               "An SHN discriminator can detect forged medical scans, we show, with high recall."]
# A term the corpus's venue-years write: the field's in a list of one paper too.
SHIPPED_TERM = ("We propose a generative adversarial network (GAN) for designing molecules. "
                "The GAN is trained on drug data.")


def papers_by_abstract(content: Path) -> dict[str, object]:
    return {paper.abstract: paper for paper in read_papers(content).values()}


def test_a_name_other_papers_of_the_venue_year_write_is_the_fields_not_the_papers(project):
    make_seeds(project / "seeds", [FIELD_TERM, ABSTRACTS[0]], name="alone.txt", header="ICML 2020")
    ingest(project / "seeds", project / "content")
    alone = papers_by_abstract(project / "content")[FIELD_TERM]
    assert alone.name == "SHN" and alone.title.startswith("SHN: ")  # read alone, the abstract seems to name it

    (project / "seeds" / "alone.txt").unlink()
    make_seeds(project / "seeds", [FIELD_TERM, *WRITING_SHN, ABSTRACTS[0]], name="icml.txt", header="ICML 2020")
    ingest(project / "seeds", project / "content")
    papers = papers_by_abstract(project / "content")
    assert papers[FIELD_TERM].name is None
    assert papers[FIELD_TERM].title == alone.title.removeprefix("SHN: ")  # the same phrase, without the term
    assert papers[ABSTRACTS[0]].name == "ZetaNet"  # a name only its own abstract writes is kept


def test_only_the_papers_of_the_same_venue_year_make_a_name_the_fields(project):
    make_seeds(project / "seeds", [FIELD_TERM], name="icml.txt", header="ICML 2020")
    make_seeds(project / "seeds", WRITING_SHN, name="neurips.txt", header="NeurIPS 2020")
    ingest(project / "seeds", project / "content")
    assert papers_by_abstract(project / "content")[FIELD_TERM].name == "SHN"


def test_a_term_many_venue_years_write_is_the_fields_in_a_list_of_one_paper(project):
    make_seeds(project / "seeds", [SHIPPED_TERM], name="icml.txt", header="ICML 2020")
    ingest(project / "seeds", project / "content")
    paper = papers_by_abstract(project / "content")[SHIPPED_TERM]
    assert paper.name is None and not paper.title.startswith("GAN")


@pytest.mark.parametrize("header, name", [("NeurIPS 2013", "SVRG"), ("ICML 2014", None), ("ICML 2016", None)])
def test_a_paper_older_than_a_terms_first_use_may_have_coined_it(project, header, name):
    abstract = ("We introduce stochastic variance reduced gradient (SVRG), an explicit variance reduction method "
                "for stochastic gradient descent. SVRG enjoys the same fast convergence rate as dual methods.")
    make_seeds(project / "seeds", [abstract], name="list.txt", header=header)
    ingest(project / "seeds", project / "content")
    assert papers_by_abstract(project / "content")[abstract].name == name


def test_a_field_acronym_spelled_out_in_other_words_is_the_papers_name(project):
    """'Markov random field (MRF)' is the field's; 'Misinfo Reaction Frames (MRF)' names what a paper coins."""
    coined = ("We propose Misinfo Reaction Frames (MRF), a pragmatic formalism for news headlines. "
              "MRF captures how readers react to misinformation.")
    field = ("We propose a Markov random field (MRF) for segmenting scans. The MRF is fitted by belief propagation.")
    make_seeds(project / "seeds", [coined, field], name="list.txt", header="ACL 2022")
    ingest(project / "seeds", project / "content")
    papers = papers_by_abstract(project / "content")
    assert papers[coined].name == "MRF" and papers[field].name is None


def test_the_shipped_field_terms_hold_the_fields_terms_and_no_seeds_name():
    known = shipped_terms()
    assert {"CNN", "GAN", "MCMC", "EM", "SVM", "ImageNet"} <= known.keys()
    seed_names = {paper.name for paper in read_papers(PROJECT / "content").values() if paper.name}
    assert seed_names and not seed_names & known.keys()


def test_a_known_term_is_judged_by_the_papers_year_and_its_spelling_out():
    known = {"ABC": FieldTerm(since=2015, expansions=frozenset({"approximate bayesian computation"}))}
    paper = Paper(id="p", slug="", title="", abstract="", source=Source("seeds"), year=2020)
    assert is_known_term("ABC", paper, "We use approximate Bayesian computations (ABC).", known)
    assert is_known_term("ABC", paper, "ABC is used.", known)
    assert not is_known_term("ABC", paper, "We propose Adaptive Box Clipping (ABC).", known)
    assert is_known_term("ABC", replace(paper, year=2015), "ABC is used.", known)
    assert not is_known_term("ABC", replace(paper, year=2014), "ABC is used.", known)
    assert not is_known_term("XYZ", paper, "XYZ is used.", known)


def test_content_files_are_the_same_written_by_workers_or_one_process(tmp_path, monkeypatch):
    """write_papers hands the writing to forked workers when there are many papers: the files, the
    record of what was derived and the counts are those one process writes, for new papers and for
    papers merged again with a hand edit."""
    import catalogue.ingest.merge as merge

    def run(root: Path, parallel: bool) -> tuple[dict[str, bytes], tuple]:
        monkeypatch.setattr(merge, "PARALLEL_FROM", 1 if parallel else 10**9)
        monkeypatch.setattr(merge, "WRITE_CHUNK", 3)
        monkeypatch.setenv(JOBS_VARIABLE, "2")
        shutil.copytree(PROJECT / "seeds", root / "seeds")
        (root / "content").mkdir(parents=True)
        shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
        first = ingest(root / "seeds", root / "content", today="2026-01-02")
        edited = sorted((root / "content" / "papers").glob("*.md"))[3]
        edited.write_text(re.sub(r"(?m)^title: .*$", "title: A Title Edited By Hand", edited.read_text("utf-8")), "utf-8")
        # no cache: every paper merged again; the edited one is written again, marked as edited
        second = ingest(root / "seeds", root / "content", today="2026-01-03")
        files = {path.relative_to(root).as_posix(): path.read_bytes()
                 for path in sorted((root / "content").rglob("*")) if path.is_file() and ".cache" not in path.parts}
        return files, tuple((report.papers, report.added, report.updated, report.kept_edits) for report in (first, second))

    files, counts = run(tmp_path / "workers", True)
    serial_files, serial_counts = run(tmp_path / "serial", False)
    assert counts == serial_counts and counts[0][1] == counts[0][0] > 30 and counts[1][2] == counts[1][3] == 1
    assert files.keys() == serial_files.keys() and STATE_FILE in {Path(name).name for name in files}
    assert [name for name in files if files[name] != serial_files[name]] == []
    assert sum(b"A Title Edited By Hand" in data for data in files.values()) == 1
