"""User mistakes and hostile seed folders: ingest reads only what it should, never loses a paper
without being told to, and says what it did in one escaped line each.

Each scenario runs the command line on a scratch project and compares every file of content/
before and after (content/.cache, the git-ignored cache that is safe to delete, aside)."""

import codecs
import contextlib
import difflib
import os
import random
import re
import shutil
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.ingest import merge as merge_module
from catalogue.ingest.snapshot import RECORD_FILE
from catalogue.text import TERMINAL_UNSAFE, printable
from catalogue.cli import main
from catalogue.content.papers import read_papers
from catalogue.ingest.corrections import alike_pairs
from catalogue.model import Problem, Source
from catalogue.system.notes import NOTES_PER_KIND, note_lines
from catalogue.ingest.seed_files import MAX_SEED_BYTES, decode_seed_bytes
from conftest import PROJECT

HEADER = "ICLR 2025 Accepted Papers"
TOPICS = ["graphs of molecules", "policies that seek reward", "polytrees learned quickly", "scenes seen from cameras",
          "proteins that fold", "speech in noisy rooms", "tables with missing cells", "robots that grasp objects",
          "text written by students", "weather over oceans", "code that compiles", "maps drawn from satellites"]
ABSTRACTS = [f"We propose Model{chr(65 + i)}Net, a method for {topic}. It improves accuracy on {i + 3} benchmarks "
             f"and runs in linear time." for i, topic in enumerate(TOPICS)]


def write_seeds(seeds: Path, abstracts: list[str], name: str = "list.txt", header: str = HEADER) -> None:
    seeds.mkdir(parents=True, exist_ok=True)
    (seeds / name).write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


def new_project(root: Path, abstracts: list[str] = ABSTRACTS[:4]) -> Path:
    (root / "content").mkdir(parents=True)
    shutil.copy(PROJECT / "content" / "topics.yaml", root / "content" / "topics.yaml")
    write_seeds(root / "seeds", abstracts)
    return root


def ingest(root: Path, *args: str, seeds: Path | None = None, cwd: Path | None = None):
    """The `ingest` command on root's folders, run from `cwd` (root: a user in the project); the click Result."""
    with contextlib.chdir(cwd or root):
        return CliRunner().invoke(main, ["ingest", "--seeds", str(seeds or root / "seeds"), "--content",
                                         str(root / "content"), *args])


