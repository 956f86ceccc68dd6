import pytest

from catalogue.ingest.text_lists import parse_header, parse_seed_document, read_seed_document


@pytest.mark.parametrize("header, expected", [
    ("ICML 2026 论文列表", ("ICML", 2026)),
    ("ICLR 2025 Accepted Papers", ("ICLR", 2025)),
    ("NeurIPS'24 papers", ("NeurIPS", 2024)),
    ("CVPR2024", ("CVPR", 2024)),
    ("ACL Findings 2023", ("ACL Findings", 2023)),
    ("Accepted papers", (None, None)),
    ("Top 100 papers", (None, None)),
])
def test_header_names_venue_and_year(header, expected):
    assert parse_header(header) == expected


ABSTRACT_A = "We propose AlphaNet, a method for everything. It works well on many benchmarks."
ABSTRACT_B = "Graphs are everywhere. We study their spectra and prove tight bounds for them."


@pytest.mark.parametrize("text", [
    f"ICML 2026 论文列表\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n",
    f"\ufeffICML 2026 论文列表\r\n\r\n{ABSTRACT_A}\r\n\r\n{ABSTRACT_B}\r\n",  # BOM and CRLF
    f"ICML 2026 论文列表   \n\n\n\n{ABSTRACT_A}   \n \n\t\n{ABSTRACT_B}",  # trailing spaces, many blanks
])
def test_paragraphs_survive_line_endings_bom_and_blank_lines(text):
    document = parse_seed_document(text, "x.txt")
    assert (document.venue, document.year) == ("ICML", 2026)
    assert [p.text for p in document.paragraphs] == [ABSTRACT_A, ABSTRACT_B]
    assert document.problems == ()


def test_paragraph_lines_are_joined_and_numbered_from_their_first_line():
    first, rest = ABSTRACT_A.split(" for ")
    document = parse_seed_document(f"ICLR 2025\n\n{first}\n for {rest}\n\n{ABSTRACT_B}", "x.txt")
    assert document.paragraphs[0].text == ABSTRACT_A
    assert [p.line for p in document.paragraphs] == [3, 6]


def test_missing_header_is_allowed_and_reported():
    document = parse_seed_document(f"{ABSTRACT_A}\n\n{ABSTRACT_B}", "lists/x.txt")
    assert document.venue is None and document.year is None
    assert len(document.paragraphs) == 2
    assert [str(p.source) for p in document.problems] == ["lists/x.txt:1"]
    assert "no header" in document.problems[0].message


def test_unknown_header_is_reported_with_its_line():
    document = parse_seed_document(f"\nAccepted papers\n\n{ABSTRACT_A}", "x.txt")
    assert document.venue is None and len(document.paragraphs) == 1
    assert str(document.problems[0].source) == "x.txt:2"


def test_empty_file_is_reported():
    document = parse_seed_document("\n \n", "empty.txt")
    assert document.paragraphs == ()
    assert [str(p) for p in document.problems] == ["empty.txt:1: no abstracts in this file (it is empty)"]


def test_bytes_that_are_not_utf8_are_replaced_and_reported_by_line(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"ICML 2026\n\nGood line.\n\nCaf\xe9 abstract with a bad byte.\n")
    document = read_seed_document(path, "latin1.txt")
    assert document.paragraphs[1].text == "Caf\ufffd abstract with a bad byte."
    assert [str(p.source) for p in document.problems] == ["latin1.txt:5"]
    assert "save the file as UTF-8" in document.problems[0].message  # the fix, not only the fault


def test_control_characters_are_replaced_and_reported_by_line():
    document = parse_seed_document("ICML 2026\n\nAn abstract with an escape \x1b from a PDF.\n", "x.txt")
    assert document.paragraphs[0].text == "An abstract with an escape \ufffd from a PDF."
    assert [str(p.source) for p in document.problems] == ["x.txt:3"]


def test_only_real_line_breaks_split_lines():
    # A form feed (a PDF page break) or U+2028 inside a paragraph does not start a new one.
    document = parse_seed_document("ICML 2026\n\nWe study graphs and\n\x0cprove bounds.\u2028Done.\n\nNext one.", "x.txt")
    assert [p.line for p in document.paragraphs] == [3, 6]
    assert document.paragraphs[0].text.startswith("We study graphs and")
