"""Derived papers merged with their content files, hand edits kept: content/.derived.json
remembers a hash of what ingest last derived for each field (DERIVED_FIELDS), and a field whose
value no longer matches that hash was changed by hand. A paper settled since the last ingest is
not merged again; a new one is given its slug; only what changed is written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from catalogue.system.cache import Cache, bytes_digest, code_version, digest
from catalogue.content.fields import DERIVED_FIELDS
from catalogue.content.paper_file import render_paper_markdown, write_text_atomic
from catalogue.content.papers import PAPERS_DIR
from catalogue.markup.convert import TextConverter
from catalogue.model import Paper
from catalogue.ingest.identity import choose_slug
from catalogue.ingest.lookup.answers import LOOKED_UP
from catalogue.content.cite_keys import choose_key
from catalogue.ingest.state import value_hash
from catalogue.routes import PaperAddresses
from catalogue.system.workers import made_for_each

SETTLED = "settled"  # the cache's kind: content files found to need no merge, by settled_key
PARALLEL_FROM = 500  # fewer content files are written faster by one process than by workers
WRITE_CHUNK = 100  # content files a worker writes between two requests


@dataclass(frozen=True)
class Written:
    """The content files as write_papers leaves them."""

    state: dict  # content/.derived.json's records, by id
    written: dict[Path, Paper]  # each file written, as written
    digests: dict[Path, str]  # the digest of each file written (its bytes)
    left: dict[Path, tuple[Paper, bool]]  # each content file as this ingest leaves it, and whether it holds edits
    added: int
    updated: int
    kept_edits: int


def write_papers(content_dir: Path, derived: dict[str, Paper], existing: dict[str, tuple[Path, Paper]], state: dict,
                 cache: Cache, today: str) -> Written:
    """Each derived paper merged with its content file (a new one given a slug, a file and `today` as
    the date it was added), and written where that changed; `state` is content/.derived.json as the
    last ingest left it."""
    markup = TextConverter()
    papers_dir = content_dir / PAPERS_DIR
    papers_dir.mkdir(parents=True, exist_ok=True)
    taken = {slug for _, paper in existing.values() for slug in (paper.slug, *paper.old_slugs)}
    taken_keys = {paper.cite_key for _, paper in existing.values() if paper.cite_key}
    added = updated = kept_edits = 0
    # Records of papers not derived now stay, those of pruned papers too: moved back from
    # .trash/, a paper finds its record as it was.
    new_state = {pid: record for pid, record in state.items() if pid not in derived}
    # A paper whose file, record and derived fields are as the last ingest left them needs no merge.
    settled_keys = {pid: settled_key(derived[pid], existing[pid][0], state.get(pid)) for pid in derived if pid in existing}
    settled = cache.get_many(SETTLED, settled_keys.values())
    now_settled: dict[str, bool] = {}
    written: dict[Path, Paper] = {}
    digests: dict[Path, str] = {}
    left: dict[Path, tuple[Paper, bool]] = {}  # each content file as this ingest leaves it, and whether it holds edits
    merged: list[Merged] = []
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
            paper = keyed(dated(remember_renamed_slug(paper, state.get(pid, {}).get("slug")), today), taken_keys)
            kept_edits += bool(edited)
        else:
            paper = keyed(replace(fresh, slug=choose_slug(fresh, pid, taken, markup), added=today), taken_keys)
            taken.add(paper.slug)
            path = content_dir / PaperAddresses(paper.slug).content_file
            added += 1
        merged.append(Merged(pid, path, paper, fresh, bool(edited)))
    for one, (changed, record, key, text_digest) in zip(merged, write_merged(merged)):
        if changed:
            updated += one.pid in existing
            written[one.path] = one.paper
            digests[one.path] = text_digest
        new_state[one.pid] = record
        now_settled[key] = one.edited
        left[one.path] = one.paper, one.edited
    cache.put_many(SETTLED, now_settled)
    cache.keep_only(SETTLED, now_settled)
    return Written(new_state, written, digests, left, added, updated, kept_edits)


@dataclass(frozen=True)
class Merged:
    """A paper as write_papers merged it, to be written at `path`."""

    pid: str
    path: Path
    paper: Paper
    fresh: Paper  # as derived now
    edited: bool  # whether it keeps a hand edit


def write_merged(merged: list[Merged]) -> list[tuple[bool, dict, str, str]]:
    """Each merged paper's file written where it changed (on every core when there are many): for
    each, whether it was written, its record for content/.derived.json, its settled_key and the
    digest of the text it holds."""
    code_version(__name__)  # found once, before workers fork

    def write(index: int) -> tuple[bool, dict, str, str]:
        one = merged[index]
        text = render_paper_markdown(one.paper)
        changed = not one.path.exists() or one.path.read_text(encoding="utf-8") != text
        if changed:
            write_text_atomic(one.path, text)
        record = {name: value_hash(getattr(one.fresh, name)) for name in DERIVED_FIELDS} | {"slug": one.paper.slug}
        return changed, record, settled_key(one.fresh, one.path, record), bytes_digest(text.encode("utf-8"))

    return made_for_each(write, len(merged), lambda at, code: (
        f"{merged[at].path}: the process writing this content file stopped (exit code {code})"),
        alone_below=PARALLEL_FROM, chunk=WRITE_CHUNK)


def settled_key(fresh: Paper, path: Path, record: dict | None) -> str:
    """What a paper's merge depends on: the derived fields, the file as it is on disk, the record."""
    info = path.stat()
    return digest(code_version(__name__), fresh, path.as_posix(), info.st_size, info.st_mtime_ns, sorted((record or {}).items()))


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


