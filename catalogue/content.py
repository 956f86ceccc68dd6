"""content/: one Markdown file per paper (YAML front matter + abstract) and the topic taxonomy.

content/ is the catalogue's database and people edit it. Reading is strict: an unknown or
ill-typed front-matter key is an error naming the file and the key, never silently ignored.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
import unicodedata
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Callable, TypeVar

import yaml

from catalogue.system.cache import Cache, code_version, digest, record_digest
from catalogue.text import UNSAFE, without_invisible
from catalogue.errors import SHOWN_LENGTH, CatalogueError, ContentFileError, shown
from catalogue.portable import MAX_NAME, is_portable
from catalogue.model import Catalogue, Link, Paper, Problem, Source, Topic

Key = TypeVar("Key")

PAPERS_DIR = "papers"
CONTENT = "content"  # cache entries: a content file's Paper, by content_key
TOPICS_FILE = "topics.yaml"
DEFAULT_TAXONOMY = Path(__file__).parent / "defaults" / TOPICS_FILE  # what a new catalogue starts with
# \A and \Z (not ^ and $, which allow a final line break): match, fullmatch and search alike test the whole value.
SLUG = re.compile(r"\A[a-z0-9]+(?:-[a-z0-9]+)*\Z")
# What a slug that names a published folder must be (portable.is_portable).
PORTABLE_SLUG = (f"lower-case letters, digits and single hyphens, at most {MAX_NAME} characters, and no name Windows "
                 "keeps for a device (con, nul, com1, ...)")
PAPER_ID = re.compile(r"\A[0-9a-f]{12}\Z")
WEB_ADDRESS = re.compile(r"\Ahttps?://[^\s<>\"/?#]+[^\s<>\"]*\Z", re.IGNORECASE)
SOURCE = re.compile(r"\A(\S(?:.*\S)?):(?:record (\d+)|(\d+))\Z")  # a seed file and its line or record; '.' stops at line breaks
# Characters no front-matter text may hold (HTML and XML forbid them, or they end a line), and
# those the abstract may not (it may span lines).
UNSAFE_IN_ABSTRACT = re.compile(f"{UNSAFE.pattern}|\x0c")
# Front matter that may hold an alias, an anchor or deep nesting: flow collections, compact
# nested lists, deep indentation. What ingest writes has none of these.
MAY_NEST_OR_ALIAS = re.compile(r"[*&\[{]|[-?][ \t]+[-?]|^[ \t]{8}", re.MULTILINE)
MAX_DEPTH = 8  # the front matter needs 3: the mapping, 'links', a link
UNSAFE_IN_FIELD = re.compile(f"{UNSAFE_IN_ABSTRACT.pattern}|[\t\n\r\u2028\u2029]")
# Front-matter keys in the order they are written.
KEYS = ("id", "slug", "name", "other_names", "title", "title_source", "venue", "year", "topics",
        "links", "benchmarks", "results", "authors", "keywords", "pdf", "url", "source", "cleaned", "in_seeds",
        "old_slugs")
REQUIRED = ("id", "slug", "title", "source")
# A line of the front matter that starts with a key, plain or quoted ("title":, as YAML allows);
# values are one line: a key is never inside one.
TOP_LEVEL_KEY = re.compile(r"^[\"']?([A-Za-z_]\w*)[\"']?[ \t]*:", re.M)
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is much faster
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def render_paper_markdown(paper: Paper) -> str:
    """The content file for a paper: front matter, a blank line, the abstract."""
    data = {
        "id": paper.id, "slug": paper.slug, "name": paper.name, "other_names": list(paper.other_names),
        "title": paper.title, "title_source": paper.title_source, "venue": paper.venue, "year": paper.year,
        "topics": list(paper.topics), "links": [{"url": l.url, "label": l.label} for l in paper.links],
        "benchmarks": list(paper.benchmarks), "results": list(paper.results),
        "authors": list(paper.authors), "keywords": list(paper.keywords), "pdf": paper.pdf, "url": paper.url,
        "source": str(paper.source), "cleaned": list(paper.cleaned),
        "in_seeds": paper.in_seeds, "old_slugs": list(paper.old_slugs),
    }
    optional_empty = {"other_names", "authors", "keywords", "pdf", "url", "links", "benchmarks", "results", "cleaned",
                      "old_slugs"}
    data = {k: v for k, v in data.items() if not (k in optional_empty and v in ([], None))}
    if paper.in_seeds:
        del data["in_seeds"]  # written only to mark a paper gone from the seeds
    front = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
    abstract = paper.abstract.strip()
    return f"---\n{front}---\n\n{abstract}\n" if abstract else f"---\n{front}---\n"


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
        raise ContentFileError(path, f"unknown front-matter key {shown(unknown[0])}{did_you_mean(unknown[0])} "
                                     f"(known keys: {', '.join(KEYS)})")
    for key in REQUIRED:
        if data.get(key) in (None, ""):
            raise ContentFileError(path, f"front-matter key '{key}' is missing")
    for key, value in data.items():
        _no_control_characters(path, key, value)
    abstract = match[2].strip()  # empty for a paper its list gives no abstract for
    if not abstract and data.get("title_source", "derived") == "derived":
        raise ContentFileError(path, "the abstract (the text after the front matter) is empty, and the title "
                                     "was derived from it; write the abstract back")
    if not match[2].replace("\n", "").isprintable() and (bad := UNSAFE_IN_ABSTRACT.search(match[2])):
        line = text.count("\n", 0, match.start(2) + bad.start()) + 1
        raise ContentFileError(f"{path}:{line}", f"the abstract holds a control character "
                                                 f"(U+{ord(bad[0]):04X}); delete it")
    slug = _check(path, "slug", data["slug"], str, is_portable, PORTABLE_SLUG)
    old_slugs = tuple(_check(path, "old_slugs", old, str, is_portable, f"a list of slugs, each of {PORTABLE_SLUG}")
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
                            lambda v: v in ("derived", "given", "edited"), "'derived', 'given' or 'edited'"),
        venue=_optional_text(path, "venue", data.get("venue")),
        year=_optional(path, "year", data.get("year"), int, lambda v: 0 < v < 10000, "a year like 2026"),
        topics=tuple(_check(path, "topics", topic, str, SLUG.fullmatch, "a list of topic slugs")
                     for topic in _strings(path, "topics", data.get("topics"))),
        links=_links(path, data.get("links")),
        benchmarks=_texts(path, "benchmarks", data.get("benchmarks")),
        results=_texts(path, "results", data.get("results")),
        cleaned=_texts(path, "cleaned", data.get("cleaned")),
        authors=_texts(path, "authors", data.get("authors")),
        keywords=_texts(path, "keywords", data.get("keywords")),
        pdf=_optional(path, "pdf", data.get("pdf"), str, WEB_ADDRESS.fullmatch, "an http(s) address"),
        url=_optional(path, "url", data.get("url"), str, WEB_ADDRESS.fullmatch, "an http(s) address"),
        in_seeds=_check(path, "in_seeds", data.get("in_seeds", True), bool, None, "true or false"),
        old_slugs=old_slugs,
    )


def did_you_mean(key: str) -> str:
    """A hint naming the known key a mistyped one is closest to ('vneue' -> 'venue'), or nothing."""
    # its start only: difflib's cost grows with the lengths compared, and a pasted paragraph is no typo
    close = difflib.get_close_matches(key[:SHOWN_LENGTH], KEYS, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _load_front_matter(front: str, path: str, first_line: int):
    """The front matter's YAML, without aliases (a few lines of them expand to gigabytes) and
    nested at most MAX_DEPTH deep (deeper, the YAML library recurses until it crashes)."""
    try:
        if MAY_NEST_OR_ALIAS.search(front):  # the events cost a third of a load: looked at only when needed
            _refuse_aliases_and_depth(yaml.parse(front, Loader=_Loader), path, first_line)
        data = yaml.load(front, Loader=_Loader)
        if _may_repeat_a_key(front):
            _refuse_repeated_keys(yaml.compose(front, Loader=_Loader), path, first_line)
        return data
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{first_line + mark.line}" if mark else path
        problem = getattr(error, "problem", None) or str(error)
        lines = front.split("\n")
        hint = _quoting_hint(lines[mark.line]) if mark and mark.line < len(lines) and "mapping values" in problem else ""
        raise ContentFileError(where, f"front matter is not valid YAML ({problem}){hint}")


def _may_repeat_a_key(front: str) -> bool:
    """A cheap look at the lines that start with a key: composing every file would cost a load again."""
    keys = TOP_LEVEL_KEY.findall(front)
    return len(keys) != len(set(keys))


def _refuse_repeated_keys(root, path: str, first_line: int) -> None:
    """YAML lets a later line with the same key replace an earlier one without a word: one of two
    hand edits (a second `authors:` added below the list's) would be lost."""
    seen: dict[str, int] = {}
    for key, _ in root.value if isinstance(root, yaml.MappingNode) else ():
        line = first_line + key.start_mark.line
        if key.value in seen:
            raise ContentFileError(f"{path}:{line}", f"front-matter key {shown(key.value)} is given twice (first on "
                                                     f"line {seen[key.value]}); keep one")
        seen[key.value] = line


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
        raise ContentFileError(path, f"front-matter key '{key}' must be a list of strings, like "
                                     f"{key}: [first, second], not {shown(value)}")
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
        raise ContentFileError(path, f"front-matter key 'source' must be 'file:line' or 'file:record N', "
                                     f"not {shown(value)}")
    return Source(match[1], int(match[3] or 0), int(match[2] or 0))


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
        line = error.object.count(b"\n", 0, error.start) + 1
        raise ContentFileError(f"{path.as_posix()}:{line}", f"not UTF-8 text (byte {error.start}); save the file as "
                                                            "UTF-8")
    return parse_paper_markdown(text, path.as_posix())


def read_papers(content_dir: Path, cache: Cache | None = None) -> dict[Path, Paper]:
    """Every paper in content/papers/, by file; all problems reported together.

    With a cache, a file whose size and modification time are as last read is not parsed again.
    """
    return read_papers_and_digests(content_dir, cache)[0]


def read_papers_and_digests(content_dir: Path, cache: Cache | None = None) -> tuple[dict[Path, Paper], dict[Path, str]]:
    """read_papers, and each paper's record_digest by file (taken from the cached bytes where the
    paper was cached)."""
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
    stored: dict[str, str] = {}
    known = cache.get_many(CONTENT, keys.values(), stored) if cache else {}
    parsed = {}
    digests = {}
    for path in sorted(keys):
        if keys[path] in known:
            papers[path], digests[path] = known[keys[path]], stored[keys[path]]
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
        raise CatalogueError(f"{content_dir.as_posix()}/ has problems:\n  " + "\n  ".join(errors))
    digests |= {path: record_digest(papers[path]) for path in papers if path not in digests}
    return papers, digests


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


def write_default_taxonomy(content_dir: Path) -> Path | None:
    """content/topics.yaml from the package's default taxonomy, when content/ has none (a new
    catalogue); returns the file written, or None when there is one already (never replaced)."""
    path = content_dir / TOPICS_FILE
    if os.path.lexists(path):
        return None
    content_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, DEFAULT_TAXONOMY.read_text(encoding="utf-8"))
    return path


