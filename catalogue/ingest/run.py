"""seeds/ -> content/papers/: every paragraph becomes a paper or a reported problem.

A seed file may be a text list or a structured list (JSON, CSV, BibTeX); either gives records
(formats.py), and a record's given title, authors and links are used as they are: only what
it does not carry is derived from the abstract (derive.py). Which paper a record is comes from
identity.py: an id is a name, not a checksum, and a slug belongs to its file. Fields a person
edited are kept (merge.py, state.py); with --lookup, real titles come from OpenAlex (lookup/);
papers gone from the seeds are refused, pruned or marked
(removals.py). When only content files changed since the last ingest, only they are merged
again (snapshot.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from catalogue.system.cache import Cache, KnownFiles, bytes_digest, code_version
from catalogue.content.paper_file import read_paper, render_paper_markdown, write_text_atomic
from catalogue.content.papers import KEPT_TYPES as CONTENT_TYPES
from catalogue.content.papers import PAPERS_DIR, read_papers, remember_as_read
from catalogue.content.taxonomy import read_taxonomy
from catalogue.errors import CatalogueError
from catalogue.markup.convert import KEPT_TYPES as CONVERTED_TYPES
from catalogue.model import Paper, Problem, Record, Source, Topic
from catalogue.ingest.derive import KEPT_TYPES as DERIVED_TYPES
from catalogue.ingest.derive import derive_arrivals
from catalogue.ingest.identity import continue_identities, plan_papers
from catalogue.ingest.lookup.answers import LookupReport, as_recorded, ask_about
from catalogue.ingest.merge import dated, merge_alone, remember_renamed_slug, write_papers
from catalogue.ingest.removals import papers_leaving, refuse_removals, set_aside
from catalogue.ingest.seed_files import SeedFile, Unreadable, at_their_places, find_seed_files, read_seed_bytes
from catalogue.ingest.snapshot import (ContentFile, IngestSnapshot, addresses_of, changed_files, content_digests,
                                       read_snapshot, snapshot_key, write_snapshot)
from catalogue.ingest.state import STATE_FILE, read_state, refuse_unless_ours, write_state

if TYPE_CHECKING:
    from catalogue.ingest.lookup.service import LookupSettings

# What ingest keeps in the build cache, each part declared beside its types: content files' papers, derived papers, converted abstracts.
KEPT_TYPES = tuple(dict.fromkeys((*CONTENT_TYPES, *DERIVED_TYPES, *CONVERTED_TYPES)))
KNOWN = "ingest"  # the build cache's record of the content files' digests (KnownFiles), under this folder name


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
    lookup: LookupReport | None = field(default=None, compare=False)  # how the lookup went, when asked for


def ingest(seeds_dir: Path, content_dir: Path, prune: bool = False, cache: Cache | None = None,
           allow_removals: bool = False, today: str | None = None, lookup: LookupSettings | None = None) -> IngestReport:
    """Parse every seed file, merge with content/, write what changed.

    Papers gone from the seeds are kept and marked, or moved to content/.trash/ when prune is
    set. Nothing is written when the run would remove a paper, or mark more than half of the
    catalogue as gone, unless allow_removals is set: a mistyped seeds folder looks just like
    that. With a cache, a paragraph met before (same text, place, venue, taxonomy and code) is
    not extracted again, and when nothing but content files changed since the last ingest
    (snapshot.py), only those are merged again: the same files and report as a whole ingest.
    A paper new to the catalogue, or a content file without its `added` date, is dated `today`
    (an ISO date; None: today's in UTC, see ingest_date). With `lookup`, each paper whose list gives
    no title and that was not asked about lately is looked up (lookup/): what the service knows is
    written into its content file.
    """
    cache = cache or Cache(None, KEPT_TYPES)
    today = today or ingest_date(None)
    taxonomy, fallback = read_taxonomy(content_dir)
    key = snapshot_key(code_version(__name__), seeds_dir, content_dir, taxonomy, fallback, prune, allow_removals,
                       lookup is not None)
    known = KnownFiles(cache, KNOWN)
    digests = content_digests(content_dir, known)  # before any is read: one edited meanwhile differs next time
    snapshot = read_snapshot(content_dir)  # read whatever the digests found: it refuses a file not ours
    if not (snapshot and digests is not None and snapshot.inputs == key and
            (report := ingest_hand_edits(content_dir, snapshot, digests, cache, today))):
        report = ingest_all(seeds_dir, content_dir, prune, cache, allow_removals, (taxonomy, fallback), key, digests,
                            today, lookup)
    known.save()
    return report


def ingest_date(source_date_epoch: int | None) -> str:
    """The date a paper first ingested now records: $SOURCE_DATE_EPOCH's when set (reproducible
    builds), else today's in UTC."""
    moment = datetime.now(timezone.utc) if source_date_epoch is None else \
        datetime.fromtimestamp(source_date_epoch, timezone.utc)
    return moment.date().isoformat()