@pytest.fixture
def project(tmp_path):
    """A catalogue of four papers, ingested once."""
    root = new_project(tmp_path / "p")
    assert ingest(root).exit_code == 0
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    """The content folder's files but ingest's record of its last run (which names the seeds it read)."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and ".cache" not in path.relative_to(folder).parts and path.name != RECORD_FILE}


def reference(tmp_path: Path, abstracts: list[str], header: str = HEADER) -> dict[str, bytes]:
    """content/ as a fresh project with these seeds (a plain UTF-8 list.txt) gets it."""
    root = new_project(tmp_path / "reference", abstracts)
    write_seeds(root / "seeds", abstracts, header=header)
    assert ingest(root).exit_code == 0
    return snapshot(root / "content")


def printed_safely(output: str) -> bool:
    return not TERMINAL_UNSAFE.search(output.replace("\n", ""))


# --- A seeds folder that is not one: refused before anything is written -----------------------

SEED_KINDS = "*.txt, *.jsonl, *.json, *.csv, *.tsv, *.bib"


@pytest.mark.parametrize("make_seeds, code, error", [
    (lambda root: root / "seedz", 1, "{seeds}: no such file or folder; check --seeds (nothing was read or written)"),
    (lambda root: (root / "notes.md").write_text("# hi\n") and root / "notes.md", 1,
     "{seeds}: not a seed list (" + SEED_KINDS + ") nor a folder of them; check --seeds (nothing was read or written)"),
    (lambda root: (root / "empty").mkdir() or root / "empty", 1,
     "{seeds}: no seed files (" + SEED_KINDS + ") in this folder; check --seeds (nothing was read or written)"),
    (lambda root: ((root / "notes").mkdir(), (root / "notes" / "a.md").write_text("# hi\n")) and root / "notes", 1,
     "{seeds}: no seed files (" + SEED_KINDS + ") in this folder; check --seeds (nothing was read or written)"),
], ids=["missing", "not-a-seed-file", "empty", "only-markdown"])
@pytest.mark.parametrize("command", ["ingest", "build"])
def test_a_mistyped_or_empty_seeds_folder_stops_before_anything_is_written(project, make_seeds, code, error, command):
    seeds = make_seeds(project)
    before = snapshot(project / "content")
    out = ["--out", str(project / "site"), "--no-search"] if command == "build" else []
    result = CliRunner().invoke(main, [command, "--seeds", str(seeds), "--content", str(project / "content"), *out])
    assert result.exit_code == code
    assert [line for line in result.output.splitlines() if line.startswith("Error: ")] == \
        ["Error: " + error.format(seeds=seeds.as_posix())]
    assert snapshot(project / "content") == before
    assert not (project / "site").exists()


# --- Removals need --allow-removals --------------------------------------------------------

def test_prune_without_the_flag_lists_what_it_would_remove_and_changes_nothing(project):
    write_seeds(project / "seeds", ABSTRACTS[:2])
    before = snapshot(project / "content")
    result = ingest(project, "--prune")
    assert result.exit_code == 1
    gone = sorted(name for name in before if name.startswith("papers/") and
                  any(f"{name}" in line for line in result.output.splitlines()))
    assert gone == ["papers/modelcnet.md", "papers/modeldnet.md"]
    assert "ingest --prune would remove 2 of 4 papers" in result.output and "--allow-removals" in result.output
    assert snapshot(project / "content") == before


def test_prune_with_the_flag_moves_papers_to_the_trash_from_where_they_can_be_restored(project, tmp_path):
    content = project / "content"
    original = snapshot(content)
    write_seeds(project / "seeds", ABSTRACTS[:2])
    result = ingest(project, "--prune", "--allow-removals")
    assert result.exit_code == 0, result.output
    trash = content / ".trash"
    [folder] = list(trash.iterdir())
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ", folder.name)
    after = snapshot(content)
    moved = {f"papers/{name}" for name in ("modelcnet.md", "modeldnet.md")}
    assert {name for name in after if not name.startswith(".trash/")} == set(original) - moved
    assert {name.split("/", 2)[2]: data for name, data in after.items() if name.startswith(".trash/")} == \
        {name: original[name] for name in moved}  # the files as they were, whole
    assert f"moved to {(folder / 'papers' / 'modelcnet.md').as_posix()}" in result.output
    assert "to restore one, move it back into" in result.output
    assert "2 pruned" in result.output

    # Restoring: the seeds back, the files moved back, ingest again: content/ as it was.
    write_seeds(project / "seeds", ABSTRACTS[:4])
    for path in (folder / "papers").iterdir():
        path.rename(content / "papers" / path.name)
    shutil.rmtree(trash)
    assert ingest(project).exit_code == 0
    assert snapshot(content) == original


@pytest.mark.parametrize("kept, refused", [(1, True), (5, True), (6, False), (12, False)])
def test_marking_more_than_half_of_the_catalogue_gone_needs_the_flag(tmp_path, kept, refused):
    root = new_project(tmp_path / "p", ABSTRACTS)
    assert ingest(root).exit_code == 0
    write_seeds(root / "seeds", ABSTRACTS[:kept])
    before = snapshot(root / "content")
    result = ingest(root)
    gone = 12 - kept
    if refused:
        assert result.exit_code == 1
        assert f"would mark {gone} of 12 papers as no longer in the seeds" in result.output
        listed = re.findall(r"^  (\S+\.md)$", result.output, re.M)
        assert len(listed) == min(gone, 10) and all("papers/model" in path for path in listed)
        assert ("... and 1 more" in result.output) == (gone == 11)
        assert snapshot(root / "content") == before
        result = ingest(root, "--allow-removals")
    assert result.exit_code == 0, result.output
    after = snapshot(root / "content")
    marked = {name for name in after if after[name] != before[name]}
    papers = read_papers(root / "content")
    assert {p.slug for p in papers.values() if not p.in_seeds} == {f"model{chr(97 + i)}net" for i in range(kept, 12)}
    assert marked == {f"papers/model{chr(97 + i)}net.md" for i in range(kept, 12)}
    assert set(after) == set(before)


# --- Files that are not text ------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" + bytes(range(256)) * 20,
     "not a text file (looks like a PDF)"),
    (b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)) * 4, "not a text file (looks like a zip archive"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "not a text file (looks like a PNG image)"),
    (random.Random(17).randbytes(8192), "not a text file (binary data: it holds NUL bytes"),
    (bytes(random.Random(3).choice(range(1, 32)) for _ in range(4000)), "not a text file (binary data: many control"),
    ("ICML 2026\n\nWe propose Ein, a model. ".encode("utf-16-le"), "not a text file (binary data: it holds NUL bytes; "
                                                                 "UTF-16 needs a byte-order mark)"),
])
def test_a_binary_file_saved_as_txt_is_skipped_with_one_line(project, data, message):
    (project / "seeds" / "paper.txt").write_bytes(data)
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.output.splitlines() if "paper.txt" in line]
    assert line.startswith(f"seeds/paper.txt: {message}") and line.endswith("; skipped")
    assert snapshot(project / "content") == before
    assert printed_safely(result.output)


@pytest.mark.parametrize("encode", [
    lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),  # Notepad's "Unicode"
    lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    lambda text: codecs.BOM_UTF32_LE + text.encode("utf-32-le"),
    lambda text: text.replace("\n", "\r\n").encode("utf-8"),
], ids=["utf-16-le", "utf-16-be", "utf-8-bom", "utf-32-le", "crlf"])
def test_text_in_any_unicode_encoding_with_a_byte_order_mark_reads_as_utf8_does(tmp_path, encode):
    expected = reference(tmp_path, ABSTRACTS[:3])
    root = new_project(tmp_path / "p", ABSTRACTS[:3])
    (root / "seeds" / "list.txt").write_bytes(encode(HEADER + "\n\n" + "\n\n".join(ABSTRACTS[:3]) + "\n"))
    result = ingest(root)
    assert result.exit_code == 0 and "3 papers: 3 new" in result.output, result.output
    assert snapshot(root / "content") == expected


def test_a_seed_extension_matches_in_any_case(tmp_path):
    root = new_project(tmp_path / "p", ABSTRACTS[:3])
    (root / "seeds" / "list.txt").rename(root / "seeds" / "LIST.TXT")
    result = ingest(root)
    assert result.exit_code == 0 and "3 papers: 3 new" in result.output, result.output
    papers = read_papers(root / "content")
    assert sorted(str(p.source) for p in papers.values()) == ["seeds/LIST.TXT:3", "seeds/LIST.TXT:5",
                                                              "seeds/LIST.TXT:7"]


def test_control_characters_never_reach_the_terminal(project):
    (project / "seeds" / "more.txt").write_text(
        f"{HEADER}\n\nWe propose EscNet, a model \x1b[31mred\x1b[0m for \x07 bells and \x9b text. It works.\n",
        encoding="utf-8")
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 0, result.output
    assert "seeds/more.txt:3: control characters were replaced by '\ufffd'" in result.output.splitlines()
    assert printed_safely(result.output) and "\x1b" not in result.output
    after = snapshot(project / "content")
    [new] = set(after) - set(before)
    assert new == "papers/escnet.md" and "\x1b" not in after[new].decode() and "\ufffd[31mred" in after[new].decode()


def test_notes_are_capped_per_file_and_kind(project):
    (project / "seeds" / "junk.txt").write_text(HEADER + "\n\n" + "\n\n".join(f"row {i}" for i in range(10_000)),
                                                encoding="utf-8")
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "junk.txt" in line]
    assert lines == [f"seeds/junk.txt:{3 + 2 * i}: too short to be an abstract (2 words); skipped"
                     for i in range(NOTES_PER_KIND)] + ["seeds/junk.txt: ... and 9990 more of this kind"]
    assert "10000 notes" in result.output  # all are counted
    assert snapshot(project / "content") == before


# --- Only regular files inside the seeds folder -------------------------------------------

@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "../content/topics.yaml"])
def test_a_link_to_a_file_outside_the_seeds_folder_is_refused(project, target):
    (project / "seeds" / "p.txt").symlink_to(target)
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 0, result.output
    assert ("seeds/p.txt: a link to a file outside seeds/; copy the file there instead of linking to it. Skipped"
            in result.output.splitlines())
    assert snapshot(project / "content") == before
    assert "root:" not in result.output


def test_a_link_to_a_file_inside_the_seeds_folder_is_read(tmp_path):
    expected = reference(tmp_path, ABSTRACTS[:2])
    root = new_project(tmp_path / "p", ABSTRACTS[:2])
    (root / "seeds" / "archive").mkdir()
    (root / "seeds" / "list.txt").rename(root / "seeds" / "archive" / "list.2025")
    (root / "seeds" / "list.txt").symlink_to("archive/list.2025")
    result = ingest(root)
    assert result.exit_code == 0 and "2 papers: 2 new" in result.output, result.output
    assert snapshot(root / "content") == expected  # named as the link: seeds/list.txt


def run_in_thread(function):
    """function() in a thread; its result, or AssertionError if it is still waiting (a hang) after a minute."""
    result = []
    thread = threading.Thread(target=lambda: result.append(function()), daemon=True)
    thread.start()
    thread.join(timeout=60)  # a safety net for a hang, not a speed limit
    assert not thread.is_alive(), "ingest is waiting on a special file"
    return result[0]


@pytest.mark.parametrize("make, message", [
    (os.mkfifo, "not a regular file (a pipe, socket or device); skipped"),
    (os.mkdir, "a folder, not a seed file; skipped"),
    (lambda path: path.symlink_to("archive"), "a folder, not a seed file; skipped"),
    (lambda path: path.symlink_to("missing.dat"), "cannot be read (No such file or directory); skipped"),
    (lambda path: path.symlink_to("x.txt"), "cannot be read (Too many levels of symbolic links); skipped"),
    (lambda path: path.write_bytes(b"") or os.truncate(path, MAX_SEED_BYTES + 1), "larger than 50 MB; split it into "
                                                                          "smaller lists. Skipped"),
], ids=["fifo", "folder", "link-to-folder", "dangling-link", "link-loop", "too-large"])
def test_special_files_named_txt_are_never_opened(project, make, message):
    (project / "seeds" / "archive").mkdir()
    make(project / "seeds" / "x.txt")
    before = snapshot(project / "content")
    result = run_in_thread(lambda: ingest(project))
    assert result.exit_code == 0, result.output
    assert f"seeds/x.txt: {message}" in result.output.splitlines()
    assert snapshot(project / "content") == before


def test_a_build_is_not_stopped_by_a_fifo_or_a_link_to_dev_zero(project):
    os.mkfifo(project / "seeds" / "pipe.txt")
    (project / "seeds" / "zero.txt").symlink_to("/dev/zero")
    args = ["build", "--seeds", str(project / "seeds"), "--content", str(project / "content"),
            "--out", str(project / "site"), "--no-search"]
    result = run_in_thread(lambda: CliRunner().invoke(main, args))
    assert result.exit_code == 0, result.output
    assert "Built 4 papers" in result.output
    (project / "seeds" / "README.md").write_text("Where these lists come from.\n")  # not a seed file
    again = run_in_thread(lambda: CliRunner().invoke(main, args))  # the fingerprint reads what ingest reads
    assert again.exit_code == 0 and "Up to date" in again.output


def test_a_seed_file_named_with_a_line_break_is_skipped(project):
    write_seeds(project / "seeds", ABSTRACTS[4:6], name="new\nlist.txt")
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 0, result.output
    assert ("seeds/new\\nlist.txt: the file name holds a control character (such as a line break); rename the file. "
            "Skipped") in result.output.splitlines()
    assert snapshot(project / "content") == before


def test_seeds_outside_the_project_publish_no_absolute_path(tmp_path):
    root = new_project(tmp_path / "p", ABSTRACTS[:2])
    elsewhere = tmp_path / "elsewhere" / "lists"
    write_seeds(elsewhere, ABSTRACTS[:2])
    result = ingest(root, seeds=elsewhere)
    assert result.exit_code == 0, result.output
    files = snapshot(root / "content")
    assert all(str(tmp_path).encode() not in data for data in files.values())
    assert sorted(str(p.source) for p in read_papers(root / "content").values()) == ["seeds/list.txt:3",
                                                                                     "seeds/list.txt:5"]


def test_ctrl_c_during_ingest_leaves_every_content_file_whole(project, tmp_path, monkeypatch):
    old = snapshot(project / "content")
    write_seeds(project / "seeds", ABSTRACTS[:4], header="NeurIPS 2024")  # every paper's venue changes
    new = reference(tmp_path, ABSTRACTS[:4], header="NeurIPS 2024")
    writes = []

    def interrupted(path, text):
        if len(writes) == 2:
            raise KeyboardInterrupt
        writes.append(path)
        original(path, text)

    original = merge_module.write_text_atomic
    monkeypatch.setattr(merge_module, "write_text_atomic", interrupted)
    result = ingest(project)
    assert result.exit_code == 130 and "interrupted" in result.output
    after = snapshot(project / "content")
    assert set(after) == set(old)
    # A paper keeps the citation key its first ingest recorded (as it keeps its slug), so the year in
    # it stays 2025 where a fresh project's says 2024: files are compared without that line.
    whole = {name: "old" if data == old[name] else "new" if keyless(data) == keyless(new.get(name)) else "torn"
             for name, data in after.items() if name.startswith("papers/")}
    assert sorted(whole.values()) == ["new", "new", "old", "old"]

    monkeypatch.setattr(merge_module, "write_text_atomic", original)
    assert ingest(project).exit_code == 0
    done = snapshot(project / "content")
    assert {name: keyless(data) for name, data in done.items()} == {name: keyless(data) for name, data in new.items()}
    assert {name: CITE_KEY.findall(data) for name, data in done.items()} == \
        {name: CITE_KEY.findall(data) for name, data in old.items()}


CITE_KEY = re.compile(rb"^cite_key: .*$", re.M)


def keyless(data: bytes | None) -> bytes | None:
    return None if data is None else CITE_KEY.sub(b"", data)


# --- A corrected abstract keeps its paper ---------------------------------------------------

LONG = [
    "We propose ZetaNet, a graph neural network for molecules that predicts binding energies from the structure "
    "alone. On three public benchmarks it lowers the error by a third and it trains in under an hour.",
    "We introduce Beta Gamma Search (BGS), a tree search method for policies in sparse reward games. BGS expands "
    "the nodes that promise the most reward first and finds winning lines twice as often as earlier searches.",
    "We present ThetaNet, a system that reconstructs indoor scenes from a single moving camera in real time. "
    "It keeps a sparse map of surfaces and fills the gaps with a learned prior over rooms and furniture.",
]


def edit_title(content: Path, slug: str, title: str) -> None:
    path = content / "papers" / f"{slug}.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^title: .*$", f"title: {title}", text, count=1, flags=re.M), encoding="utf-8")


def test_a_typo_fixed_in_the_seeds_keeps_the_paper_and_its_edits(tmp_path):
    root = new_project(tmp_path / "p", LONG)
    assert ingest(root).exit_code == 0
    edit_title(root / "content", "zetanet", "ZetaNet, as the authors call it")
    before = {p.slug: p for p in read_papers(root / "content").values()}
    fixed = LONG[0].replace("lowers the error", "lowers the errors")
    write_seeds(root / "seeds", [fixed, *LONG[1:]])
    result = ingest(root)
    assert result.exit_code == 0, result.output
    old = before["zetanet"]
    assert f"seeds/list.txt:3: abstract changed slightly; kept as paper zetanet (id {old.id})" in result.output
    after = {p.slug: p for p in read_papers(root / "content").values()}
    assert set(after) == set(before) and all(p.in_seeds for p in after.values())
    assert after["zetanet"].id == old.id and after["zetanet"].abstract == fixed
    assert after["zetanet"].title == "ZetaNet, as the authors call it" and after["zetanet"].title_source == "edited"
    assert {slug: p for slug, p in after.items() if slug != "zetanet"} == \
        {slug: p for slug, p in before.items() if slug != "zetanet"}
    again = ingest(root)  # and again: the same paper, reported once
    assert again.exit_code == 0 and "changed slightly" not in again.output and "0 updated" in again.output
    assert {p.slug: p for p in read_papers(root / "content").values()} == after


def test_reordered_paragraphs_change_no_paper(tmp_path):
    root = new_project(tmp_path / "p", LONG)
    assert ingest(root).exit_code == 0
    before = {p.id: (p.slug, p.title) for p in read_papers(root / "content").values()}
    write_seeds(root / "seeds", list(reversed(LONG)))
    result = ingest(root)
    assert result.exit_code == 0 and "changed slightly" not in result.output and "3 papers: 0 new" in result.output
    assert {p.id: (p.slug, p.title) for p in read_papers(root / "content").values()} == before


def test_a_rewritten_abstract_is_a_new_paper_and_the_old_one_leaves(tmp_path):
    root = new_project(tmp_path / "p", LONG)
    assert ingest(root).exit_code == 0
    rewritten = ("We present OmegaNet, a language model for chemistry that reads papers and proposes syntheses. "
                 "Chemists preferred its routes in a blind study.")
    write_seeds(root / "seeds", [rewritten, *LONG[1:]])
    result = ingest(root)
    assert result.exit_code == 0 and "changed slightly" not in result.output
    papers = {p.slug: p for p in read_papers(root / "content").values()}
    assert papers["zetanet"].in_seeds is False and papers["omeganet"].in_seeds is True
    assert len(papers) == 4


def test_two_near_duplicates_corrected_at_once_each_keep_their_own_paper(tmp_path):
    first = LONG[0]
    second = LONG[0].replace("three public benchmarks", "four public benchmarks")
    root = new_project(tmp_path / "p", [first, second])
    assert ingest(root).exit_code == 0
    ids = {p.abstract: p.id for p in read_papers(root / "content").values()}
    fixed = [first.replace("an hour", "one hour"), second.replace("an hour", "one hour")]
    write_seeds(root / "seeds", list(reversed(fixed)))  # in another order too
    result = ingest(root)
    assert result.exit_code == 0 and result.output.count("changed slightly") == 2, result.output
    after = {p.abstract: p.id for p in read_papers(root / "content").values()}
    assert after == {fixed[0]: ids[first], fixed[1]: ids[second]}


# --- The pure parts -------------------------------------------------------------------------

@pytest.mark.parametrize("data, text", [
    (b"abc \xc3\xa9", "abc é"),
    (codecs.BOM_UTF8 + "é".encode(), "é"),
    (codecs.BOM_UTF16_LE + "é\n".encode("utf-16-le"), "é\n"),
    (codecs.BOM_UTF16_BE + "é\n".encode("utf-16-be"), "é\n"),
    (codecs.BOM_UTF32_LE + "é".encode("utf-32-le"), "é"),
    (codecs.BOM_UTF32_BE + "é".encode("utf-32-be"), "é"),
    (b"Caf\xe9 latin-1 in a long enough line of text", "Caf\ufffd latin-1 in a long enough line of text"),
    (b"a stray \x1b escape from a PDF", "a stray \x1b escape from a PDF"),  # replaced later, by line
    (b"", ""),
])
def test_text_is_decoded(data, text):
    assert decode_seed_bytes(data).text == text


@pytest.mark.parametrize("data, why", [
    (b"%PDF-1.4", "looks like a PDF"),
    (b"\xff\xd8\xff\xe0", "looks like a JPEG image"),
    (b"GIF89a", "looks like a GIF image"),
    (b"ab\x00cd", "NUL bytes"),
    (b"\x01" * 40 + b"a" * 100, "many control characters"),
    ("中文".encode("gb18030") * 50, "not UTF-8 text"),
])
def test_what_is_not_text_is_named(data, why):
    decoded = decode_seed_bytes(data)
    assert decoded.text is None and why in decoded.why_not


def test_note_lines_are_escaped_and_capped_per_file_and_kind():
    problems = [Problem(Source("seeds/a.txt", line), f"too short ({line} words); skipped") for line in range(1, 14)]
    problems += [Problem(Source("seeds/b.txt", 1), "no header"), Problem(Source("seeds/\x1b.txt"), "odd\nname")]
    lines = list(note_lines(problems))
    assert lines == [str(p) for p in problems[:10]] + ["seeds/a.txt: ... and 3 more of this kind",
                                                       "seeds/b.txt:1: no header", "seeds/\\x1b.txt: odd\\nname"]
    assert printable("\u202egnp.txt") == "\\u202egnp.txt"


def test_one_paper_continues_into_one_abstract_only(tmp_path):
    root = new_project(tmp_path / "p", LONG[:1])
    assert ingest(root).exit_code == 0
    [(path, old)] = read_papers(root / "content").items()
    closer = LONG[0].replace("an hour", "one hour")
    further = LONG[0].replace("an hour", "one hour").replace("a third", "one third")
    write_seeds(root / "seeds", [further, closer])
    result = ingest(root)
    assert result.exit_code == 0 and result.output.count("changed slightly") == 1, result.output
    papers = {p.abstract: p for p in read_papers(root / "content").values()}
    assert papers[closer].id == old.id and papers[closer].slug == old.slug
    assert papers[further].id != old.id and papers[further].slug != old.slug
    assert read_papers(root / "content")[path].abstract == closer


def test_a_build_that_would_mark_most_papers_gone_needs_the_flag(project):
    write_seeds(project / "seeds", ABSTRACTS[:1])
    before = snapshot(project / "content")
    args = ["build", "--seeds", str(project / "seeds"), "--content", str(project / "content"),
            "--out", str(project / "site"), "--no-search"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "would mark 3 of 4 papers as no longer in the seeds" in result.output
    assert snapshot(project / "content") == before and not (project / "site").exists()
    result = CliRunner().invoke(main, [*args, "--allow-removals"])
    assert result.exit_code == 0 and "Built 4 papers" in result.output, result.output
    assert sum(not p.in_seeds for p in read_papers(project / "content").values()) == 3


@pytest.mark.parametrize("seed", range(5))
def test_alike_pairs_finds_exactly_the_pairs_a_full_comparison_finds(seed):
    """The prefix filter only skips work: every pair at or above the threshold is found."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(30)]
    olds = {f"o{i}": [rng.choice(vocabulary) for _ in range(rng.randint(5, 40))] for i in range(40)}
    news = {}
    for i, words in enumerate(olds.values()):
        edited = list(words)
        for _ in range(rng.randint(0, 4)):  # replace, insert or delete a word
            place, word, kind = rng.randrange(len(edited)), rng.choice(vocabulary), rng.randrange(3)
            if kind == 0:
                edited[place] = word
            elif kind == 1:
                edited.insert(place, word)
            elif len(edited) > 1:
                del edited[place]
        news[f"n{i}"] = edited
    expected = [(ratio, new, old) for new in sorted(news) for old in sorted(olds)
                if (ratio := difflib.SequenceMatcher(None, olds[old], news[new], autojunk=False).ratio()) >= 0.9]
    assert len(expected) >= 10  # the table holds pairs to find
    assert sorted(alike_pairs(news, olds, 0.9)) == sorted(expected)