def read_taxonomy(content_dir: Path) -> tuple[tuple[Topic, ...], str]:
    """The topics and the fallback topic's slug from content/topics.yaml."""
    path = content_dir / TOPICS_FILE
    if not path.is_file():
        raise CatalogueError(f"{path.as_posix()}: the topic taxonomy is missing (or not a file); "
                             "'python3 build.py ingest' writes the default one")
    return parse_taxonomy(path.read_text(encoding="utf-8"), path.as_posix())


def parse_taxonomy(text: str, shown: str) -> tuple[tuple[Topic, ...], str]:
    """The topics and the fallback slug from topics.yaml's text, checked against its schema:
    `fallback` (a topic's slug) and `topics`, a list of {slug, label, keywords, labels}. Every
    problem is reported, each as `file:line: message` naming the key."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise CatalogueError(f"{shown}:{mark.line + 1 if mark else 1}: not valid YAML: "
                             f"{getattr(error, 'problem', None) or error}")
    if root is None:
        raise CatalogueError(f"{shown}:1: empty; it needs 'fallback: <slug>' and a list under 'topics'")
    check = _NodeChecker(shown)
    top = check.mapping(root, "the file", ("fallback", "topics"), required=("fallback", "topics"))
    topics: list[Topic] = []
    lines: dict[str, int] = {}  # slug -> its topic's number
    named: set[str] = set()  # what each topic gives as its slug, valid or not (the fallback names one of them)
    for number, node in enumerate(check.sequence(top.get("topics"), "'topics'"), 1):
        where = f"topic {number}"
        item = check.mapping(node, where, TOPIC_KEYS, required=("slug", "label"))
        slug = check.text(item.get("slug"), f"'slug' of {where}", SLUG, "lower-case letters, digits and single hyphens")
        if slug and not is_portable(slug):
            check.error(item["slug"], f"'slug' of {where} must be {PORTABLE_SLUG}, not '{slug}'")
            slug = ""
        named.add(getattr(item.get("slug"), "value", slug))
        label = check.text(item.get("label"), f"'label' of {where}")
        keywords = tuple(check.text(word, f"each of 'keywords' of {where}") for word in
                         check.sequence(item.get("keywords"), f"'keywords' of {where}", "[robust, adversarial]"))
        labels = check.mapping(item.get("labels"), f"'labels' of {where}", None, example="{zh-CN: 图学习}")
        translations = tuple(sorted((code, check.text(value, f"'labels: {code}' of {where}"))
                                    for code, value in labels.items()))
        if slug in lines:
            check.error(item["slug"], f"'slug' of {where}: '{slug}' is also topic {lines[slug]}'s; slugs must differ")
        elif slug:
            lines[slug] = number
        topics.append(Topic(slug or "", label or "", tuple(str(word).lower() for word in keywords), translations))
    if isinstance(top.get("topics"), yaml.SequenceNode) and not topics:
        check.error(top["topics"], "'topics' lists no topic; a catalogue needs at least one")
    fallback = check.text(top.get("fallback"), "'fallback'")
    if fallback and topics and fallback not in named:
        check.error(top["fallback"], f"'fallback' is '{fallback}', not the slug of one of the topics")
    if check.errors:
        raise CatalogueError("\n".join(message for _, message in sorted(check.errors)))
    return tuple(topics), fallback


TOPIC_KEYS = ("slug", "label", "keywords", "labels")
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"


class _NodeChecker:
    """Reads composed YAML nodes against what a key should hold; each mismatch is an error with
    the file and the node's line, and a stand-in value (empty) so that checking goes on."""

    def __init__(self, shown: str):
        self.shown = shown
        self.errors: list[tuple[int, str]] = []  # (line, message), to be reported in the file's order

    def error(self, node: yaml.Node, message: str) -> None:
        line = node.start_mark.line + 1
        self.errors.append((line, f"{self.shown}:{line}: {message}"))

    def mapping(self, node: yaml.Node | None, where: str, known: tuple[str, ...] | None,
                required: tuple[str, ...] = (), example: str = "") -> dict[str, yaml.Node]:
        """{key: value node}; `known` None allows any text key. Missing (or null) and optional: {}."""
        if node is None or (node.tag == _NULL and not required):
            return {}
        if not isinstance(node, yaml.MappingNode):
            like = f", like {example}" if example else ""
            self.error(node, f"{where} must be a set of 'key: value' lines{like}, not {_describe(node)}")
            return {}
        found: dict[str, yaml.Node] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) and key.tag == _STR else None
            if name is None or (known is not None and name not in known):
                named = f"'{key.value}'" if name else _describe(key)
                self.error(key, f"{where}: unknown key {named}" + (f" (known: {', '.join(known)})" if known else ""))
            elif name in found:
                self.error(key, f"{where}: '{name}' is given twice")
            else:
                found[name] = value
        for name in required:
            if name not in found:
                self.error(node, f"{where}: '{name}' is missing")
        return found

    def sequence(self, node: yaml.Node | None, where: str, example: str = "") -> list[yaml.Node]:
        """The items of a list; missing or null: none."""
        if node is None or node.tag == _NULL:
            return []
        if not isinstance(node, yaml.SequenceNode):
            like = f", like {example}" if example else ""
            self.error(node, f"{where} must be a list{like}, not {_describe(node)}")
            return []
        return node.value

    def text(self, node: yaml.Node | None, where: str, pattern: re.Pattern | None = None, expected: str = "") -> str:
        """A non-empty text (matching `pattern` in full); '' after an error, or when missing (reported by mapping)."""
        if node is None:
            return ""
        if not (isinstance(node, yaml.ScalarNode) and node.tag == _STR and node.value.strip()):
            self.error(node, f"{where} must be a text, not {_describe(node)}")
            return ""
        if pattern and not pattern.fullmatch(node.value):
            self.error(node, f"{where} must be {expected}, not {_describe(node)}")
            return ""
        return node.value


