"""Structured seed lists read into Records: each format, the alias table, the checks, the file-name
fallback, and real corpus records written out as JSONL, CSV and BibTeX reading back the same."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from catalogue.text import UNSAFE
from catalogue.model import Record, Source
from catalogue.ingest.formats import parse_seed_records
from catalogue.ingest.structured_lists import STRUCTURED_EXTENSIONS, parse_record_file, shown, venue_year_from_filename

from seed_writers import sample_records, write_bibtex, write_csv, write_jsonl

LATEX_SPECIAL = re.compile(r"[\\{}$&%#_~^]|--|``|''")

TITLE = "Graph Networks for Everything"
ABSTRACT = "We propose GraphNet, a method for everything. It works well."
EXPECTED = Record(Source("x"), ABSTRACT, title=TITLE, authors=("Ada Lovelace", "Alan Turing"), venue="ICML",
                  year=2019, pdf="https://example.org/p.pdf", url="https://example.org/p",
                  code="https://github.com/a/b")


def records(text: str, path: str) -> list[Record]:
    """The file's records, without their source, after checking it has no problems."""
    parsed = parse_record_file(text, path)
    assert [str(problem) for problem in parsed.problems] == []
    return [replace(record, source=Source("x")) for record in parsed.records]


def problems(text: str, path: str) -> list[str]:
    return [str(problem) for problem in parse_record_file(text, path).problems]


ONE_PAPER = {
    "seeds/a.jsonl": json.dumps({"title": TITLE, "abstract": ABSTRACT, "authors": ["Ada Lovelace", "Alan Turing"],
                                 "venue": "ICML", "year": 2019, "pdf": "https://example.org/p.pdf",
                                 "site": "https://example.org/p", "github": "https://github.com/a/b"}) + "\n",
    "seeds/a.json": json.dumps([{"Title": TITLE, "Abstract": ABSTRACT, "Authors": "Ada Lovelace; Alan Turing",
                                 "Venue": "ICML", "Year": "2019", "PDF": "https://example.org/p.pdf",
                                 "URL": "https://example.org/p", "Code": "https://github.com/a/b"}]),
    "seeds/a.csv": "Paper Title,Abstract,Author Names,Conference,Year,PDF URL,Link,Code URL\r\n"
                   f'{TITLE},"{ABSTRACT}",Ada Lovelace and Alan Turing,ICML,2019,https://example.org/p.pdf,'
                   "https://example.org/p,https://github.com/a/b\r\n",
    "seeds/a.tsv": "title\tabstract\tauthor\tvenue\tyear\tpdf\turl\tgithub\n"
                   f"{TITLE}\t{ABSTRACT}\tAda Lovelace; Alan Turing\tICML\t2019\thttps://example.org/p.pdf\t"
                   "https://example.org/p\thttps://github.com/a/b\n",
    "seeds/a.bib": "@inproceedings{lovelace2019,\n"
                   f"  title = {{{TITLE}}},\n  author = {{Lovelace, Ada and Alan Turing}},\n"
                   f"  abstract = {{{ABSTRACT}}},\n  booktitle = {{ICML}},\n  year = 2019,\n"
                   "  pdf = {https://example.org/p.pdf},\n  url = {https://example.org/p},\n"
                   "  code = {https://github.com/a/b},\n}\n",
    "seeds/A.JSON": json.dumps({"papers": [{"title": TITLE, "abstract": ABSTRACT,
                                            "authors": "Ada Lovelace and Alan Turing",
                                            "venue": "ICML", "year": 2019, "pdf": "https://example.org/p.pdf",
                                            "url": "https://example.org/p", "code": "https://github.com/a/b"}]}),
}


@pytest.mark.parametrize("path", list(ONE_PAPER))
def test_every_format_reads_the_same_paper(path):
    assert records(ONE_PAPER[path], path) == [EXPECTED]


@pytest.mark.parametrize("path", ["seeds/a.txt", "seeds.json/a", "seeds/a"])
def test_only_the_five_extensions_are_structured_lists(path):
    assert STRUCTURED_EXTENSIONS == (".jsonl", ".json", ".csv", ".tsv", ".bib")
    with pytest.raises(ValueError, match=path):
        parse_record_file("", path)