def test_a_refusal_names_the_seed_files_that_were_skipped(project):
    (project / "seeds" / "list.txt").write_bytes(b"%PDF-1.5\n" + bytes(range(256)))
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 1
    assert "would mark 4 of 4 papers as no longer in the seeds" in result.output
    seeds = (project / "seeds").as_posix()
    assert (f"Nothing was written. Check --seeds: {seeds}/ holds 1 seed file, and these were skipped:\n"
            "  seeds/list.txt: not a text file (looks like a PDF); skipped\n"
            "If the papers did leave the lists, run again with --allow-removals (they stay on the site, marked as "
            "gone); to take them out of content/ as well, run 'python3 build.py ingest --prune --allow-removals'.\n"
            in result.output)
    assert snapshot(project / "content") == before


def test_a_refusal_names_skipped_seed_files_outside_the_project_where_they_are(tmp_path):
    root = new_project(tmp_path / "p")
    outside = tmp_path / "exports"
    (root / "seeds").rename(outside)
    assert ingest(root, seeds=outside).exit_code == 0
    (outside / "list.txt").write_bytes(b"%PDF-1.5\n" + bytes(range(256)))
    before = snapshot(root / "content")
    result = ingest(root, seeds=outside)
    assert result.exit_code == 1
    assert f"\n  {(outside / 'list.txt').as_posix()}: not a text file (looks like a PDF); skipped\n" in result.output
    assert "seeds/list.txt" not in result.output  # the project's seeds/ holds no such file
    assert snapshot(root / "content") == before