def _describe(node: yaml.Node) -> str:
    """A node as a message shows it: its kind, and a short scalar's value."""
    if isinstance(node, yaml.MappingNode):
        return "a set of keys"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node.tag == _NULL:
        return "nothing"
    shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
    if node.tag == _STR:
        return f"the text '{shown}'"
    kind = {"int": "a number", "float": "a number", "bool": "true or false"}.get(node.tag.rsplit(":", 1)[-1], "no text")
    return f"{shown} ({kind}; put it in quotes to make it a text)"


def load_catalogue(content_dir: Path, cache: Cache | None = None) -> Catalogue:
    """Everything the build renders, validated, in display order (venue, year, seed position)."""
    topics, _ = read_taxonomy(content_dir)
    papers, digests = read_papers_and_digests(content_dir, cache)
    read = dict(papers)
    known = {t.slug for t in topics}
    errors = [f"{path.as_posix()}: unknown topic '{topic}' (topics are listed in {TOPICS_FILE})"
              for path, paper in papers.items() for topic in paper.topics if topic not in known]
    if errors:
        raise CatalogueError(f"{content_dir.as_posix()}/ has problems:\n  " + "\n  ".join(errors))
    if not papers:
        raise CatalogueError(f"{(content_dir / PAPERS_DIR).as_posix()}: no papers; run 'python3 build.py ingest' first")
    papers, notes = _without_self_redirects(papers)
    papers, venue_notes = one_spelling_per_venue(papers, lambda path, _: Source(path.as_posix()))
    ordered = sorted(papers.items(), key=lambda item: display_order(item[1]))
    return Catalogue(tuple(paper for _, paper in ordered), topics, notes + venue_notes,
                     tuple(digests[path] if paper is read[path] else record_digest(paper) for path, paper in ordered))


