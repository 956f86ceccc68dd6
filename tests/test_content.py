import dataclasses
import re

import pytest

from catalogue.content.fields import BODY, DERIVED_FIELDS, KEYS
from catalogue.content.paper_file import parse_paper_markdown, read_paper, render_paper_markdown
from catalogue.content.papers import read_papers
from catalogue.errors import CatalogueError, ContentFileError
from catalogue.model import Link, Paper, Source
from catalogue.system.workers import JOBS_VARIABLE

PAPER = Paper(
    id="0123456789ab", slug="zeta-net", title="ZetaNet: A Graph Model: With Colons", name="ZetaNet",
    abstract="We propose ZetaNet, a model with $x^2$ and **bold** and 'quotes' and \"more\".",
    source=Source("seeds/000_a.txt", 7), other_names=("ZetaSet",), venue="ICML", year=2026,
    topics=("graphs", "optimization"), links=(Link("https://github.com/z/z", "Code"),),
    authors=("Ada Lovelace", "Alan Turing"), pdf="https://example.org/z.pdf",
)


def test_round_trip():
    assert parse_paper_markdown(render_paper_markdown(PAPER), "x.md") == PAPER


def test_round_trip_without_optional_fields():
    bare = Paper(id="0123456789ab", slug="bare", title="Bare", abstract="Text.", source=Source("s.txt", 3))
    text = render_paper_markdown(bare)
    assert "authors" not in text and "pdf" not in text
    assert parse_paper_markdown(text, "x.md") == bare


GIVEN = Paper(id="0123456789ab", slug="given", title="Given: A Title From the List", abstract="",
              source=Source("seeds/icml2019.json", record=12), title_source="given", authors=("Grace Hopper",),
              keywords=("compilers",), url="https://proceedings.example.org/given.html")


def test_round_trip_of_a_listed_paper_without_an_abstract():
    text = render_paper_markdown(GIVEN)
    assert "source: seeds/icml2019.json:record 12\n" in text and text.endswith("---\n")
    assert parse_paper_markdown(text, "x.md") == GIVEN


def test_an_empty_abstract_is_refused_when_the_title_was_derived_from_it():
    text = render_paper_markdown(GIVEN).replace("title_source: given", "title_source: derived")
    with pytest.raises(CatalogueError, match="abstract .* is empty, and the title was derived from it"):
        parse_paper_markdown(text, "x.md")


def replace_line(text: str, key: str, new_line: str) -> str:
    lines = [new_line if line.startswith(f"{key}:") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("venue: ICML", "venue: ICML\ncolour: blue"), "unknown front-matter key 'colour' ("),
    (lambda t: t.replace("venue: ICML", "vneue: ICML"), "unknown front-matter key 'vneue'; did you mean 'venue'?"),
    (lambda t: t.replace("\nsource:", "\ntitle: My Own Title\nsource:"),
     ":21: front-matter key 'title' is given twice (first on line 7); keep one"),
    (lambda t: t.replace("\nsource:", '\n"title": My Own Title\nsource:'),
     ":21: front-matter key 'title' is given twice (first on line 7); keep one"),
    (lambda t: t.replace("\ntitle:", "\n'title':").replace("\nsource:", "\ntitle: My Own Title\nsource:"),
     ":21: front-matter key 'title' is given twice (first on line 7); keep one"),
    (lambda t: t.replace("authors:\n- Ada Lovelace\n- Alan Turing", "authors: Ada Lovelace"),
     "'authors' must be a list of strings, like authors: [first, second], not 'Ada Lovelace'"),
    (lambda t: replace_line(t, "slug", "slug: Zeta Net"), "'slug' must be"),
    (lambda t: replace_line(t, "id", "id: 12"), "'id' must be"),
    (lambda t: replace_line(t, "year", "year: soon"), "'year' must be"),
    (lambda t: replace_line(t, "title", "title:"), "'title' is missing"),
    (lambda t: replace_line(t, "pdf", "pdf: javascript:alert(1)"), "'pdf' must be"),
    (lambda t: t.replace("url: https://github.com/z/z", "url: javascript:alert(1)"), "'links'"),
    (lambda t: t.replace("topics:", "topics: [unclosed"), "not valid YAML"),
    (lambda t: t.split("---\n\n")[0] + "---\n\n", "abstract"),
    (lambda t: t.replace("---\n", "", 1), "no front matter"),
])
def test_bad_front_matter_names_the_file_and_field(edit, message):
    with pytest.raises(CatalogueError) as error:
        parse_paper_markdown(edit(render_paper_markdown(PAPER)), "content/papers/zeta-net.md")
    assert re.match(r"content/papers/zeta-net\.md(:\d+)?: ", error.value.message)
    assert message in error.value.message