def test_notes_on_seeds_outside_the_project_name_the_files_where_they_are(tmp_path):
    root = new_project(tmp_path / "p")
    outside = tmp_path / "exports"
    outside.mkdir()
    (outside / "latin1.txt").write_bytes(f"{HEADER}\n\nCaf\xe9 {ABSTRACTS[0]}\n".encode("latin-1"))
    result = ingest(root, seeds=outside)
    assert result.exit_code == 0, result.output
    assert f"{(outside / 'latin1.txt').as_posix()}:3: bytes that are not UTF-8" in result.output
    assert "seeds/latin1.txt" not in result.output  # the project's seeds/ holds no such file
    assert [paper.source.path for paper in read_papers(root / "content").values()] == ["seeds/latin1.txt"]


def test_notes_on_the_projects_own_seeds_name_the_files_from_the_working_directory(tmp_path):
    root = new_project(tmp_path / "p")
    (root / "seeds" / "latin1.txt").write_bytes(f"{HEADER}\n\nCaf\xe9 {ABSTRACTS[0]}\n".encode("latin-1"))
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "seeds").mkdir(parents=True)  # a seeds/ of the working directory that holds no such file
    result = ingest(root, cwd=elsewhere)
    assert result.exit_code == 0, result.output
    assert f"\n{(root / 'seeds' / 'latin1.txt').as_posix()}:3: bytes that are not UTF-8" in result.output
    assert "\nseeds/latin1.txt" not in result.output
    assert "seeds/latin1.txt" in [paper.source.path for paper in read_papers(root / "content").values()]


