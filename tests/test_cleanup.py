import pytest

from catalogue.markup.cleanup import clean_abstract, restore_abstract


@pytest.mark.parametrize("text, cleaned, notes", [
    ("We study graphs. We prove tight bounds here.", "We study graphs. We prove tight bounds here.", ()),
    ("We study  graphs.\tWe prove bounds.", "We study graphs. We prove bounds.", ("collapsed runs of whitespace",)),
    ("Graphs matter a lot. We prove tight bounds here. Results hold. We prove tight bounds here.",
     "Graphs matter a lot. We prove tight bounds here. Results hold.",
     ("removed sentence 4, an exact repeat of sentence 2",)),
    ("It works. It works. Done now.", "It works. It works. Done now.", ()),  # too short to matter
    # As the corpus has them: a reader took the backslash of \times and \textbf for an escape.
    ("a $1.5\times$ speedup", "a $1.5\\times$ speedup",
     ("restored LaTeX commands whose backslash had become a control character",)),
    ("a set of \textbf{reference} points", "a set of \\textbf{reference} points",
     ("restored LaTeX commands whose backslash had become a control character",)),
    ("two\ttabs and a\tword", "two tabs and a word", ("collapsed runs of whitespace",)),  # no such commands
])
def test_clean_abstract(text, cleaned, notes):
    assert clean_abstract(text) == (cleaned, notes)


def test_the_original_is_recoverable():
    text = "A first sentence here. The repeated sentence is this one. Middle part goes here. " \
           "The repeated sentence is this one. End of the abstract is here. The repeated sentence is this one."
    cleaned, notes = clean_abstract(text)
    assert len(notes) == 2 and cleaned.count("The repeated sentence") == 1
    assert restore_abstract(cleaned, notes) == text