def ingest_hand_edits(content_dir: Path, snapshot: IngestSnapshot, digests: dict[str, str], cache: Cache,
                      today: str) -> IngestReport | None:
    """The whole ingest's work when only content files changed since `snapshot` (same seeds, taxonomy,
    flags and code): each changed file merged again (merge_alone). None, for the whole ingest, when
    that is not all: a file came or went, a changed one is unreadable or changed its id or addresses,
    merge_alone cannot tell, or content/.derived.json is not as the snapshot's ingest left it."""
    changed = changed_files(snapshot, digests)
    if changed is None:
        return None
    if not changed:
        return IngestReport(snapshot.papers, 0, 0, edits_kept(snapshot), 0, snapshot.problems, content_written=False,
                            notes_said_before=True)
    state = read_state(content_dir / STATE_FILE)
    merged = []
    for row in changed:
        path = content_dir / PAPERS_DIR / row.name
        try:
            current = read_paper(path)
        except CatalogueError:
            return None  # the whole ingest reports it with every other problem
        if (current.id, addresses_of(current)) != (row.id, row.addresses) or not row.in_seeds:
            return None
        if not (alone := merge_alone(current, state.get(row.id), row.title_source)):
            return None
        paper, edited = alone
        merged.append((row, path, dated(remember_renamed_slug(paper, state[row.id].get("slug")), today), bool(edited)))
    written: dict[Path, Paper] = {}
    rows = {row.name: row for row in snapshot.files}
    for row, path, paper, edited in merged:
        text = render_paper_markdown(paper)
        if path.read_text(encoding="utf-8") != text:
            write_text_atomic(path, text)
            written[path] = paper
        now = bytes_digest(text.encode("utf-8")) if path in written else digests[row.name]
        rows[row.name] = replace(row, digest=now, title_source=paper.title_source, edited=edited)
    remember_as_read(written, cache)
    recorded = write_snapshot(content_dir, replace(snapshot, files=tuple(rows[name] for name in sorted(rows))))
    return IngestReport(snapshot.papers, 0, len(written), sum(row.edited for row in rows.values()), 0,
                        snapshot.problems, content_written=bool(written) or recorded, notes_said_before=True)


def edits_kept(snapshot: IngestSnapshot) -> int:
    return sum(row.edited for row in snapshot.files)


