"""BibTeX keys (catalogue/content/cite_keys.py): author-year-word, unique, and stable as papers arrive."""

from __future__ import annotations

from dataclasses import replace

from catalogue.content.cite_keys import KEY, base_key, citation_keys, content_word, family_name
from catalogue.model import Paper, Source
from catalogue.site.cite import booktitle


def paper(pid: str, title: str, authors: tuple[str, ...] = (), year: int | None = 2014, key: str | None = None) -> Paper:
    return Paper(id=pid, slug=f"s{pid}", title=title, abstract="", source=Source("s.txt", 1), authors=authors,
                 venue="NeurIPS", year=year, cite_key=key)


def test_a_key_is_family_name_year_and_first_content_word():
    assert base_key(paper("a" * 12, "On the Convergence of Mirror Descent", ("Walid Krichene", "A. Bayen"))) == \
        "krichene2014convergence"
    assert family_name("Kurt Gödel") == "godel" and family_name("Martin Luther King Jr.") == "king"
    assert family_name("J. {von} Neumann") == "neumann" and family_name("Łukasz Kaiser") == "kaiser"
    assert content_word("Towards a $\\rho$-Margin \\textbf{Bound}") == "margin"
    assert base_key(paper("b" * 12, "The Attention", (), year=None)) == "attention"  # no authors, no year
    assert base_key(paper("c" * 12, "A", ())) == "a2014"  # only filler: its first word
    assert all(KEY.fullmatch(base_key(paper("d" * 12, title, ("王伟",)))) for title in ("中文", "x", ""))


def test_keys_are_unique_and_a_later_paper_never_changes_an_earlier_ones():
    first = paper("f00000000001", "Learning to Rank", ("Ann Smith",))
    later = paper("000000000002", "Learning Rates", ("Bo Smith",))  # same base, a smaller id, added later
    alone = citation_keys([first])
    together = citation_keys([replace(first, cite_key=alone[first.id]), later])
    assert alone[first.id] == together[first.id] == "smith2014learning"
    assert together[later.id] == "smith2014learning" + later.id[:4]  # the suffix is its own id's
    assert len(set(citation_keys([first, later, paper("000000000003", "Learning", ("Cy Smith",))]).values())) == 3
    # A key a person copied into a second file stays with the first paper (by id); the other gets one of its own.
    copied = citation_keys([paper("000000000004", "X", key="mine"), paper("000000000005", "Y", key="mine")])
    assert copied["000000000004"] == "mine" and copied["000000000005"] != "mine"


def test_booktitle_is_the_proceedings_name_where_known():
    assert booktitle("NeurIPS", 2011) == booktitle("nips", 2011) == "Advances in Neural Information Processing Systems"
    assert booktitle("ICML", 2026) == "Proceedings of the International Conference on Machine Learning"
    assert booktitle("Some Workshop", 2024) == "Some Workshop 2024"  # unknown: as pages name it
    for venue in ("ICML", "NeurIPS", "ICLR", "CVPR", "ICCV", "ECCV", "ACL", "EMNLP", "NAACL", "AAAI", "IJCAI", "COLT",
                  "AISTATS", "UAI", "KDD", "CoRL", "COLM"):  # and every venue of the corpus and the seeds
        assert "2024" not in booktitle(venue, 2024), venue
