"""content/: one Markdown file per paper (YAML front matter + abstract) and the topic taxonomy.

content/ is the catalogue's database and people edit it. Reading is strict: an unknown or
ill-typed front-matter key is an error naming the file and the key, never silently ignored.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

import yaml

from .cache import Cache, code_version, digest
from .characters import UNSAFE
from .errors import SHOWN_LENGTH, CatalogueError, ContentFileError, shown
from .model import Catalogue, Link, Paper, Problem, Source, Topic

PAPERS_DIR = "papers"
CONTENT = "content"  # cache entries: a content file's Paper, by content_key
TOPICS_FILE = "topics.yaml"
# \A and \Z (not ^ and $, which allow a final line break): match, fullmatch and search alike test the whole value.
SLUG = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
PAPER_ID = re.compile(r"\A[0-9a-f]{12}\Z")
WEB_ADDRESS = re.compile(r"\Ahttps?://[^\s<>\"/?#]+[^\s<>\"]*\Z", re.IGNORECASE)
SOURCE = re.compile(r"\A(\S(?:.*\S)?):(\d+)\Z")  # a seed file and line; '.' stops at line breaks
# Characters no front-matter text may hold (HTML and XML forbid them, or they end a line), and
# those the abstract may not (it may span lines).
UNSAFE_IN_ABSTRACT = re.compile(f"{UNSAFE.pattern}|[\x0c\ud800-\udfff]")
# Front matter that may hold an alias, an anchor or deep nesting: flow collections, compact
# nested lists, deep indentation. What ingest writes has none of these.
MAY_NEST_OR_ALIAS = re.compile(r"[*&\[{]|[-?][ \t]+[-?]|^[ \t]{8}", re.MULTILINE)
MAX_DEPTH = 8  # the front matter needs 3: the mapping, 'links', a link
UNSAFE_IN_FIELD = re.compile(f"{UNSAFE_IN_ABSTRACT.pattern}|[\t\n\r\u2028\u2029]")
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
    match = re.match(r"\A\ufeff?---[ \t\r]*\n(.*?)\n---[ \t\r]*(?:\n|\Z)(.*)\Z", text, re.S)
    if not match:
        raise ContentFileError(path, "no front matter: the file must start with '---', the fields, then '---'")
    first_line = text.count("\n", 0, match.start(1)) + 1  # the file's line where the front matter starts
    data = _load_front_matter(match[1], path, first_line)
    if not isinstance(data, dict):
        raise ContentFileError(path, "front matter must be a set of 'key: value' lines")
    unknown = sorted(set(map(str, data)) - set(KEYS))
    if unknown:
        raise ContentFileError(path, f"unknown front-matter key {shown(unknown[0])} (known keys: {', '.join(KEYS)})")
    for key in REQUIRED:
        if data.get(key) in (None, ""):
            raise ContentFileError(path, f"front-matter key '{key}' is missing")
    for key, value in data.items():
        _no_control_characters(path, key, value)
    abstract = match[2].strip()
    if not abstract:
        raise ContentFileError(path, "the abstract (the text after the front matter) is empty")
    if not match[2].replace("\n", "").isprintable() and (bad := UNSAFE_IN_ABSTRACT.search(match[2])):
        line = text.count("\n", 0, match.start(2) + bad.start()) + 1
        raise ContentFileError(f"{path}:{line}", f"the abstract holds a control character "
                                                 f"(U+{ord(bad[0]):04X}); delete it")
    slug = _check(path, "slug", data["slug"], str, SLUG.fullmatch, "lower-case letters, digits and single hyphens")
    old_slugs = tuple(_check(path, "old_slugs", old, str, SLUG.fullmatch, "a list of slugs")
                      for old in _strings(path, "old_slugs", data.get("old_slugs")))
    return Paper(
        id=_check(path, "id", data["id"], str, PAPER_ID.fullmatch, "12 lower-case hex digits"),
        slug=slug,
        title=_text(path, "title", data["title"]),
        abstract=abstract,
        source=_parse_source(path, data["source"]),
        name=_optional_text(path, "name", data.get("name")),
        other_names=_texts(path, "other_names", data.get("other_names")),
        title_source=_check(path, "title_source", data.get("title_source", "derived"), str,
                            lambda v: v in ("derived", "edited"), "'derived' or 'edited'"),
        venue=_optional_text(path, "venue", data.get("venue")),
        year=_optional(path, "year", data.get("year"), int, lambda v: 0 < v < 10000, "a year like 2026"),
        topics=tuple(_check(path, "topics", topic, str, SLUG.fullmatch, "a list of topic slugs")
                     for topic in _strings(path, "topics", data.get("topics"))),
        links=_links(path, data.get("links")),
        benchmarks=_texts(path, "benchmarks", data.get("benchmarks")),
        results=_texts(path, "results", data.get("results")),
        cleaned=_texts(path, "cleaned", data.get("cleaned")),
        authors=_texts(path, "authors", data.get("authors")),
        pdf=_optional(path, "pdf", data.get("pdf"), str, WEB_ADDRESS.fullmatch, "an http(s) address"),
        in_seeds=_check(path, "in_seeds", data.get("in_seeds", True), bool, None, "true or false"),
        old_slugs=old_slugs,
    )


def _load_front_matter(front: str, path: str, first_line: int):
    """The front matter's YAML, without aliases (a few lines of them expand to gigabytes) and
    nested at most MAX_DEPTH deep (deeper, the YAML library recurses until it crashes)."""
    try:
        if MAY_NEST_OR_ALIAS.search(front):  # the events cost a third of a load: looked at only when needed
            _refuse_aliases_and_depth(yaml.parse(front, Loader=_Loader), path, first_line)
        return yaml.load(front, Loader=_Loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{first_line + mark.line}" if mark else path
        problem = getattr(error, "problem", None) or str(error)
        lines = front.split("\n")
        hint = _quoting_hint(lines[mark.line]) if mark and mark.line < len(lines) and "mapping values" in problem else ""
        raise ContentFileError(where, f"front matter is not valid YAML ({problem}){hint}")


def _refuse_aliases_and_depth(events, path: str, first_line: int) -> None:
    """Reads the events as they come, so that neither an alias nor a deep nest is ever expanded."""
    depth, anchored = 0, None
    for event in events:
        if isinstance(event, yaml.AliasEvent):
            raise ContentFileError(f"{path}:{first_line + event.start_mark.line}", f"front matter uses a YAML alias "
                                   f"(*{shown(event.anchor)[1:-1]}); write the value out")
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            anchored = anchored or event
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise ContentFileError(f"{path}:{first_line + event.start_mark.line}", f"front matter nests lists or "
                                       f"mappings more than {MAX_DEPTH} deep; write plain values")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    if anchored:
        raise ContentFileError(f"{path}:{first_line + anchored.start_mark.line}", f"front matter uses a YAML anchor "
                               f"(&{shown(anchored.anchor)[1:-1]}); write the value out")


def _quoting_hint(line: str) -> str:
    """For `title: Foo: a bar`, the line as it must be written."""
    key, _, value = line.partition(":")
    quoted = json.dumps(value.strip(), ensure_ascii=False)  # a JSON string is a YAML double-quoted one
    if not key.strip() or ": " not in value or len(quoted) > SHOWN_LENGTH:
        return "; a value holding ': ' must be quoted, like title: \"Foo: a bar\""
    return f"; a value holding ': ' must be quoted, like {key.strip()}: {quoted}"


def _no_control_characters(path: str, key, value) -> None:
    """Every text of the front matter is one line of printable characters: YAML escapes like
    "\\0" would otherwise carry NUL into pages, feeds and citations."""
    if isinstance(value, str):
        if not value.isprintable() and (bad := UNSAFE_IN_FIELD.search(value)):  # (isprintable: a fast first look)
            what = "a line break" if bad[0] in "\n\r\u2028\u2029" else f"a control character (U+{ord(bad[0]):04X})"
            raise ContentFileError(path, f"front-matter key {shown(str(key))} holds {what}; remove it")
    elif isinstance(value, dict):
        for inner_key, item in value.items():
            _no_control_characters(path, key, inner_key)
            _no_control_characters(path, key, item)
    elif isinstance(value, list):
        for item in value:
            _no_control_characters(path, key, item)


def _check(path, key, value, kind, test=None, expected=""):
    wrong_bool = isinstance(value, bool) and kind is not bool  # YAML's yes/no are not numbers or text
    if not isinstance(value, kind) or wrong_bool or (test and not test(value)):
        wanted = expected or f"a {kind.__name__}"
        raise ContentFileError(path, f"front-matter key '{key}' must be {wanted}, not {shown(value)}")
    return value


def _optional(path, key, value, kind, test=None, expected=""):
    return None if value is None else _check(path, key, value, kind, test, expected)


def _text(path: str, key: str, value) -> str:
    """A text without spaces at its ends (which would make 'ICML ' a venue of its own)."""
    return _check(path, key, value, str, lambda v: v == v.strip() and v != "",
                  "non-empty text without spaces at its ends")


def _optional_text(path: str, key: str, value) -> str | None:
    return None if value is None else _text(path, key, value)


def _strings(path: str, key: str, value) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ContentFileError(path, f"front-matter key '{key}' must be a list of strings, not {shown(value)}")
    return tuple(value)


def _texts(path: str, key: str, value) -> tuple[str, ...]:
    return tuple(_text(path, key, item) for item in _strings(path, key, value))


def _links(path: str, value) -> tuple[Link, ...]:
    if value is not None and not isinstance(value, list):
        raise ContentFileError(path, f"front-matter key 'links' must be a list of 'url' and 'label', not {shown(value)}")
    links = []
    for item in value or []:
        if (not isinstance(item, dict) or set(item) != {"url", "label"} or not isinstance(item["url"], str)
                or not WEB_ADDRESS.fullmatch(item["url"]) or not isinstance(item["label"], str)
                or item["label"] != item["label"].strip() or not item["label"]):
            raise ContentFileError(path, f"each of 'links' needs a 'url' (http or https) and a 'label', "
                                         f"not {shown(item)}")
        links.append(Link(item["url"], item["label"]))
    return tuple(links)


def _parse_source(path: str, value) -> Source:
    match = SOURCE.fullmatch(value) if isinstance(value, str) else None
    if not match:
        raise ContentFileError(path, f"front-matter key 'source' must be 'file:line', not {shown(value)}")
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
    with os.scandir(content_dir / PAPERS_DIR) if (content_dir / PAPERS_DIR).is_dir() else nullcontext([]) as entries:
        for entry in entries:
            if entry.name.endswith(".md") and entry.is_file():
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
    papers, notes = _without_self_redirects(papers)
    papers, venue_notes = _one_spelling_per_venue(papers)
    ordered = sorted(papers.values(), key=lambda p: (p.venue or "~", -(p.year or 0), p.source, p.id))
    return Catalogue(tuple(ordered), topics, notes + venue_notes)


def _without_self_redirects(papers: dict[Path, Paper]) -> tuple[dict[Path, Paper], tuple[Problem, ...]]:
    """A slug renamed and renamed back is in its own old_slugs: left out (ingest removes it from the file)."""
    notes = []
    for path, paper in papers.items():
        if paper.slug in paper.old_slugs:
            papers[path] = replace(paper, old_slugs=tuple(s for s in paper.old_slugs if s != paper.slug))
            notes.append(Problem(Source(path.as_posix()), f"old_slugs holds '{paper.slug}', the paper's own slug; "
                                                          "left out (a page cannot redirect to itself)"))
    return papers, tuple(notes)


def _one_spelling_per_venue(papers: dict[Path, Paper]) -> tuple[dict[Path, Paper], tuple[Problem, ...]]:
    """Venues written with other capitals or spaces ('Icml', 'ICML') are one venue, shown in its
    most common spelling (the first in sorted order on a tie): two would share one venue page."""
    spellings: dict[str, Counter] = {}
    for paper in papers.values():
        if paper.venue:
            spellings.setdefault(venue_key(paper.venue), Counter())[paper.venue] += 1
    chosen = {key: min(counts, key=lambda spelling: (-counts[spelling], spelling)) for key, counts in spellings.items()}
    notes = []
    for key, counts in sorted(spellings.items()):
        for spelling in sorted(set(counts) - {chosen[key]}):
            first = min(path for path, paper in papers.items() if paper.venue == spelling).as_posix()
            notes.append(Problem(Source(first), f"venue {shown(spelling)} ({papers_count(counts[spelling])}) is shown "
                                                f"as {shown(chosen[key])} ({papers_count(counts[chosen[key]])}): the "
                                                "same venue written another way; edit the venue to keep them apart"))
    unified = {path: replace(paper, venue=chosen[venue_key(paper.venue)])
               if paper.venue and paper.venue != chosen[venue_key(paper.venue)] else paper
               for path, paper in papers.items()}
    return unified, tuple(notes)


def papers_count(count: int) -> str:
    return f"{count} paper{'s' if count != 1 else ''}"


def venue_key(venue: str) -> str:
    """What makes two spellings of a venue one venue: the letters, whatever their case and spacing."""
    return " ".join(venue.split()).casefold()