def ingest_all(seeds_dir: Path, content_dir: Path, prune: bool, cache: Cache, allow_removals: bool,
               topics: tuple[tuple[Topic, ...], str], key: str,
               digests: dict[str, str] | None, today: str, lookup: LookupSettings | None) -> IngestReport:
    """Every seed file read and every paper merged with its content file; the outcome recorded
    for `key` (snapshot_key) with the files' `digests` taken before any was read. `topics`: the
    taxonomy and its fallback topic; `today`, the date a paper without one is given; `lookup`, where
    to look titles up (None: only what content files recorded of earlier lookups)."""
    seed_files, problems = find_seed_files(seeds_dir, content_dir.parent)
    taxonomy, fallback = topics
    existing = {paper.id: (path, paper) for path, paper in read_papers(content_dir, cache).items()}
    state_path = content_dir / STATE_FILE
    state = read_state(state_path)
    refuse_unless_ours(state_path, state)
    arrivals = plan_papers(read_seed_records(seed_files, problems), problems)
    reported_once: list[Problem] = []  # an ingest of the same inputs does not report these again
    continued = continue_identities(arrivals, existing, state, reported_once)
    leaving = papers_leaving(existing, arrivals, continued)
    if not allow_removals:
        whole_files = [problem for problem in problems if not problem.source.line]  # seed files skipped whole
        skipped = at_their_places(whole_files, seeds_dir, content_dir.parent)
        refuse_removals(leaving, len(existing), prune, seeds_dir, len(seed_files), skipped)
    derived, notes = derive_arrivals(arrivals, continued, taxonomy, fallback, cache)
    # each seed file's notes together, by line
    problems = sorted(problems + notes + reported_once, key=lambda problem: problem.source)
    fresh, looked_up = with_lookups(derived, existing, state, today, lookup)
    if looked_up and looked_up.unanswered:
        digests = None  # the next ingest is whole, and asks again
    outcome = write_papers(content_dir, fresh, existing, state, cache, today)
    problems += set_aside(content_dir, leaving, prune, outcome.written, outcome.left, today)
    remember_as_read(outcome.written, cache)
    write_state(state_path, outcome.state)
    pruned = len(leaving) if prune else 0
    once = {id(problem) for problem in reported_once}
    reported_again = tuple(problem for problem in problems if id(problem) not in once)
    # the bytes as they are: write_state keeps a file whose text is unchanged, line ends and all
    outcome_snapshot = IngestSnapshot(key, bytes_digest(state_path.read_bytes()), (), len(derived), reported_again)
    write_snapshot(content_dir, whole_snapshot(outcome_snapshot, digests if not pruned else None, outcome.left,
                                               outcome.written, outcome.digests))
    return IngestReport(len(derived), outcome.added, outcome.updated, outcome.kept_edits, pruned, tuple(problems),
                        lookup=looked_up)


def with_lookups(derived: dict[str, Paper], existing: dict[str, tuple[Path, Paper]], state: dict, today: str,
                 lookup: LookupSettings | None) -> tuple[dict[str, Paper], LookupReport | None]:
    """The derived papers with the answers their content files record and, with `lookup`, those
    the service gives now for the papers to ask about."""
    current = {pid: paper for pid, (_, paper) in existing.items()}
    fresh = {pid: as_recorded(paper, current.get(pid), state.get(pid)) for pid, paper in derived.items()}
    if lookup is None:
        return fresh, None
    from catalogue.ingest.lookup.ask import look_up  # the network's modules, only when asked for
    asking = [pid for pid in sorted(fresh) if ask_about(fresh[pid], current.get(pid), today)]
    return look_up(fresh, asking, lookup, today)


def read_seed_records(seed_files: list[SeedFile], problems: list[Problem]) -> list[Record]:
    """The records of every seed file, in order; a file that cannot be read becomes a problem."""
    from catalogue.ingest.formats import parse_seed_records  # here, as extraction's modules: a merge of hand
    # edits alone (ingest_hand_edits) needs none of them, and they are large
    records = []
    for seed in seed_files:
        try:
            listed, notes = parse_seed_records(read_seed_bytes(seed), seed.shown)
        except Unreadable as error:
            listed, notes = [], [Problem(Source(seed.shown), str(error))]
        records += listed
        problems += notes
    return records


def whole_snapshot(outcome: IngestSnapshot, digests: dict[str, str] | None, left: dict[Path, tuple[Paper, bool]],
                   written: dict[Path, Paper], written_digests: dict[Path, str]) -> IngestSnapshot | None:
    """The outcome of a whole ingest for the next one, with each content file as it was read
    (`digests`) or `written` (`written_digests`, else made again from the paper written); None when a
    file is not accounted for (one came during the ingest, or `digests` is None: odd entries, papers
    pruned), so the next ingest is whole too."""
    found = {name for name in digests or () if name != STATE_FILE}
    if digests is None or not found <= {path.name for path in left} or \
            any(path not in written and path.name not in found for path in left):
        return None

    def now(path: Path) -> str:
        if path not in written:
            return digests[path.name]
        return written_digests.get(path) or bytes_digest(render_paper_markdown(written[path]).encode("utf-8"))

    files = tuple(ContentFile(path.name, now(path), paper.id, addresses_of(paper), paper.title_source, edited,
                              paper.in_seeds) for path, (paper, edited) in sorted(left.items()))
    return replace(outcome, files=files)
