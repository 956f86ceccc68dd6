"""seeds/ -> content/papers/: every paragraph becomes a paper or a reported problem.

A seed file may be a text list or a structured list (JSON, CSV, BibTeX); either gives records
(seedlists.py), and a record's given title, authors and links are used as they are: only what
it does not carry is derived from the abstract. A new paper's id is a hash of its abstract (of
its title and authors when it has none), so re-running, reordering, adding seeds or moving a
list from one format to another finds the same file again; an abstract corrected in its seed file keeps the id it had (see
continue_identities), so an id is a name, not a checksum. Its slug is chosen once, when the
paper is first written, and then belongs to the file. Fields a person edited are kept:
content/.derived.json remembers a hash of what ingest last derived for each field, and a
field whose value no longer matches that hash was changed by hand.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from slugify import slugify

from catalogue.system.cache import Cache, code_version, digest
from catalogue.text import printable
from catalogue.content.fields import DERIVED_FIELDS
from catalogue.content.paper_file import read_paper, render_paper_markdown, write_text_atomic
from catalogue.content.papers import PAPERS_DIR, read_papers, remember_as_read
from catalogue.content.rules import one_spelling_per_venue
from catalogue.content.taxonomy import read_taxonomy
from catalogue.errors import CatalogueError, shown
from catalogue.markup.convert import CONVERTED, Converted, TextConverter, conversion_key
from catalogue.portable import portable_slug
from catalogue.model import Link, Paper, Problem, Record, Source, Topic
from catalogue.system.notes import note_lines
from catalogue.system.progress import Progress
from catalogue.system.terminal import counted
from catalogue.ingest.seed_files import Unreadable, at_their_places, find_seed_files, read_seed_bytes
from catalogue.ingest.snapshot import (DERIVED, SNAPSHOT, ContentFile, IngestSnapshot, addresses_of, changed_files,
                                       content_stats, derived_key, file_stat, snapshot_key)
from catalogue.ingest.trash import move_to_trash
from catalogue.system.workers import cores, run_in_workers
from catalogue.text import CJK_CHARACTERS

STATE_FILE = ".derived.json"
MAX_SLUG = 60
CJK = re.compile(f"[{CJK_CHARACTERS}]")  # each counts as a word
MIN_WORDS = 5  # fewer words than this is a stray line (a page number, a heading), not an abstract
MAX_TITLE_SLUG = 48
SAME_PAPER_SIMILARITY = 0.9  # see continue_identities
LISTED_REMOVALS = 10  # papers named when ingest refuses to remove more
CONVERSIONS_AT_ONCE = 2000  # papers derived (and their converted abstracts held) before they go to the cache
PARALLEL_FROM = 200  # fewer abstracts are read faster in one process than in workers
DERIVE_CHUNK = 25  # abstracts a worker reads between two requests
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
    # False only when the run surely wrote nothing into the content folder; how it went, not what it
    # found, so not compared (a whole ingest and a merge of the hand edits alone report alike)
    content_written: bool = field(default=True, compare=False)
    # True when `problems` are the last whole ingest's, unchanged and said then: a build need not list them again
    notes_said_before: bool = field(default=False, compare=False)


def paper_id(abstract: str) -> str:
    """A new paper's id: the abstract's hash, whitespace aside (kept for life, whatever the abstract becomes)."""
    return hashlib.sha256(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:12]


def record_id(record: Record) -> str:
    """A new paper's id: its abstract's, or for a record without one, its title's and authors'."""
    if record.abstract:
        return paper_id(record.abstract)
    return paper_id("\n".join(["title", record.title or "", *record.authors]))


def ingest(seeds_dir: Path, content_dir: Path, prune: bool = False, cache: Cache | None = None,
           allow_removals: bool = False) -> IngestReport:
    """Parse every seed file, merge with content/, write what changed.

    Papers gone from the seeds are kept and marked, or moved to content/.trash/ when prune is
    set. Nothing is written when the run would remove a paper, or mark more than half of the
    catalogue as gone, unless allow_removals is set: a mistyped seeds folder looks just like
    that. With a cache, a paragraph met before (same text, place, venue, taxonomy and code) is
    not extracted again, and when nothing but content files changed since the last ingest
    (snapshot.py), only those are merged again: the same files and report as a whole ingest.
    """
    cache = cache or Cache(None)
    taxonomy, fallback = read_taxonomy(content_dir)
    key = snapshot_key(seeds_dir, content_dir, taxonomy, fallback, prune, allow_removals)
    stats = content_stats(content_dir / PAPERS_DIR)  # before any is read: one edited meanwhile differs next time
    snapshot = cache.get(SNAPSHOT, key) if stats is not None else None
    if snapshot and (report := ingest_hand_edits(content_dir, key, snapshot, stats, cache)):
        return report
    return ingest_all(seeds_dir, content_dir, prune, cache, allow_removals, (taxonomy, fallback), key, stats)


def ingest_hand_edits(content_dir: Path, key: str, snapshot: IngestSnapshot, stats: dict[str, tuple[int, int]],
                      cache: Cache) -> IngestReport | None:
    """The whole ingest's work when only content files changed since `snapshot` (same seeds, taxonomy,
    flags and code): each changed file merged with its paper as derived then. None, for the whole
    ingest, when that is not all: a file came or went, a changed one is unreadable or changed its
    id or addresses, is no longer in the seeds, or the record of derived fields changed."""
    state_path = content_dir / STATE_FILE
    changed = changed_files(snapshot, stats)
    if changed is None or not state_path.is_file() or file_stat(state_path) != snapshot.state:
        return None
    if not changed:
        return IngestReport(snapshot.papers, 0, 0, edits_kept(snapshot), 0, snapshot.problems, content_written=False,
                            notes_said_before=True)
    state = read_state(state_path)
    derived = cache.get_many(DERIVED, [derived_key(key, row.id) for row in changed])
    merged = []
    for row in changed:
        path = content_dir / PAPERS_DIR / row.name
        try:
            current = read_paper(path)
        except CatalogueError:
            return None  # the whole ingest reports it with every other problem
        fresh = derived.get(derived_key(key, row.id))
        if (current.id, addresses_of(current)) != (row.id, row.addresses) or fresh is None:
            return None
        paper, edited = merge(replace(current, in_seeds=True), state.get(row.id), fresh)
        merged.append((row, path, remember_renamed_slug(paper, state.get(row.id, {}).get("slug")), bool(edited)))
    written: dict[Path, Paper] = {}
    rows = {row.name: row for row in snapshot.files}
    for row, path, paper, edited in merged:
        text = render_paper_markdown(paper)
        if path.read_text(encoding="utf-8") != text:
            write_text_atomic(path, text)
            written[path] = paper
        size, mtime_ns = file_stat(path) if path in written else stats[row.name]
        rows[row.name] = replace(row, size=size, mtime_ns=mtime_ns, edited=edited)
    remember_as_read(written, cache)
    snapshot = replace(snapshot, files=tuple(rows[name] for name in sorted(rows)))
    cache.put(SNAPSHOT, key, snapshot)
    return IngestReport(snapshot.papers, 0, len(written), edits_kept(snapshot), 0, snapshot.problems,
                        content_written=bool(written), notes_said_before=True)


def edits_kept(snapshot: IngestSnapshot) -> int:
    return sum(row.edited for row in snapshot.files)


def ingest_all(seeds_dir: Path, content_dir: Path, prune: bool, cache: Cache, allow_removals: bool,
               topics: tuple[tuple[Topic, ...], str], key: str,
               stats: dict[str, tuple[int, int]] | None) -> IngestReport:
    """Every seed file read and every paper merged with its content file; the outcome kept
    under `key` (snapshot_key) with the files' `stats` taken before any was read. `topics`: the
    taxonomy and its fallback topic."""
    from catalogue.ingest.formats import parse_seed_records  # here, as extraction's modules below: a merge of
    # hand edits alone (ingest_hand_edits) needs none of them, and they are large
    seed_files, problems = find_seed_files(seeds_dir, content_dir.parent)
    taxonomy, fallback = topics
    existing = {paper.id: (path, paper) for path, paper in read_papers(content_dir, cache).items()}
    state_path = content_dir / STATE_FILE
    state = read_state(state_path)
    markup = TextConverter()
    records = []
    for seed in seed_files:
        try:
            listed, notes = parse_seed_records(read_seed_bytes(seed), seed.shown)
        except Unreadable as error:
            listed, notes = [], [Problem(Source(seed.shown), str(error))]
        records += listed
        problems += notes
    arrivals = plan_papers(records, problems)
    reported_once: list[Problem] = []  # an ingest of the same inputs does not report these again
    continued = continue_identities(arrivals, existing, state, reported_once)
    continuing = set(continued.values())
    leaving = sorted((path, paper) for pid, (path, paper) in existing.items()
                     if pid not in arrivals and pid not in continuing)
    if not allow_removals:
        whole_files = [problem for problem in problems if not problem.source.line]  # seed files skipped whole
        skipped = at_their_places(whole_files, seeds_dir, content_dir.parent)
        refuse_removals(leaving, len(existing), prune, seeds_dir, len(seed_files), skipped)

    context = digest(code_version(), taxonomy, fallback)
    keys = {pid: digest(context, record) for pid, record in arrivals.items()}
    known = cache.get_many("ingest", keys.values())
    missing = [pid for pid in arrivals if keys[pid] not in known]
    computed: dict[str, tuple[Paper, tuple[Problem, ...]]] = {}
    with Progress("Deriving papers", len(missing)) as progress:
        for start in range(0, len(missing), CONVERSIONS_AT_ONCE):  # (all at once would hold every abstract twice over)
            batch = missing[start:start + CONVERSIONS_AT_ONCE]
            conversions: dict[str, Converted] = {}
            for pid, (paper, notes, converted) in zip(batch, derive_papers([arrivals[pid] for pid in batch], batch,
                                                                           taxonomy, fallback, progress)):
                known[keys[pid]] = computed[keys[pid]] = paper, notes
                if converted:
                    conversions[conversion_key(paper.abstract, True)] = converted  # the render need not convert again
            cache.put_many(CONVERTED, conversions)
    derived: dict[str, Paper] = {}
    for pid in arrivals:
        paper, notes = known[keys[pid]]
        if pid in continued:
            paper = replace(paper, id=continued[pid])
        derived[paper.id] = paper
        problems += notes
    derived, venue_notes = one_spelling_per_venue(derived, lambda _, paper: paper.source)
    problems += venue_notes
    derived = {paper.id: paper for paper in across_venue_years(list(derived.values()), taxonomy, fallback)}
    # each seed file's notes together, by line
    problems = sorted(problems + reported_once, key=lambda problem: problem.source)
    cache.put_many("ingest", computed)
    cache.keep_only("ingest", keys.values())

    papers_dir = content_dir / PAPERS_DIR
    papers_dir.mkdir(parents=True, exist_ok=True)
    taken = {slug for _, paper in existing.values() for slug in (paper.slug, *paper.old_slugs)}
    added = updated = kept_edits = 0
    # Records of papers not derived now stay, those of pruned papers too: moved back from
    # .trash/, a paper finds its record as it was.
    new_state = {pid: record for pid, record in state.items() if pid not in derived}
    # A paper whose file, record and derived fields are as the last ingest left them needs no merge.
    settled_keys = {pid: settled_key(derived[pid], existing[pid][0], state.get(pid)) for pid in derived if pid in existing}
    settled = cache.get_many("settled", settled_keys.values())
    now_settled: dict[str, bool] = {}
    written: dict[Path, Paper] = {}
    left: dict[Path, tuple[Paper, bool]] = {}  # each content file as this ingest leaves it, and whether it holds edits
    for pid in sorted(derived):  # by id, so that slug collisions resolve the same way every time
        fresh = derived[pid]
        if settled_keys.get(pid) in settled:
            new_state[pid] = state[pid]
            kept_edits += settled[settled_keys[pid]]
            now_settled[settled_keys[pid]] = settled[settled_keys[pid]]
            left[existing[pid][0]] = existing[pid][1], settled[settled_keys[pid]]
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
        left[path] = paper, bool(edited)
    cache.put_many("settled", now_settled)
    cache.keep_only("settled", now_settled)
    if prune and leaving:
        trash = move_to_trash(content_dir, [path for path, _ in leaving])
        problems += [Problem(Source(path.as_posix()), f"not in any seed file any more; moved to "
                                                      f"{(trash / PAPERS_DIR / path.name).as_posix()} (--prune)")
                     for path, _ in leaving]
        problems.append(Problem(Source(trash.as_posix()), f"{len(leaving)} pruned paper(s) kept here; to restore "
                                                          f"one, move it back into {papers_dir.as_posix()}/"))
    for path, paper in [] if prune else leaving:
        if paper.in_seeds:
            paper = written[path] = replace(paper, in_seeds=False)
            write_text_atomic(path, render_paper_markdown(paper))
        left[path] = paper, False
        problems.append(Problem(Source(path.as_posix()), "not in any seed file any more; kept and marked "
                                                         "'in_seeds: false' (ingest --prune moves it to .trash/)"))
    remember_as_read(written, cache)
    state_text = json.dumps(new_state, indent=0, sort_keys=True) + "\n"
    if not state_path.exists() or state_path.read_text(encoding="utf-8") != state_text:
        write_text_atomic(state_path, state_text)  # unchanged files keep their time: the next build sees no change
    pruned = len(leaving) if prune else 0
    once = {id(problem) for problem in reported_once}
    reported_again = tuple(problem for problem in problems if id(problem) not in once)
    keep_snapshot(cache, key, IngestSnapshot(file_stat(state_path), (), len(derived), reported_again),
                  stats if not pruned else None, left, written,
                  {derived_key(key, pid): paper for pid, paper in derived.items()})
    return IngestReport(len(derived), added, updated, kept_edits, pruned, tuple(problems))


def keep_snapshot(cache: Cache, key: str, outcome: IngestSnapshot, stats: dict[str, tuple[int, int]] | None,
                  left: dict[Path, tuple[Paper, bool]], written: dict[Path, Paper], derived: dict[str, Paper]) -> None:
    """The outcome of a whole ingest for the next one, with each content file as it was read
    (`stats`) or written; none when a file is not accounted for (one came during the ingest, or
    `stats` is None: odd entries, papers pruned), so the next ingest is whole too."""
    if (stats is None or not stats.keys() <= {path.name for path in left}
            or any(path not in written and path.name not in stats for path in left)):
        cache.keep_only(SNAPSHOT, ())
        return
    files = []
    for path, (paper, edited) in sorted(left.items()):
        size, mtime_ns = file_stat(path) if path in written else stats[path.name]
        files.append(ContentFile(path.name, size, mtime_ns, paper.id, addresses_of(paper), edited))
    cache.put_many(DERIVED, derived)
    cache.keep_only(DERIVED, derived)
    cache.put(SNAPSHOT, key, replace(outcome, files=tuple(files)))
    cache.keep_only(SNAPSHOT, (key,))


def plan_papers(records: list[Record], problems: list[Problem]) -> dict[str, Record]:
    """Each record by its id, in seed order; short lines and repeats become notes. A record with a
    title keeps it when its abstract is too short to be one ('N/A'): it becomes a paper without one."""
    arrivals: dict[str, Record] = {}
    for record in records:
        words = len(record.abstract.split()) + len(CJK.findall(record.abstract))
        if record.abstract and words < MIN_WORDS:
            if not record.title:
                problems.append(Problem(record.source, f"too short to be an abstract ({words} words); skipped"))
                continue
            problems.append(Problem(record.source, f"the abstract is too short to be one ({words} words); the paper "
                                                   "is listed without it"))
            record = replace(record, abstract="")
        pid = record_id(record)
        if pid in arrivals:
            what = "abstract" if record.abstract else "title and authors, and no abstract,"
            problems.append(Problem(record.source, f"same {what} as {arrivals[pid].source}; listed once"))
            continue
        arrivals[pid] = record
    return arrivals


def continue_identities(arrivals: dict[str, Record], existing: dict[str, tuple[Path, Paper]],
                        state: dict, problems: list[Problem]) -> dict[str, str]:
    """{new id: id of the paper it continues} for abstracts corrected in their seed file.

    A new abstract (its id is in no content file) continues a paper that would otherwise leave
    the lists when both come from the same seed file and their words are alike: difflib's
    SequenceMatcher ratio (autojunk off) over the two lists of whitespace-separated words (the
    new paragraph as ingest tidies it, the paper's abstract in content/) is at least
    SAME_PAPER_SIMILARITY (see corrections.py). Best pairs first (ties by id), each paper and
    each abstract in at most one pair, so the result is the same in any seed order. The change
    is reported once: later runs find the new abstract in the paper's record.
    """
    from catalogue.ingest.corrections import alike_pairs
    from catalogue.markup.cleanup import clean_abstract
    leaving: dict[str, dict[str, list[str]]] = defaultdict(dict)  # by seed file
    for pid, (_, paper) in existing.items():
        if pid not in arrivals and paper.abstract:
            leaving[paper.source.path][pid] = paper.abstract.split()
    new: dict[str, dict[str, list[str]]] = defaultdict(dict)
    abstracts, taken = {}, set()
    for pid, record in arrivals.items():
        if pid not in existing and record.source.path in leaving and record.abstract:
            abstracts[pid], _ = clean_abstract(record.abstract)
            new[record.source.path][pid] = abstracts[pid].split()
    pairs = sorted((pair for path in new for pair in alike_pairs(new[path], leaving[path], SAME_PAPER_SIMILARITY)),
                   key=lambda pair: (-pair[0], pair[1], pair[2]))  # best first, then by id
    continued: dict[str, str] = {}
    for _, pid, old in pairs:
        if pid not in continued and old not in taken:
            continued[pid] = old
            taken.add(old)
            if state.get(old, {}).get("abstract") == value_hash(abstracts[pid]):
                continue  # paired and reported before
            problems.append(Problem(arrivals[pid].source, f"abstract changed slightly; kept as "
                                    f"paper {existing[old][1].slug} (id {old})"))
    return continued


def refuse_removals(leaving: list[tuple[Path, Paper]], catalogue_size: int, prune: bool, seeds_dir: Path,
                    seed_file_count: int, skipped: list[Problem]) -> None:
    """A CatalogueError listing the papers when this ingest would prune any, or mark more than half as gone."""
    if prune and leaving:
        listed = leaving
        headline = (f"ingest --prune would remove {len(leaving)} of {catalogue_size} papers (not in any seed file any "
                    "more):")
        advice = ("Nothing was written. To move them to .trash/ in the content folder (from where they can be "
                  "moved back), run again with --allow-removals.")
    else:
        listed = [(path, paper) for path, paper in leaving if paper.in_seeds]
        if len(listed) * 2 <= catalogue_size:
            return
        headline = (f"this ingest would mark {len(listed)} of {catalogue_size} papers as no longer in the seeds "
                    "(in_seeds: false):")
        read = " is the only seed file read" if seeds_dir.is_file() else f"/ holds {counted(seed_file_count, 'seed file')}"
        advice = "\n".join([f"Nothing was written. Check --seeds: {printable(seeds_dir.as_posix())}{read}"
                            + (", and these were skipped:" if skipped else "."),
                            *(f"  {line}" for line in note_lines(skipped)),
                            "If the papers did leave the lists, run again with --allow-removals (they stay on the "
                            "site, marked as gone); to take them out of content/ as well, run "
                            "'python3 build.py ingest --prune --allow-removals'."])
    lines = [f"  {printable(path.as_posix())}" for path, _ in listed[:LISTED_REMOVALS]]
    if len(listed) > LISTED_REMOVALS:
        lines.append(f"  ... and {len(listed) - LISTED_REMOVALS} more")
    raise CatalogueError("\n".join([headline, *lines, advice]))


def read_state(path: Path) -> dict:
    """content/.derived.json, or {} when there is none; anything but a regular file holding a JSON
    object is refused (a FIFO would make the read wait forever)."""
    if not path.exists() and not path.is_symlink():
        return {}
    if path.is_symlink() or not path.is_file():
        raise CatalogueError(f"{path.as_posix()}: not a regular file; remove it (ingest writes it anew)")
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise CatalogueError(f"{path.as_posix()}: not valid JSON ({shown(str(error))}); remove it (ingest writes it "
                             "anew, and takes differing fields for hand edits)")
    if not isinstance(state, dict):
        raise CatalogueError(f"{path.as_posix()}: not a JSON object; remove it (ingest writes it anew)")
    return state


def derive_papers(records: list[Record], pids: list[str], taxonomy: tuple[Topic, ...], fallback: str,
                  progress: Progress) -> list[tuple[Paper, tuple[Problem, ...], Converted | None]]:
    """derive_paper for each record, on every core when there are many."""
    markup = TextConverter()

    def derive(index: int):
        return derive_paper(pids[index], records[index], taxonomy, fallback, markup)

    if len(records) < PARALLEL_FROM or cores() == 1:
        made = [derive(index) for index in range(len(records))]
        progress.advance(len(made))
        return made
    chunks = (range(start, min(start + DERIVE_CHUNK, len(records))) for start in range(0, len(records), DERIVE_CHUNK))
    return run_in_workers(derive, chunks, lambda at, code: (
        f"{records[at].source}: the process reading this abstract stopped (exit code {code}); nothing was written"),
        progress)


def derive_paper(pid: str, record: Record, taxonomy: tuple[Topic, ...], fallback: str,
                 markup: TextConverter) -> tuple[Paper, tuple[Problem, ...], Converted | None]:
    """The paper a record makes: what it gives (title, authors, links) as given, the rest derived
    from its abstract (name, title, topics, ...); with notes on the abstract's tidying and math,
    and the tidied abstract converted (to find what its math has wrong), when it has one."""
    from catalogue.ingest.extract import extract
    from catalogue.ingest.names import name_from_title
    from catalogue.markup.cleanup import clean_abstract
    abstract, cleaned = clean_abstract(record.abstract) if record.abstract else ("", ())
    converted = markup.abstract_html(abstract) if abstract else None
    notes = [Problem(record.source, message) for message in (converted.problems if converted else ())]
    notes += [Problem(record.source, f"{note}; the seed line keeps the original") for note in cleaned]
    found = extract(abstract, taxonomy, fallback, record.title, record.keywords)
    name, other_names = found.name, found.other_names
    if record.title:  # the title's own short name, else the abstract's if the title writes it too
        titled = name_from_title(record.title, abstract)
        if titled or not (name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", record.title)):
            name, other_names = titled, tuple(n for n in (found.name, *found.other_names) if n and n != titled)
    given_links = [Link(url, label) for url, label in ((record.code, "Code"), (record.project, "Project page")) if url]
    links = tuple(given_links + [link for link in found.links if link.url not in {l.url for l in given_links}])
    paper = Paper(id=pid, slug="", title=found.title, abstract=abstract, source=record.source, name=name,
                  other_names=other_names, title_source="given" if record.title else "derived",
                  venue=record.venue, year=record.year, topics=found.topics, links=links,
                  benchmarks=found.benchmarks, results=found.results, cleaned=cleaned, authors=record.authors,
                  keywords=record.keywords, pdf=record.pdf, url=record.url)
    return paper, tuple(notes), converted


def across_venue_years(papers: list[Paper], taxonomy: tuple[Topic, ...], fallback: str) -> list[Paper]:
    """The papers, in order, once each is derived alone: what only the papers of a venue-year
    together tell. A name the field shares is no paper's (shared_names), then no two titles are alike."""
    from catalogue.ingest.shared_names import without_field_terms
    from catalogue.ingest.titles import distinct_titles
    return distinct_titles(without_field_terms(papers, taxonomy, fallback))


def settled_key(fresh: Paper, path: Path, record: dict | None) -> str:
    """What a paper's merge depends on: the derived fields, the file as it is on disk, the record."""
    info = path.stat()
    return digest(code_version(), fresh, path.as_posix(), info.st_size, info.st_mtime_ns, sorted((record or {}).items()))


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
        if recorded is None:
            unchanged_by_hand = False
        elif name in recorded:
            unchanged_by_hand = recorded[name] == value_hash(mine)
        else:  # a field new in this version of ingest: edited if a person filled it (authors added by hand)
            unchanged_by_hand = mine in ((), None)
        if mine == theirs or unchanged_by_hand:
            values[name] = theirs
        else:
            values[name] = mine
            edited.append(name)
    title_source = "edited" if "title" in edited else fresh.title_source
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


def choose_slug(paper: Paper, pid: str, taken: set[str], markup: TextConverter) -> str:
    """A readable, unique slug: from the name when there is one, else from the title."""
    if paper.name:
        base = slugify(markup.plain(paper.name), max_length=MAX_SLUG, word_boundary=True)
    else:  # the title's words without math and filler: "algorithm-finds-optimal-polytree-time"
        words = markup.plain(re.sub(r"\$[^$]*\$", " ", paper.title))
        base = slugify(words, max_length=MAX_TITLE_SLUG, word_boundary=True, stopwords=SLUG_STOPWORDS)
    base = portable_slug(base, pid) if base else "paper"  # not a name Windows keeps for a device
    if base not in taken:
        return base
    # Papers sharing a name are told apart by their id; thousands of them can share its first six digits.
    return next(f"{base}-{pid[:length]}" for length in (6, 8, 10, 12) if f"{base}-{pid[:length]}" not in taken)
