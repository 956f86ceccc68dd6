"""content/: one Markdown file per paper (YAML front matter + abstract) and the topic taxonomy.

content/ is the catalogue's database and people edit it. Reading is strict: an unknown or
ill-typed front-matter key is an error naming the file and the key, never silently ignored.
"""

from __future__ import annotations

import os
import re
from contextlib import nullcontext
from pathlib import Path

import yaml

from .cache import Cache, code_version, digest
from .errors import CatalogueError, ContentFileError
from .model import Catalogue, Link, Paper, Source, Topic

PAPERS_DIR = "papers"
CONTENT = "content"  # cache entries: a content file's Paper, by content_key
TOPICS_FILE = "topics.yaml"
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PAPER_ID = re.compile(r"^[0-9a-f]{12}$")
# Front-matter keys in the order they are written.
KEYS = ("id", "slug", "name", "other_names", "title", "title_source", "venue", "year", "topics",
        "links", "benchmarks", "results", "authors", "pdf", "source", "cleaned", "in_seeds", "old_slugs")
REQUIRED = ("id", "slug", "title", "source")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is 5x faster
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def render_paper_markdown(paper: Paper) -> str:
    """The content file for a paper: front matter, a blank line, the abstract."""
    data = {
        "id": paper.id, "slug": paper.slug, "name": paper.name, "other_names": list(paper.other_names),
        "title": paper.title, "title_source": paper.title_source, "venue": paper.venue, "year": paper.year,
        "topics": list(paper.topics), "links": [{"url": l.url, "label": l.label} for l in paper.links],
        "benchmarks": list(paper.benchmarks), "results": list(paper.results),
        "authors": list(paper.authors), "pdf": paper.pdf, "source": str(paper.source), "cleaned": list(paper.cleaned),
        "in_seeds": paper.in_seeds, "old_slugs": list(paper.old_slugs),
    }
    optional_empty = {"other_names", "authors", "pdf", "links", "benchmarks", "results", "cleaned", "old_slugs"}
    data = {k: v for k, v in data.items() if not (k in optional_empty and v in ([], None))}
    if paper.in_seeds:
        del data["in_seeds"]  # written only to mark a paper gone from the seeds
    front = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n\n{paper.abstract.strip()}\n"