@pytest.mark.parametrize("header, field, value", [
    ("title", "title", TITLE), ("Title", "title", TITLE), ("Paper Title", "title", TITLE),
    ("paper_title", "title", TITLE),
    ("Authors", "authors", ("Ada Lovelace",)), ("Author", "authors", ("Ada Lovelace",)),
    ("Author Names", "authors", ("Ada Lovelace",)),
    ("Keywords", "keywords", ("graphs",)), ("keyword", "keywords", ("graphs",)),
    ("PDF", "pdf", "https://x.org/p.pdf"), ("PDF URL", "pdf", "https://x.org/p.pdf"),
    ("Code", "code", "https://github.com/a/b"), ("Code URL", "code", "https://github.com/a/b"),
    ("GitHub", "code", "https://github.com/a/b"),
    ("URL", "url", "https://x.org/p"), ("Link", "url", "https://x.org/p"), ("site", "url", "https://x.org/p"),
    ("Project", "project", "https://x.org/"), ("Project Page", "project", "https://x.org/"),
    ("Venue", "venue", "CoRL"), ("Conference", "venue", "CoRL"), ("booktitle", "venue", "CoRL"),
    ("journal", "venue", "CoRL"), ("Year", "year", 2021),
])
def test_header_aliases_name_the_fields(header, field, value):
    cell = "; ".join(value) if isinstance(value, tuple) else str(value)
    text = f'Abstract,{header}\n"{ABSTRACT}",{cell}\n'
    [record] = records(text, "seeds/list.csv")
    assert getattr(record, field) == value


@pytest.mark.parametrize("authors, expected", [
    (["Ada Lovelace", " Alan  Turing ", "", "Ada Lovelace"], ("Ada Lovelace", "Alan Turing")),
    ("Ada Lovelace; Alan Turing;", ("Ada Lovelace", "Alan Turing")),
    ("Ada Lovelace and Alan Turing", ("Ada Lovelace", "Alan Turing")),
    ("Ada Lovelace, Alan Turing, and Grace Hopper", ("Ada Lovelace", "Alan Turing", "Grace Hopper")),
    ("Ada Lovelace, Alan Turing", ("Ada Lovelace", "Alan Turing")),
    ("Lovelace, Ada; Turing, Alan", ("Ada Lovelace", "Alan Turing")),
    ("Lovelace, Ada", ("Ada Lovelace",)),
    ("van Gogh, Vincent and Turing, Alan M.", ("Vincent van Gogh", "Alan M. Turing")),
    ("Wang Li", ("Wang Li",)),
])
def test_author_strings_are_split_into_names(authors, expected):
    [record] = records(json.dumps([{"title": TITLE, "authors": authors}]), "seeds/x.json")
    assert record.authors == expected


@pytest.mark.parametrize("keywords, expected", [
    (["graphs", " deep  learning "], ("graphs", "deep learning")),
    ("graphs; deep learning, theory", ("graphs", "deep learning, theory")),
    ("graphs, deep learning", ("graphs", "deep learning")),
])
def test_keywords_are_a_list_or_a_separated_string(keywords, expected):
    [record] = records(json.dumps({"title": TITLE, "keywords": keywords}), "seeds/x.jsonl")
    assert record.keywords == expected


def bib_entry(**fields: str) -> str:
    return "@article{key,\n" + "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items()) + "}\n"


@pytest.mark.parametrize("latex, text", [
    (r"M{\"u}ller's {\'E}cole and \c{C}a\u{g}lar", "Müller's École and Çağlar"),
    (r"{BERT}: Pre-training of {D}eep Transformers", "BERT: Pre-training of Deep Transformers"),
    (r"Pages 1--10 --- a study", "Pages 1–10 — a study"),
    (r"Sparse $k$-Means and $\ell_1$ {$\mathcal{O}(n)$} Bounds",
     r"Sparse $k$-Means and $\ell_1$ $\mathcal{O}(n)$ Bounds"),
    (r"Taxonomy \& Transfer, 50\% Faster, \$5 and \{sets\}", "Taxonomy & Transfer, 50% Faster, $5 and {sets}"),
    ("Taxonomy & Transfer, 50% Faster", "Taxonomy & Transfer, 50% Faster"),  # bare, as BibTeX reads them
    ("A Title\n   Broken   over Lines", "A Title Broken over Lines"),
    (r"DuReader\_robust: \textit{A} Dataset", "DuReader_robust: A Dataset"),
    (r"(RF)\textasciicircum{}2 -{}- Random Forest and A^2-Nets", "(RF)^2 -- Random Forest and A^2-Nets"),
])
def test_bibtex_titles_are_latex_read_as_text_with_math_kept(latex, text):
    [record] = records(bib_entry(title=latex), "seeds/x.bib")
    assert record.title == text