def test_the_summary_counts_one_paper_and_one_note_in_the_singular(tmp_path):
    root = new_project(tmp_path / "one", ABSTRACTS[:1])
    (root / "seeds" / "empty.txt").write_text("ICML 2026\n", encoding="utf-8")
    result = ingest(root)
    assert result.exit_code == 0
    assert "  1 paper: 1 new, 0 updated, 0 with hand edits kept, 0 pruned, 1 note\n" in result.output, result.output


def test_a_refusal_after_one_seed_file_names_that_file_as_a_file(project):
    (project / "other.txt").write_text("ICML 2026\n\n" + " ".join(["Another abstract about graphs"] * 5) + "\n",
                                       encoding="utf-8")
    before = snapshot(project / "content")
    result = ingest(project, seeds=project / "other.txt")
    assert result.exit_code == 1
    assert (f"Nothing was written. Check --seeds: {(project / 'other.txt').as_posix()} is the only seed file read.\n"
            in result.output)
    assert snapshot(project / "content") == before


@pytest.mark.parametrize("make, message", [
    (lambda path: os.mkfifo(path), "not a regular file; remove it (ingest writes it anew)"),
    (lambda path: path.write_text("[1, 2]"), "not a JSON object; remove it (ingest writes it anew)"),
    (lambda path: path.write_text("{"), "not valid JSON"),
], ids=["fifo", "list", "broken"])
def test_a_strange_derived_record_is_refused_not_waited_on(project, make, message):
    state = project / "content" / ".derived.json"
    state.unlink()
    make(state)
    before = {path: value for path, value in snapshot(project / "content").items() if path != ".derived.json"}
    result = ingest(project)
    assert result.exit_code == 1
    assert f"{state.as_posix()}: {message}" in result.output
    assert {path: value for path, value in snapshot(project / "content").items() if path != ".derived.json"} == before


@pytest.mark.parametrize("text", ['{"theme": "dark", "papers": 3}\n', '{"notes": {"count": 3}}\n'],
                         ids=["flat", "nested-number"])
def test_a_json_object_ingest_did_not_write_under_the_derived_records_name_is_kept(project, text):
    state = project / "content" / ".derived.json"
    state.write_text(text, encoding="utf-8")
    before = snapshot(project / "content")
    result = ingest(project)
    assert result.exit_code == 1
    assert f"{state.as_posix()}: not the record of derived fields ingest writes under this name" in result.output
    assert snapshot(project / "content") == before
