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
DEFAULT_TAXONOMY = Path(__file__).parent / "defaults" / TOPICS_FILE  # what a new catalogue starts with
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
                             "'python build.py ingest' writes the default one")
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