@pytest.mark.parametrize("latex, names", [
    (r"M{\"u}ller, Hans and Jane Doe", ("Hans Müller", "Jane Doe")),
    ("Doe, Jane\n    and Smith, John and others", ("Jane Doe", "John Smith")),
    (r"{Barack Obama, Jr.} and de la Cruz, Mar{\'\i}a", ("Barack Obama, Jr.", "María de la Cruz")),
    ("King, Jr, Martin Luther", ("Martin Luther King Jr",)),
    (r"{\L}ukasz Kaiser and Kaiser, {\L}ukasz", ("Łukasz Kaiser",)),
    ("{Anderson and Sons}", ("Anderson and Sons",)),
])
def test_bibtex_authors_are_split_on_and_and_turned_first_name_first(latex, names):
    [record] = records(bib_entry(title=TITLE, author=latex), "seeds/x.bib")
    assert record.authors == names


@pytest.mark.parametrize("written, kept", [
    (r"We show \emph{tight} bounds for $\rho \rightarrow \infty$, 98% of the time.",
     r"We show \emph{tight} bounds for $\rho \rightarrow \infty$, 98% of the time."),
    (r"{We show \'e and {BERT} as written.}", r"We show \'e and {BERT} as written."),
    ("{First} and {last}", "{First} and {last}"),  # two groups, not one around it all
    ("Broken\n  over\n\tlines.", "Broken over lines."),
])
def test_bibtex_abstracts_keep_their_latex(written, kept):
    [record] = records(bib_entry(title=TITLE, abstract=written), "seeds/x.bib")
    assert record.abstract == kept


@pytest.mark.parametrize("fields, venue, year", [
    ({"booktitle": "Proceedings of the 40th International Conference on Machine Learning", "year": "2023"},
     "Proceedings of the 40th International Conference on Machine Learning", 2023),
    ({"journal": "  Journal of Machine Learning Research ", "year": " 2019 "},
     "Journal of Machine Learning Research", 2019),
    ({"booktitle": r"Advances in Neural Information Processing Systems ({NeurIPS})"},
     "Advances in Neural Information Processing Systems (NeurIPS)", None),
])
def test_bibtex_venue_and_year_are_kept_as_given(fields, venue, year):
    [record] = records(bib_entry(title=TITLE, **fields), "seeds/x.bib")
    assert (record.venue, record.year) == (venue, year)


def test_bibtex_string_abbreviations_are_resolved():
    text = '@string{icml = "International Conference on Machine Learning"}\n' \
           "@inproceedings{a, title = {A}, booktitle = icml}\n"
    assert [record.venue for record in records(text, "seeds/x.bib")] == ["International Conference on Machine Learning"]