def parse_paper_markdown(text: str, path: str) -> Paper:
    """A Paper from a content file's text; ContentFileError names the file and the field."""
    match = re.match(r"\A\ufeff?---\s*\n(.*?)\n---\s*(?:\n|\Z)(.*)\Z", text, re.S)
    if not match:
        raise ContentFileError(path, "no front matter: the file must start with '---', the fields, then '---'")
    try:
        data = yaml.load(match[1], Loader=_Loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (front-matter line {mark.line + 1})" if mark else ""
        raise ContentFileError(path, f"front matter is not valid YAML{where}: {getattr(error, 'problem', error)}")
    if not isinstance(data, dict):
        raise ContentFileError(path, "front matter must be a set of 'key: value' lines")
    unknown = sorted(set(map(str, data)) - set(KEYS))
    if unknown:
        raise ContentFileError(path, f"unknown front-matter key '{unknown[0]}' (known keys: {', '.join(KEYS)})")
    for key in REQUIRED:
        if data.get(key) in (None, ""):
            raise ContentFileError(path, f"front-matter key '{key}' is missing")
    abstract = match[2].strip()
    if not abstract:
        raise ContentFileError(path, "the abstract (the text after the front matter) is empty")
    return Paper(
        id=_check(path, "id", data["id"], str, PAPER_ID.match, "12 lower-case hex digits"),
        slug=_check(path, "slug", data["slug"], str, SLUG.match, "lower-case letters, digits and single hyphens"),
        title=_check(path, "title", data["title"], str),
        abstract=abstract,
        source=_parse_source(path, data["source"]),
        name=_optional(path, "name", data.get("name"), str),
        other_names=_strings(path, "other_names", data.get("other_names")),
        title_source=_check(path, "title_source", data.get("title_source", "derived"), str,
                            lambda v: v in ("derived", "edited"), "'derived' or 'edited'"),
        venue=_optional(path, "venue", data.get("venue"), str),
        year=_optional(path, "year", data.get("year"), int),
        topics=_strings(path, "topics", data.get("topics")),
        links=_links(path, data.get("links")),
        benchmarks=_strings(path, "benchmarks", data.get("benchmarks")),
        results=_strings(path, "results", data.get("results")),
        cleaned=_strings(path, "cleaned", data.get("cleaned")),
        authors=_strings(path, "authors", data.get("authors")),
        pdf=_optional(path, "pdf", data.get("pdf"), str, _is_web_address, "an http(s) address"),
        in_seeds=_check(path, "in_seeds", data.get("in_seeds", True), bool, None, "true or false"),
        old_slugs=tuple(_check(path, "old_slugs", slug, str, SLUG.match, "a list of slugs")
                        for slug in _strings(path, "old_slugs", data.get("old_slugs"))),
    )


def _check(path, key, value, kind, test=None, expected=""):
    wrong_bool = isinstance(value, bool) and kind is not bool  # YAML's yes/no are not numbers or text
    if not isinstance(value, kind) or wrong_bool or (test and not test(value)):
        wanted = expected or f"a {kind.__name__}"
        raise ContentFileError(path, f"front-matter key '{key}' must be {wanted}, not {value!r}")
    return value


def _optional(path, key, value, kind, test=None, expected=""):
    return None if value is None else _check(path, key, value, kind, test, expected)


def _strings(path: str, key: str, value) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ContentFileError(path, f"front-matter key '{key}' must be a list of strings, not {value!r}")
    return tuple(value)


def _links(path: str, value) -> tuple[Link, ...]:
    links = []
    for item in value or []:
        if not isinstance(item, dict) or set(item) != {"url", "label"} or not _is_web_address(item["url"]):
            raise ContentFileError(path, f"each of 'links' needs a 'url' (http or https) and a 'label', not {item!r}")
        links.append(Link(str(item["url"]), str(item["label"])))
    return tuple(links)


def _is_web_address(value) -> bool:
    return isinstance(value, str) and re.match(r"https?://[^\s<>\"]+$", value, re.IGNORECASE) is not None


def _parse_source(path: str, value) -> Source:
    match = re.fullmatch(r"(.+):(\d+)", str(value))
    if not match:
        raise ContentFileError(path, f"front-matter key 'source' must be 'file:line', not {value!r}")
    return Source(match[1], int(match[2]))


def write_text_atomic(path: Path, text: str) -> None:
    """Write a content file so that a killed process leaves the old file or the new, never half."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def content_key(path: str, info: os.stat_result) -> str:
    """The cache key of a content file as it is now: edited (new size or time), it is parsed again."""
    return digest(code_version(), path, info.st_size, info.st_mtime_ns)


def remember_as_read(written: dict[Path, Paper], cache: Cache) -> None:
    """Content files just written from these papers, put in the cache as if read: the text of
    render_paper_markdown reads back as the same Paper (a property the tests check), so the
    build after an ingest need not parse the files again."""
    cache.put_many(CONTENT, {content_key(str(path), path.stat()): paper for path, paper in written.items()})


def read_paper(path: Path) -> Paper:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ContentFileError(path.as_posix(), f"not UTF-8 text (byte {error.start})")
    return parse_paper_markdown(text, path.as_posix())


def read_papers(content_dir: Path, cache: Cache | None = None) -> dict[Path, Paper]:
    """Every paper in content/papers/, by file; all problems reported together.

    With a cache, a file whose size and modification time are as last read is not parsed again.
    """
    papers: dict[Path, Paper] = {}
    errors: list[str] = []
    keys = {}
    inside = content_dir.resolve()
    with os.scandir(content_dir / PAPERS_DIR) if (content_dir / PAPERS_DIR).is_dir() else nullcontext([]) as entries:
        for entry in sorted(entries, key=lambda entry: entry.name):
            if not entry.name.endswith(".md"):
                continue
            if entry.is_symlink() and not Path(os.path.realpath(entry.path)).is_relative_to(inside):
                errors.append(f"{Path(entry.path).as_posix()}: a link to a file outside {content_dir.as_posix()}/; "
                              "copy the file here instead of linking to it")
            elif not entry.is_file():  # a FIFO would never end, a device might not; a folder is no paper
                errors.append(f"{Path(entry.path).as_posix()}: not a regular file; remove it or move it elsewhere")
            else:
                keys[Path(entry.path)] = content_key(entry.path, entry.stat())
    known = cache.get_many(CONTENT, keys.values()) if cache else {}
    parsed = {}
    for path in sorted(keys):
        if keys[path] in known:
            papers[path] = known[keys[path]]
            continue
        try:
            papers[path] = parsed[keys[path]] = read_paper(path)
        except CatalogueError as error:
            errors.append(error.message)
    if cache:
        cache.put_many(CONTENT, parsed)
        cache.keep_only(CONTENT, keys.values())
    errors += _duplicates(papers, "id") + _duplicates(papers, "slug") + _reused_addresses(papers)
    if errors:
        raise CatalogueError("content/ has problems:\n  " + "\n  ".join(errors))
    return papers


def _duplicates(papers: dict[Path, Paper], key: str) -> list[str]:
    first: dict[str, Path] = {}
    problems = []
    for path, paper in papers.items():
        value = getattr(paper, key)
        if value in first:
            problems.append(f"{path.as_posix()}: {key} '{value}' is also used by {first[value].as_posix()}")
        first.setdefault(value, path)
    return problems


def _reused_addresses(papers: dict[Path, Paper]) -> list[str]:
    """An old slug redirects to its paper, so no other paper may have it, now or before."""
    owner = {paper.slug: path for path, paper in papers.items()}
    problems = []
    for path, paper in papers.items():
        for slug in paper.old_slugs:
            if owner.get(slug, path) != path:
                problems.append(f"{path.as_posix()}: old slug '{slug}' is also the address of {owner[slug].as_posix()}")
            owner.setdefault(slug, path)
    return problems


def read_taxonomy(content_dir: Path) -> tuple[tuple[Topic, ...], str]:
    """The topics and the fallback topic's slug from content/topics.yaml."""
    path = content_dir / TOPICS_FILE
    shown = path.as_posix()
    if not path.exists():
        raise CatalogueError(f"{shown}: the topic taxonomy is missing")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except yaml.YAMLError as error:
        raise CatalogueError(f"{shown}: not valid YAML: {error}")
    if not isinstance(data, dict) or not isinstance(data.get("topics"), list):
        raise CatalogueError(f"{shown}: expected 'fallback: <slug>' and a list under 'topics'")
    topics = []
    for number, item in enumerate(data["topics"], 1):
        if not isinstance(item, dict) or not SLUG.match(str(item.get("slug", ""))) or not item.get("label"):
            raise CatalogueError(f"{shown}: topic {number} needs a 'slug' ([a-z0-9-]) and a 'label'")
        keywords = item.get("keywords") or []
        labels = item.get("labels") or {}
        if not isinstance(labels, dict):
            raise CatalogueError(f"{shown}: topic {number}'s 'labels' must map a language to a label, like 'zh-CN: 图学习'")
        topics.append(Topic(item["slug"], str(item["label"]), tuple(str(k).lower() for k in keywords),
                            tuple(sorted((str(code), str(label)) for code, label in labels.items()))))
    slugs = [t.slug for t in topics]
    if data.get("fallback") not in slugs:
        raise CatalogueError(f"{shown}: 'fallback' must be the slug of one of the topics")
    if len(set(slugs)) != len(slugs):
        raise CatalogueError(f"{shown}: topic slugs must be unique")
    return tuple(topics), data["fallback"]


def load_catalogue(content_dir: Path, cache: Cache | None = None) -> Catalogue:
    """Everything the build renders, validated, in display order (venue, year, seed position)."""
    topics, _ = read_taxonomy(content_dir)
    papers = read_papers(content_dir, cache)
    known = {t.slug for t in topics}
    errors = [f"{path.as_posix()}: unknown topic '{topic}' (topics are listed in {TOPICS_FILE})"
              for path, paper in papers.items() for topic in paper.topics if topic not in known]
    if errors:
        raise CatalogueError("content/ has problems:\n  " + "\n  ".join(errors))
    if not papers:
        raise CatalogueError(f"{(content_dir / PAPERS_DIR).as_posix()}: no papers; run 'python build.py ingest' first")
    ordered = sorted(papers.values(), key=lambda p: (p.venue or "~", -(p.year or 0), p.source, p.id))
    return Catalogue(tuple(ordered), topics)