def test_a_content_file_that_is_not_utf8_names_its_line_and_the_fix(tmp_path):
    text = render_paper_markdown(PAPER).replace("We propose ZetaNet", "We propose Caf\u00e9Net")
    path = tmp_path / "zeta-net.md"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(CatalogueError) as error:
        read_paper(path)
    line = text.split("\n").index(next(l for l in text.split("\n") if "Caf" in l)) + 1
    assert error.value.message.startswith(f"{path.as_posix()}:{line}: not UTF-8 text (byte ")
    assert error.value.message.endswith("); save the file as UTF-8")


def test_problems_in_a_content_folder_are_headed_by_that_folder(tmp_path):
    folder = tmp_path / "my-catalogue"
    (folder / "papers").mkdir(parents=True)
    (folder / "papers" / "zeta-net.md").write_text(render_paper_markdown(PAPER).replace("venue:", "vneue:"),
                                                    encoding="utf-8")
    with pytest.raises(CatalogueError) as error:
        read_papers(folder)
    assert error.value.message.splitlines()[0] == f"{folder.as_posix()}/ has problems:"


def test_every_problem_of_a_file_is_reported_one_a_line():
    text = replace_line(replace_line(render_paper_markdown(PAPER), "year", "year: soon"), "slug", "slug: Zeta Net")
    with pytest.raises(ContentFileError) as error:
        parse_paper_markdown(text.replace("venue: ICML", "vneue: ICML"), "content/papers/zeta-net.md")
    lines = error.value.message.split("\n")
    assert [line.split(": ", 1)[0] for line in lines] == ["content/papers/zeta-net.md"] * 3
    assert "unknown front-matter key 'vneue'; did you mean 'venue'?" in lines[0]
    assert "front-matter key 'slug' must be" in lines[1] and "front-matter key 'year' must be" in lines[2]


def test_a_folder_lists_each_problem_of_a_file_on_its_own_line(tmp_path):
    (tmp_path / "papers").mkdir()
    text = replace_line(replace_line(render_paper_markdown(PAPER), "year", "year: soon"), "id", "id: 12")
    (tmp_path / "papers" / "zeta-net.md").write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError) as error:
        read_papers(tmp_path)
    problems = error.value.message.splitlines()[1:]
    assert len(problems) == 2 and all(line.startswith(f"  {tmp_path.as_posix()}/papers/zeta-net.md: front-matter "
                                                      "key '") for line in problems)


def test_the_field_table_names_every_field_of_a_paper_once():
    assert sorted(KEYS + (BODY,)) == sorted(field.name for field in dataclasses.fields(Paper))
    assert set(DERIVED_FIELDS) <= set(KEYS + (BODY,)) and len(set(KEYS)) == len(KEYS)


def test_many_files_read_on_every_core_as_one_process_reads_them(tmp_path, monkeypatch):
    """Past PARALLEL_FROM files, workers parse them: the same papers, and every file's problem, in order."""
    import catalogue.content.papers as papers_module
    folder = tmp_path / "content" / "papers"
    folder.mkdir(parents=True)
    count = papers_module.PARALLEL_FROM + 30
    for number in range(count):
        paper = dataclasses.replace(PAPER, id=f"{number:012x}", slug=f"paper-{number}", title=f"Paper {number}")
        (folder / f"paper-{number}.md").write_text(render_paper_markdown(paper), encoding="utf-8")
    for number in (7, count - 3):  # one early, one in the last chunk
        (folder / f"paper-{number}.md").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")

    def read(cores: int) -> tuple[dict, str]:
        monkeypatch.setenv(JOBS_VARIABLE, str(cores))
        try:
            return read_papers(tmp_path / "content"), ""
        except CatalogueError as error:
            return {}, error.message

    _, alone = read(1)
    _, shared = read(2)
    assert shared == alone and alone.count("front matter is not valid YAML") == 2
    for number in (7, count - 3):
        (folder / f"paper-{number}.md").unlink()
    papers_alone, _ = read(1)
    papers_shared, _ = read(2)
    assert papers_shared == papers_alone and len(papers_alone) == count - 2
    assert papers_shared[folder / "paper-42.md"].title == "Paper 42"