# Each file holds good records around bad ones: the bad are reported, the good are read.
BAD = [
    ("seeds/x.json", json.dumps([{"title": "A"}, 42, {"tldr": "no title"}, ["B"], {"title": "C"}]),
     ["seeds/x.json:record 2: a JSON number, not an object; skipped",
      "seeds/x.json:record 3: no title and no abstract; skipped",
      "seeds/x.json:record 4: a JSON list, not an object; skipped"], ["A", "C"]),
    ("seeds/x.jsonl", '{"title": "A"}\n\n{"title": "B",\n{"title": "C", "year": 1850}\n',
     ["seeds/x.jsonl:3: not valid JSON (Expecting property name enclosed in double quotes, column 15); "
      "this line is skipped",
      "seeds/x.jsonl:record 3: year 1850 is not a year between 1900 and 2100; left out"], ["A", "C"]),
    ("seeds/x.json", '[{"title": "A"},\n {"title": "B"\n]',
     ["seeds/x.json:3: not valid JSON (Expecting ',' delimiter, column 1); nothing in this file was read"], []),
    ("seeds/x.json", "42", ["seeds/x.json: a JSON number, not a list of records; nothing in this file was read"], []),
    ("seeds/x.json", json.dumps({"data": [{"title": "A"}]}),
     ["seeds/x.json: a JSON object that is not a record and holds no list of records under 'papers', 'records', "
      "'items'; nothing in this file was read"], []),
    ("seeds/x.json", json.dumps([{"title": "A", "pdf": "paper.pdf", "url": "javascript:alert(1)",
                                  "project": "https://ok.org/", "year": "2019b"},
                                 {"title": 7, "abstract": ["x"]}, {"title": "B", "authors": ["Ada", 3, None]},
                                 {"title": "C", "authors": [{"authorId": "1", "name": "Alan Turing"}, {"name": 2}]}]),
     ["seeds/x.json:record 1: pdf 'paper.pdf' is not a web address: no http:// or https://, nor a host and path "
      "like github.com/a/b; left out",
      "seeds/x.json:record 1: url 'javascript:alert(1)' starts with 'javascript:', not http:// or https://; left out",
      "seeds/x.json:record 1: year '2019b' is not a year between 1900 and 2100; left out",
      "seeds/x.json:record 2: title is a number, not text; left out",
      "seeds/x.json:record 2: abstract is a list, not text; left out",
      "seeds/x.json:record 2: no title and no abstract; skipped",
      "seeds/x.json:record 3: authors: 2 of the 3 items are not text; left out",
      "seeds/x.json:record 4: authors: 1 of the 2 items are not text; left out"], ["A", "B", "C"]),
    ("seeds/x.csv", 'Title,Year,Abstract\nA,2019,"two\nlines"\nB,twenty,x\n\n,,\nC,2020,y,extra\n',
     ["seeds/x.csv:4: Year 'twenty' is not a year between 1900 and 2100; left out",
      "seeds/x.csv:7: 4 cells, but the header names 3 columns; the cells beyond them are ignored"], ["A", "B", "C"]),
    ("seeds/x.csv", 'Title,Abstract\nA,x\n"B,"unclosed\nC,z\n',
     ["seeds/x.csv:3: not valid CSV (',' expected after '\"'); this row is skipped"], ["A", "C"]),
    ("seeds/x.csv", 'Title,Abstract\nA,x\nB,"never closed\nC,z\n',
     ["seeds/x.csv:3: not valid CSV (unexpected end of data); lines 3-4 are skipped"], ["A"]),
    ("seeds/x.csv", 'Title;Authors;Abstract\nA;Ada Lovelace, Alan Turing;"x; y"\n', [], ["A"]),
    ("seeds/x.csv", "Title,Abstract\nA; B,x;y\n", [], ["A; B"]),
    # lines ended by a lone CR, as spreadsheets on old Macs save CSV: the first row is the header all the same
    ("seeds/x.csv", "Title;Abstract\rA;x\rB;y\r", [], ["A", "B"]),
    ("seeds/x.csv", "Title,Abstract\rA,x\r", [], ["A"]),
    ("seeds/x.csv", "Name,Count\nA,1\n",
     ["seeds/x.csv:1: the header row names none of the fields (abstract, authors, code, doi, keywords, pdf, project, "
      "published, title, url, venue, year); nothing in this file was read"], []),
    ("seeds/x.bib", "@article{a, title = {A}}\n@article{b, title = {Broken\n@article{c, title = {C}}\n"
                    "@article{a, title = {D}}\n@article{e, title = {E}, title = {F}}\n@article{f, note = {none}}\n",
     ["seeds/x.bib:record 2: the entry starting on line 2 cannot be read (Unexpected block start: `@article`. "
      "Was still looking for field-value closing `}`); skipped",
      "seeds/x.bib:record 4: the key 'a' names an earlier entry too; read all the same",
      "seeds/x.bib:record 5: the entry starting on line 5 cannot be read (title given twice); skipped",
      "seeds/x.bib:record 6: no title and no abstract; skipped"], ["A", "C", "D"]),
]


@pytest.mark.parametrize("path, text, expected_problems, titles", BAD)
def test_bad_records_are_reported_and_the_others_read(path, text, expected_problems, titles):
    parsed = parse_record_file(text, path)
    assert [str(problem) for problem in parsed.problems] == expected_problems
    assert [record.title for record in parsed.records] == titles


def test_csv_rows_are_numbered_by_the_line_they_start_on():
    text = '\ufeff Title , ABSTRACT \r\nA,"one\r\ntwo\r\nthree"\r\n\r\nB,"x"\r\n'
    parsed = parse_record_file(text, "seeds/x.csv")
    assert [(record.source, record.abstract) for record in parsed.records] == [
        (Source("seeds/x.csv", 2), "one two three"), (Source("seeds/x.csv", 6), "x")]


