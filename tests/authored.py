"""A small catalogue with authors, as a structured seed list gives them: four papers, one author
spelled two ways, an accented name, a paper with more authors than a card shows, one without
authors, a paper with every kind of link (PDF, proceedings, code, project page), and two with a DOI
(one holding what DOIs hold and TeX, HTML and addresses act on: `_`, `<`, `>`, `;`, parentheses)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from catalogue.content.paper_file import render_paper_markdown
from catalogue.model import Link, Paper, Source

PROJECT = Path(__file__).resolve().parent.parent
BASE = "https://example.org/catalogue/"
# The shape of a SICI DOI (Wiley's, 10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O) with a
# Springer chapter's underscore.
SICI_DOI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4_2>3.0.CO;2-O"


def hashed(key: str) -> str:
    """The hash an author slug ends with when the name is not plain words."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:6]


def paper(slug: str, year: int, venue: str, authors: tuple[str, ...], **more) -> Paper:
    return Paper(id=hashed(slug) * 2, slug=slug, title=f"The {slug} paper", title_source="given",
                 abstract=f"We study {slug} for the catalogue of authors and show that {slug} works on every example.",
                 source=Source("seeds/list.json", record=year), venue=venue, year=year, topics=("optimization",),
                 authors=authors, **more)


PAPERS = [
    paper("engines", 2026, "ICML", ("Ada Lovelace", "Alan Turing"), pdf="https://example.org/engines.pdf",
          url="https://proceedings.example.org/engines", links=(Link("https://github.com/a/engines", "Code"),
                                                                Link("https://engines.example.org/", "Project page"))),
    paper("notes", 2025, "ICLR", ("ada  LOVELACE", "José García", "Grace Hopper", "Edsger Dijkstra")),
    paper("numbers", 2024, "ICML", ("Alan Turing",), doi=SICI_DOI),
    paper("anonymous", 2026, "ICML", (), doi="10.1007/978-3-030-58452-8_13"),
]


def write_content(root: Path, papers: list[Paper] = PAPERS) -> Path:
    """root/content/ with the project's topics and one content file per paper."""
    content = root / "content"
    (content / "papers").mkdir(parents=True)
    shutil.copy(PROJECT / "content" / "topics.yaml", content / "topics.yaml")
    for item in papers:
        (content / "papers" / f"{item.slug}.md").write_text(render_paper_markdown(item), encoding="utf-8")
    return content
