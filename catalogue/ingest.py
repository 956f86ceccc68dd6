"""seeds/ -> content/papers/: every paragraph becomes a paper or a reported problem.

A paper's id is a hash of its abstract, so re-running, reordering or adding seeds finds
the same file again. Its slug is chosen once, when the paper is first written, and then
belongs to the file. Fields a person edited are kept: content/.derived.json remembers a
hash of what ingest last derived for each field, and a field whose value no longer matches
that hash was changed by hand.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from slugify import slugify

from .cache import Cache, code_version, digest
from .cleanup import clean_abstract
from .content import PAPERS_DIR, read_papers, read_taxonomy, remember_as_read, render_paper_markdown, write_text_atomic
from .extract import extract
from .markup import CONVERTED, Converted, Markup, conversion_key
from .model import Paper, Problem, SeedDocument, Source, Topic
from .seeds import read_seed_document

STATE_FILE = ".derived.json"
DERIVED_FIELDS = ("name", "other_names", "title", "venue", "year", "topics", "links", "benchmarks", "results",
                  "source", "abstract", "cleaned")
# Names some file systems refuse (Windows), which a slug must not be.
RESERVED_SLUGS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
MAX_SLUG = 60
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")  # each counts as a word
MIN_WORDS = 5  # fewer words than this is a stray line (a page number, a heading), not an abstract
MAX_TITLE_SLUG = 48
SLUG_STOPWORDS = ("a", "an", "the", "of", "for", "and", "or", "in", "on", "to", "with", "that", "this", "by",
                  "via", "from", "is", "are", "its", "their", "our")


@dataclass(frozen=True)
class IngestReport:
    papers: int
    added: int
    updated: int
    kept_edits: int
    pruned: int
    problems: tuple[Problem, ...]


def paper_id(abstract: str) -> str:
    """The paper's permanent id: the abstract's hash, whitespace aside."""
    return hashlib.sha256(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:12]


def ingest(seeds_dir: Path, content_dir: Path, prune: bool = False, cache: Cache | None = None) -> IngestReport:
    """Parse every seed file, merge with content/, write what changed.

    Papers gone from the seeds are kept and marked, or deleted when prune is set. With a
    cache, a paragraph met before (same text, place, venue, taxonomy and code) is not
    extracted again.
    """
    cache = cache or Cache(None)
    taxonomy, fallback = read_taxonomy(content_dir)
    existing = {paper.id: (path, paper) for path, paper in read_papers(content_dir, cache).items()}
    state_path = content_dir / STATE_FILE
    state = json.loads(state_path.read_text(encoding="utf-8")) if state_path.exists() else {}
    markup = Markup()
    problems: list[Problem] = []
    derived: dict[str, Paper] = {}
    seed_files = sorted(seeds_dir.glob("*.txt"))
    if not seed_files:
        problems.append(Problem(Source(seeds_dir.as_posix()), "no seed files (*.txt) here"))
    documents = [read_seed_document(path, source_path(path, content_dir.parent)) for path in seed_files]
    context = digest(code_version(), taxonomy, fallback)
    keys = {(document.path, paragraph.line): digest(context, document.path, document.venue, document.year, paragraph)
            for document in documents for paragraph in document.paragraphs}
    known = cache.get_many("ingest", keys.values())
    computed: dict[str, tuple[Paper, tuple[Problem, ...]]] = {}
    conversions: dict[str, Converted] = {}
    for document in documents:
        problems += document.problems
        for paragraph in document.paragraphs:
            source = Source(document.path, paragraph.line)
            words = len(paragraph.text.split()) + len(CJK.findall(paragraph.text))
            if words < MIN_WORDS:
                problems.append(Problem(source, f"too short to be an abstract ({words} words); skipped"))
                continue
            pid = paper_id(paragraph.text)
            if pid in derived:
                problems.append(Problem(source, f"same abstract as {derived[pid].source}; listed once"))
                continue
            key = keys[document.path, paragraph.line]
            if key not in known:
                paper, notes, converted = derive_paper(pid, paragraph.text, source, document, taxonomy, fallback,
                                                       markup)
                known[key] = computed[key] = paper, notes
                conversions[conversion_key(paper.abstract, True)] = converted
            derived[pid], notes = known[key]
            problems += notes
        cache.put_many(CONVERTED, conversions)  # the render need not convert them again
        conversions.clear()  # (a seed file at a time: all of them would hold every abstract twice over)
    cache.put_many("ingest", computed)
    cache.keep_only("ingest", keys.values())

    papers_dir = content_dir / PAPERS_DIR
    papers_dir.mkdir(parents=True, exist_ok=True)
    taken = {slug for _, paper in existing.values() for slug in (paper.slug, *paper.old_slugs)}
    added = updated = kept_edits = 0
    new_state = {pid: record for pid, record in state.items() if pid not in derived}
    # A paper whose file, record and derived fields are as the last ingest left them needs no merge.
    settled_keys = {pid: settled_key(derived[pid], existing[pid][0], state.get(pid)) for pid in derived if pid in existing}
    settled = cache.get_many("settled", settled_keys.values())
    now_settled: dict[str, bool] = {}
    written: dict[Path, Paper] = {}
    for pid in sorted(derived):  # by id, so that slug collisions resolve the same way every time
        fresh = derived[pid]
        if settled_keys.get(pid) in settled:
            new_state[pid] = state[pid]
            kept_edits += settled[settled_keys[pid]]
            now_settled[settled_keys[pid]] = settled[settled_keys[pid]]
            continue
        edited = []
        if pid in existing:
            path, current = existing[pid]
            paper, edited = merge(replace(current, in_seeds=True), state.get(pid), fresh)
            paper = remember_renamed_slug(paper, state.get(pid, {}).get("slug"))
            kept_edits += bool(edited)
        else:
            paper = replace(fresh, slug=choose_slug(fresh, pid, taken, markup))
            taken.add(paper.slug)
            path = papers_dir / f"{paper.slug}.md"
            added += 1
        text = render_paper_markdown(paper)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            updated += pid in existing
            write_text_atomic(path, text)
            written[path] = paper
        new_state[pid] = {name: value_hash(getattr(fresh, name)) for name in DERIVED_FIELDS} | {"slug": paper.slug}
        now_settled[settled_key(fresh, path, new_state[pid])] = bool(edited)
    cache.put_many("settled", now_settled)
    cache.keep_only("settled", now_settled)
    pruned = 0
    for pid, (path, paper) in sorted(existing.items()):
        if pid in derived:
            continue
        if prune:
            path.unlink()
            new_state.pop(pid, None)
            pruned += 1
            problems.append(Problem(Source(path.as_posix()), "not in any seed file any more; deleted (--prune)"))
            continue
        if paper.in_seeds:
            written[path] = replace(paper, in_seeds=False)
            write_text_atomic(path, render_paper_markdown(written[path]))
        problems.append(Problem(Source(path.as_posix()), "not in any seed file any more; kept and marked "
                                                         "'in_seeds: false' (ingest --prune deletes it)"))
    remember_as_read(written, cache)
    state_text = json.dumps(new_state, indent=0, sort_keys=True) + "\n"
    if not state_path.exists() or state_path.read_text(encoding="utf-8") != state_text:
        write_text_atomic(state_path, state_text)  # unchanged files keep their time: the next build sees no change
    return IngestReport(len(derived), added, updated, kept_edits, pruned, tuple(problems))


def derive_paper(pid: str, text: str, source: Source, document: SeedDocument, taxonomy: tuple[Topic, ...],
                 fallback: str, markup: Markup) -> tuple[Paper, tuple[Problem, ...], Converted]:
    """What the abstract itself says (name, title, topics, ...), with notes on its tidying and
    math, and the tidied abstract converted (to find what its math has wrong)."""
    abstract, cleaned = clean_abstract(text)
    converted = markup.abstract_html(abstract)
    notes = [Problem(source, message) for message in converted.problems]
    notes += [Problem(source, f"{note}; the seed line keeps the original") for note in cleaned]
    found = extract(abstract, taxonomy, fallback)
    paper = Paper(id=pid, slug="", title=found.title, abstract=abstract, source=source, name=found.name,
                  other_names=found.other_names, venue=document.venue, year=document.year, topics=found.topics,
                  links=found.links, benchmarks=found.benchmarks, results=found.results, cleaned=cleaned)
    return paper, tuple(notes), converted


def settled_key(fresh: Paper, path: Path, record: dict | None) -> str:
    """What a paper's merge depends on: the derived fields, the file as it is on disk, the record."""
    info = path.stat()
    return digest(code_version(), fresh, path.as_posix(), info.st_size, info.st_mtime_ns, sorted((record or {}).items()))