@pytest.mark.parametrize("path, text", [
    ("seeds/x.jsonl", '{"title": "A"}\n{"title": "B"}\n'),
    ("seeds/x.json", '{"title": "A"}\n{"title": "B"}\n'),  # JSON Lines saved as .json
    ("seeds/x.json", '{"Records": [{"title": "A"}, {"title": "B"}]}'),
    ("seeds/x.bib", "@comment{two}\n@string{x = {y}}\n@misc{a, title = {A}}\n\nnotes\n@misc{b, title = {B}}\n"),
])
def test_records_are_numbered_by_their_place_in_the_file(path, text):
    parsed = parse_record_file(text, path)
    assert [(record.source, record.title) for record in parsed.records] == [
        (Source(path, record=1), "A"), (Source(path, record=2), "B")]


@pytest.mark.parametrize("path, expected", [
    ("seeds/icml2019.json", ("ICML", 2019)),
    ("seeds/ICML_2019.csv", ("ICML", 2019)),
    ("seeds/neurips-2018.bib", ("NeurIPS", 2018)),
    ("seeds/NeurIPS_2018.csv", ("NeurIPS", 2018)),
    ("seeds/NEURIPS_2018.csv", ("NEURIPS", 2018)),  # capitals are the writer's choice
    ("seeds/ACL 2022.tsv", ("ACL", 2022)),
    ("seeds/acm-mm.2022.jsonl", ("ACM MM", 2022)),
    ("seeds/corl2021_accepted.json", ("CoRL", 2021)),
    ("seeds\\cvpr2019.csv", ("CVPR", 2019)),
    ("seeds/2019.json", (None, 2019)),
    ("seeds/papers.json", (None, None)),
    ("seeds/v12019.json", (None, None)),  # no year boundary: not 2019
])
def test_venue_and_year_from_the_file_name(path, expected):
    assert venue_year_from_filename(path) == expected


def test_the_file_name_gives_only_what_a_record_lacks():
    text = json.dumps([{"title": "A"}, {"title": "B", "venue": "ICLR", "year": 2018}, {"title": "C", "year": 2020}])
    assert [(record.venue, record.year) for record in records(text, "seeds/icml2019.json")] == [
        ("ICML", 2019), ("ICLR", 2018), ("ICML", 2020)]


@pytest.mark.parametrize("path, text", [
    ("seeds/x.jsonl", '{"title": "Only a Title"}\n'),
    ("seeds/x.csv", "title,abstract\nOnly a Title,\n"),
    ("seeds/x.bib", "@misc{a, title = {Only a Title}}"),
])
def test_a_title_without_an_abstract_is_a_record(path, text):
    assert records(text, path) == [Record(Source("x"), "", title="Only a Title")]


def test_unknown_fields_are_ignored_silently():
    text = json.dumps({"title": "A", "abstract": "B", "tldr": "short", "status": "Poster", "track": "main",
                       "openreview": {"id": 1}})
    assert records(text, "seeds/x.jsonl") == [Record(Source("x"), "B", title="A")]


@pytest.mark.parametrize("title, abstract", [
    ("  A\u00a0 Title\n\tSplit \x07", "An\x00 abstract\r\n with\x1b[31m control  characters. "),
])
def test_texts_are_stripped_folded_and_freed_of_control_characters(title, abstract):
    [record] = records(json.dumps({"title": title, "abstract": abstract}), "seeds/x.jsonl")
    assert (record.title, record.abstract) == ("A Title Split", "An abstract with[31m control characters.")


@pytest.mark.parametrize("github, code, note", [
    ("https://github.com/a/b", "https://github.com/a/b", None),
    ("  HTTPS://github.com/a/b ", "HTTPS://github.com/a/b", None),
    ("[![github](/images/github_icon.svg) a/b](https://github.com/a/b)", "https://github.com/a/b", None),
    ("github.com/a/b", "https://github.com/a/b", None),
    ("www.example.org", "https://www.example.org", None),
    ("https://github.com/a/b; https://github.com/a/c", "https://github.com/a/b", "several addresses; the first"),
])
def test_links_are_http_addresses(github, code, note):
    parsed = parse_record_file(json.dumps({"title": TITLE, "github": github}), "seeds/x.jsonl")
    assert [record.code for record in parsed.records] == [code]
    assert [note in problem.message for problem in parsed.problems] == ([True] if note else [])