def merge_alone(current: Paper, recorded: dict | None, title_source: str) -> tuple[Paper, list[str]] | None:
    """What merge() makes of a content file a person changed since the ingest that recorded its fields'
    hashes (`recorded`) and wrote `title_source`, the seeds, taxonomy and code being as they were then:
    its paper as derived now is its paper as derived then, whose hashes `recorded` holds. So every
    field keeps the file's value, and is edited where that value's hash differs; no need to derive it.

    None where that is not enough to tell what merge() would make: no record, a field the record
    lacks, an edited answer of the lookup (merge records the derived value then), a title that is
    no longer edited (its source is the derivation's), or no BibTeX key (the whole ingest chooses one)."""
    if recorded is None or not current.cite_key or any(name not in recorded for name in DERIVED_FIELDS):
        return None
    edited = [name for name in DERIVED_FIELDS if recorded[name] != value_hash(getattr(current, name))]
    if "openalex" in edited or "looked_up" in edited:
        return None
    if (current.openalex or current.looked_up) and any(name in edited for name in LOOKED_UP):
        return None
    if "title" not in edited and title_source == "edited":
        return None
    return replace(current, in_seeds=True, title_source="edited" if "title" in edited else title_source), edited


def keyed(paper: Paper, taken: set[str]) -> Paper:
    """A paper whose file records no BibTeX key (new, or written before keys were recorded) is given
    one no other paper holds (cite_keys.py), added to `taken`; a key the file holds stays."""
    if paper.cite_key:
        return paper
    paper = replace(paper, cite_key=choose_key(paper, paper.id, taken))
    taken.add(paper.cite_key)
    return paper


def dated(paper: Paper, today: str) -> Paper:
    """A paper whose file has no `added` date (written before ingest recorded one, or the line deleted)
    is dated `today`; a date the file holds stays, whoever wrote it."""
    return paper if paper.added else replace(paper, added=today)


def remember_renamed_slug(paper: Paper, last_slug: str | None) -> Paper:
    """A person renamed the slug: the old address goes to old_slugs, to be kept as a redirect.
    A slug renamed back to an old one is no longer old: it leaves old_slugs (no page redirects to itself)."""
    old_slugs = tuple(slug for slug in paper.old_slugs if slug != paper.slug)
    if last_slug and last_slug != paper.slug and last_slug not in old_slugs:
        old_slugs += (last_slug,)
    return paper if old_slugs == paper.old_slugs else replace(paper, old_slugs=old_slugs)