def source_path(seed_path: Path, project: Path) -> str:
    """How a seed file is named in content/ and in messages: seeds/x.txt inside the project."""
    try:
        return seed_path.resolve().relative_to(project.resolve()).as_posix()
    except ValueError:
        return seed_path.as_posix()


def merge(current: Paper, recorded: dict | None, fresh: Paper) -> tuple[Paper, list[str]]:
    """The paper to write: freshly derived fields, except those a person edited.

    A field counts as edited when it differs both from what was derived last time (its
    recorded hash) and from what is derived now. Without a record for the paper, any
    difference is an edit.
    """
    values = {}
    edited = []
    for name in DERIVED_FIELDS:
        mine, theirs = getattr(current, name), getattr(fresh, name)
        # A field the record does not know is new in this version of ingest: nobody edited it.
        unchanged_by_hand = recorded is not None and recorded.get(name, value_hash(mine)) == value_hash(mine)
        if mine == theirs or unchanged_by_hand:
            values[name] = theirs
        else:
            values[name] = mine
            edited.append(name)
    title_source = "edited" if "title" in edited else "derived"
    return replace(current, title_source=title_source, **values), edited


def remember_renamed_slug(paper: Paper, last_slug: str | None) -> Paper:
    """A person renamed the slug: the old address goes to old_slugs, to be kept as a redirect.
    A slug renamed back to an old one is no longer old: it leaves old_slugs (no page redirects to itself)."""
    old_slugs = tuple(slug for slug in paper.old_slugs if slug != paper.slug)
    if last_slug and last_slug != paper.slug and last_slug not in old_slugs:
        old_slugs += (last_slug,)
    return paper if old_slugs == paper.old_slugs else replace(paper, old_slugs=old_slugs)


def value_hash(value) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=lambda v: v.__dict__)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def choose_slug(paper: Paper, pid: str, taken: set[str], markup: Markup) -> str:
    """A readable, unique slug: from the name when there is one, else from the title."""
    if paper.name:
        base = slugify(markup.plain(paper.name), max_length=MAX_SLUG, word_boundary=True)
    else:  # the title's words without math and filler: "algorithm-finds-optimal-polytree-time"
        words = markup.plain(re.sub(r"\$[^$]*\$", " ", paper.title))
        base = slugify(words, max_length=MAX_TITLE_SLUG, word_boundary=True, stopwords=SLUG_STOPWORDS)
    base = base or "paper"
    if base in RESERVED_SLUGS:
        base += "-paper"
    if base not in taken:
        return base
    # Papers sharing a name are told apart by their id; thousands of them can share its first six digits.
    return next(f"{base}-{pid[:length]}" for length in (6, 8, 10, 12) if f"{base}-{pid[:length]}" not in taken)