SPRINGER = "10.1007/978-3-030-58452-8_13"
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"


@pytest.mark.parametrize("path, text, doi", [
    ("seeds/x.jsonl", json.dumps({"title": TITLE, "doi": SICI}), SICI),
    ("seeds/x.json", json.dumps([{"Title": TITLE, "DOI": " doi:" + SPRINGER}]), SPRINGER),
    ("seeds/x.csv", f"Title,DOI\n{TITLE},https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O\n", SICI),
    ("seeds/x.tsv", f"title\tdoi\n{TITLE}\thttp://dx.doi.org/{SPRINGER}\n", SPRINGER),
    ("seeds/x.bib", bib_entry(title=TITLE, doi=SPRINGER.replace("_", "\\_")), SPRINGER),  # as TeX escapes it
    ("seeds/x.bib", bib_entry(title=TITLE, DOI=SICI), SICI),
])
def test_a_list_gives_a_doi_in_any_format_and_form(path, text, doi):
    assert [record.doi for record in records(text, path)] == [doi]


@pytest.mark.parametrize("value", ["not a doi", "10.12/x", "10.1000/", "10.1000/a b", "https://example.org/10.1000/x",
                                   "10.1000/a\u200bb", "https://doi.org/10.1000/a%20b", "10.1000/" + "x" * 2000, 10.1])
def test_a_value_no_doi_is_left_out_with_a_note(value):
    parsed = parse_record_file(json.dumps({"title": TITLE, "doi": value}), "seeds/x.jsonl")
    assert [record.doi for record in parsed.records] == [None]
    [problem] = parsed.problems
    assert "DOI like 10.1000/xyz; left out" in problem.message or "not text; left out" in problem.message


# Each reason an address is refused has its own words, true of the value refused.
@pytest.mark.parametrize("github, reason", [
    ("https://github.com/laura-wang/video repres mas", "holds spaces, which no web address has"),
    ("https://github.com/a/b c", "holds a space, which no web address has"),
    ("github.com/a/b c", "holds a space, which no web address has"),
    ("https://github.com/a/b\nc", "holds a line break, which no web address has"),
    ("https://github.com/a/b\u00a0c", "holds white space (U+00A0), which no web address has"),
    ("https://github.com/a/\x07b", "holds a control character (U+0007), which no web address has"),
    ('https://github.com/a/"b', "holds '\"', which no web address has"),
    ("https://github.com/<b>", "holds '<', which no web address has"),
    ("arXiv:1308.2218", "starts with 'arXiv:', not http:// or https://"),
    ("javascript:alert(1)", "starts with 'javascript:', not http:// or https://"),
    ("ftp://example.org/paper.pdf", "starts with 'ftp:', not http:// or https://"),
    ("https:github.com/a/b", "has no '//' after 'https:'"),
    ("https://", "names no host after 'https://'"),
    ("https:///a/b", "names no host after 'https://'"),
    ("http://[::1/x", "names no host after 'http://'"),
    ("paper.pdf", "is not a web address: no http:// or https://, nor a host and path like github.com/a/b"),
    ("C:\\papers\\a.pdf", "is not a web address: no http:// or https://, nor a host and path like github.com/a/b"),
    ("   ", "is blank"),
])
def test_a_refused_address_says_what_is_wrong_with_it(github, reason):
    parsed = parse_record_file(json.dumps({"title": TITLE, "github": github}), "seeds/x.jsonl")
    assert [record.code for record in parsed.records] == [None]
    assert [str(problem) for problem in parsed.problems] == [
        f"seeds/x.jsonl:record 1: github {shown(github)} {reason}; left out"]


def test_an_address_longer_than_any_says_so():
    github = "https://github.com/" + "a" * 3000 + " b"
    parsed = parse_record_file(json.dumps({"title": TITLE, "github": "  " * 2000 + github}), "seeds/x.jsonl")
    assert [record.code for record in parsed.records] == [None]
    assert [str(problem) for problem in parsed.problems] == [
        "seeds/x.jsonl:record 1: github is longer than any address (2,000 characters); left out"]