def display_order(paper: Paper) -> tuple:
    """Venue, newest year, seed position (the Source's fields: comparing the records themselves is slower)."""
    source = paper.source
    return paper.venue or "~", -(paper.year or 0), source.path, source.line, source.record, paper.id


def _without_self_redirects(papers: dict[Path, Paper]) -> tuple[dict[Path, Paper], tuple[Problem, ...]]:
    """A slug renamed and renamed back is in its own old_slugs: left out (ingest removes it from the file)."""
    notes = []
    for path, paper in papers.items():
        if paper.slug in paper.old_slugs:
            papers[path] = replace(paper, old_slugs=tuple(s for s in paper.old_slugs if s != paper.slug))
            notes.append(Problem(Source(path.as_posix()), f"old_slugs holds '{paper.slug}', the paper's own slug; "
                                                          "left out (a page cannot redirect to itself)"))
    return papers, tuple(notes)


def one_spelling_per_venue(papers: dict[Key, Paper], place: Callable[[Key, Paper], Source]
                           ) -> tuple[dict[Key, Paper], tuple[Problem, ...]]:
    """Venues written with other capitals, spaces, punctuation or invisible characters ('Icml',
    'ICML.', 'ICML') are one venue (venue_key), written in its most common spelling (the first in
    sorted order on a tie): two would claim one venue page. A note for each other spelling, at the
    first `place` that writes it."""
    spellings: dict[str, Counter] = {}
    for paper in papers.values():
        if paper.venue:
            spellings.setdefault(venue_key(paper.venue), Counter())[paper.venue] += 1
    chosen = {key: min(counts, key=lambda spelling: (-counts[spelling], spelling)) for key, counts in spellings.items()}
    notes = []
    for key, counts in sorted(spellings.items()):
        for spelling in sorted(set(counts) - {chosen[key]}):
            first = min(place(at, paper) for at, paper in papers.items() if paper.venue == spelling)
            notes.append(Problem(first, f"venue {shown(spelling)} ({papers_count(counts[spelling])}) is shown "
                                        f"as {shown(chosen[key])} ({papers_count(counts[chosen[key]])}): the "
                                        "same venue written another way (case, spaces, punctuation or invisible "
                                        "characters); write it with other letters to keep them apart"))
    unified = {at: replace(paper, venue=chosen[venue_key(paper.venue)])
               if paper.venue and paper.venue != chosen[venue_key(paper.venue)] else paper
               for at, paper in papers.items()}
    return unified, tuple(notes)


def papers_count(count: int) -> str:
    return f"{count} paper{'s' if count != 1 else ''}"


@functools.lru_cache(maxsize=4096)  # a catalogue writes its few venues on every paper
def venue_key(venue: str) -> str:
    """What makes two spellings of a venue one venue: its letters, digits and symbols, whatever their
    case, spaces, punctuation ('ICML.', 'I.C.M.L.', 'ACM-MM') and invisible characters. Accents and
    symbols count ('Ünïcode' and 'Unicode', 'A+B' and 'A B' stay two venues, each with its page)."""
    text = without_invisible(unicodedata.normalize("NFKC", venue))[0]
    return "".join(character for character in text.casefold() if unicodedata.category(character)[0] not in "PZC")
