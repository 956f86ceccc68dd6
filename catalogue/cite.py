"""Citations of a paper: BibTeX, plain text and Markdown, from its front matter."""

from __future__ import annotations

import re

from .model import Paper

# Characters BibTeX/LaTeX treat as commands outside math; written as escapes in fields.
_LATEX_SPECIAL = re.compile(r"(?<!\\)([&%#_])")


def citation_key(paper: Paper) -> str:
    """venue + year + slug, letters and digits only: icml2026egotsr."""
    return re.sub(r"[^a-z0-9]", "", f"{paper.venue or ''}{paper.year or ''}{paper.slug}".lower())


def bibtex_field(text: str) -> str:
    """A field value for BibTeX: specials escaped outside math, capitals kept with braces."""
    parts = re.split(r"(\$[^$]*\$)", text)
    escaped = "".join(part if part.startswith("$") else _LATEX_SPECIAL.sub(r"\\\1", part) for part in parts)
    if escaped.count("{") != escaped.count("}"):  # unbalanced braces would break the whole file
        escaped = escaped.replace("{", "").replace("}", "")
    return "{" + escaped + "}"


def protect_capitals(title: str) -> str:
    """Braces around words with inner capitals (WZ-LLM, EgoTSR, LS$^2$MC), which styles would
    lower-case; 'Neuro-Symbolic' only starts its parts with capitals and is left alone."""
    def protect(word: str) -> str:
        inner_capital = re.search(r"[^\s\-{][A-Z]", re.sub(r"\$[^$]*\$", "", word))
        return "{" + word + "}" if inner_capital and "{" not in word else word
    return " ".join(protect(word) for word in title.split(" "))


def render_bibtex(paper: Paper, url: str | None) -> str:
    """An @inproceedings entry; the note says when the title was derived rather than given."""
    fields = [("title", bibtex_field(protect_capitals(paper.title)))]
    if paper.authors:
        fields.append(("author", bibtex_field(" and ".join(paper.authors))))
    if paper.venue:
        fields.append(("booktitle", bibtex_field(f"{paper.venue} {paper.year or ''}".strip())))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if url:
        fields.append(("url", "{" + url + "}"))
    if paper.pdf:
        fields.append(("pdf", "{" + paper.pdf + "}"))
    if paper.title_source == "derived":
        fields.append(("note", "{Title derived from the abstract}"))
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@inproceedings{{{citation_key(paper)},\n{body}\n}}\n"


def venue_label(paper: Paper) -> str:
    if not paper.venue:
        return "Unknown venue"
    return f"{paper.venue} {paper.year}" if paper.year else paper.venue


def render_plain_citation(paper: Paper, title: str, url: str | None) -> str:
    """'Authors. Title. ICML 2026. URL' with whatever of these is known (title in plain text)."""
    parts = [", ".join(paper.authors)] if paper.authors else []
    parts += [title.rstrip("."), venue_label(paper)]
    return ". ".join(parts) + "." + (f" {url}" if url else "")


def render_markdown_citation(paper: Paper, title: str, url: str | None) -> str:
    linked = f"[{title}]({url})" if url else f"**{title}**"
    authors = f"{', '.join(paper.authors)}. " if paper.authors else ""
    return f"{authors}{linked}. *{venue_label(paper)}*."