def test_a_field_given_twice_keeps_the_first_and_says_so():
    parsed = parse_record_file("title,url,link\nA,https://a.org/,https://b.org/\n", "seeds/x.csv")
    assert [record.url for record in parsed.records] == ["https://a.org/"]
    assert [str(problem) for problem in parsed.problems] == [
        "seeds/x.csv:2: 'link' gives the url a second time; the first ('url') is used"]


# --- Real records written out as JSONL, CSV and BibTeX read back the same ----------------------

def first_sixty() -> list[dict]:
    return sample_records()[:60]


def what_the_first_sixty_lack() -> list[dict]:
    """The sample's records whose title or authors hold what LaTeX reads specially (& _ $k$ "), or
    that carry keywords or a project page, when their links are plain addresses."""
    def plain_links(row: dict) -> bool:
        return all(re.fullmatch(r"https?://\S+", row[key]) for key in ("pdf", "site", "github", "project") if row[key])

    chosen = [row for row in sample_records()[60:] if plain_links(row) and (
        LATEX_SPECIAL.search(row["title"] + " ".join(row["authors"])) or row["keywords"] or row["project"])]
    assert len(chosen) >= 50
    return chosen


def as_read(text: str) -> str:
    """A text as the readers give it: control characters (a stray \\x02 from a PDF) removed, white space folded."""
    return " ".join(UNSAFE.sub("", text).split())


@pytest.mark.parametrize("choose", [first_sixty, what_the_first_sixty_lack])
def test_real_records_read_the_same_from_jsonl_csv_and_bibtex(choose):
    """JSONL gives the corpus's fields; CSV and BibTeX give the same Records, source apart (BibTeX
    carries every field; bibtex_verbatim says what it cannot carry, none of which is in these)."""
    rows = choose()
    read = {path: records(write(rows), path) for path, write in
            (("seeds/s.jsonl", write_jsonl), ("seeds/s.csv", write_csv), ("seeds/s.bib", write_bibtex))}
    as_jsonl = read["seeds/s.jsonl"]
    assert [(record.title, record.abstract, record.authors, record.keywords, record.venue, record.year,
             record.pdf, record.url, record.code, record.project) for record in as_jsonl] == [
        (as_read(row["title"]), as_read(row["abstract"]), tuple(row["authors"]),
         tuple(row["keywords"]), row["venue"], row["year"], row["pdf"], row["site"], row["github"], row["project"])
        for row in rows]
    for record, other, another in zip(as_jsonl, read["seeds/s.csv"], read["seeds/s.bib"], strict=True):
        assert other == record
        assert another == record


@pytest.mark.parametrize("path", ["seeds/x.csv", "seeds/x.jsonl"])
def test_bytes_that_are_not_utf8_in_a_structured_list_are_reported_by_line(path):
    lines = [b"Title,Abstract", b"Caf\xe9 Paper,We study coffee."] if path.endswith(".csv") else \
        [b'{"title": "Good"}', b'{"title": "Caf\xe9 Paper"}']
    records, problems = parse_seed_records(b"\n".join(lines) + b"\n", path)
    assert [str(problem.source) for problem in problems] == [f"{path}:2"]
    assert [record.title for record in records][-1] == "Caf\ufffd Paper"


@pytest.mark.parametrize("path, text", [
    ("seeds/x.csv", "Title,Abstract\nReplacement \ufffd Paper,x\n"),
    ("seeds/x.jsonl", '{"title": "Replacement \ufffd Paper"}\n'),
])
def test_a_replacement_character_written_in_utf8_is_no_byte_replaced(path, text):
    records, problems = parse_seed_records(text.encode("utf-8"), path)
    assert [record.title for record in records] == ["Replacement \ufffd Paper"]
    assert problems == []


def test_a_csv_header_cell_too_long_for_the_csv_reader_is_a_note_not_a_crash():
    parsed = parse_record_file("Title," + "x" * 200_000 + "\nA,b\n", "seeds/x.csv")
    assert [str(problem) for problem in parsed.problems] == [
        "seeds/x.csv:1: the header row is not valid CSV (field larger than field limit (131072)); nothing was read"]


def test_authors_given_as_objects_with_a_name_are_read():
    text = json.dumps([{"title": "A", "authors": [{"authorId": "1", "name": "Ada Lovelace"}, {"name": "Alan Turing"}]}])
    listed = parse_record_file(text, "seeds/x.json")
    assert [record.authors for record in listed.records] == [("Ada Lovelace", "Alan Turing")]
    assert listed.problems == ()
