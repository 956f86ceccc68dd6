"""Papers gone from the seeds: an ingest that would remove any, or mark more than half of the
catalogue as gone, is refused (a mistyped seeds folder looks just like that); otherwise each is
moved to content/.trash/ (--prune) or kept and marked `in_seeds: false`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from catalogue.text import printable
from catalogue.content.paper_file import render_paper_markdown, write_text_atomic
from catalogue.content.papers import PAPERS_DIR
from catalogue.errors import CatalogueError
from catalogue.model import Paper, Problem, Record, Source
from catalogue.system.notes import note_lines
from catalogue.system.terminal import counted
from catalogue.ingest.merge import dated
from catalogue.ingest.trash import move_to_trash

LISTED_REMOVALS = 10  # papers named when ingest refuses to remove more


def papers_leaving(existing: dict[str, tuple[Path, Paper]], arrivals: dict[str, Record],
                   continued: dict[str, str]) -> list[tuple[Path, Paper]]:
    """The content files (and their papers) no arriving record is, nor continues."""
    continuing = set(continued.values())
    return sorted((path, paper) for pid, (path, paper) in existing.items()
                  if pid not in arrivals and pid not in continuing)


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


def set_aside(content_dir: Path, leaving: list[tuple[Path, Paper]], prune: bool, written: dict[Path, Paper],
              left: dict[Path, tuple[Paper, bool]], today: str) -> list[Problem]:
    """The papers leaving moved to .trash/ (prune), else marked as gone and dated `today` if undated, as
    write_papers dates a paper (a file that changes goes into `written`, and each into `left`, as
    write_papers keeps them); a note on each."""
    papers_dir = content_dir / PAPERS_DIR
    problems = []
    if prune and leaving:
        trash = move_to_trash(content_dir, [path for path, _ in leaving])
        problems += [Problem(Source(path.as_posix()), f"not in any seed file any more; moved to "
                                                      f"{(trash / PAPERS_DIR / path.name).as_posix()} (--prune)")
                     for path, _ in leaving]
        problems.append(Problem(Source(trash.as_posix()), f"{len(leaving)} pruned paper(s) kept here; to restore "
                                                          f"one, move it back into {papers_dir.as_posix()}/"))
    for path, paper in [] if prune else leaving:
        if (marked := dated(replace(paper, in_seeds=False), today)) != paper:
            paper = written[path] = marked
            write_text_atomic(path, render_paper_markdown(paper))
        left[path] = paper, False
        problems.append(Problem(Source(path.as_posix()), "not in any seed file any more; kept and marked "
                                                         "'in_seeds: false' (ingest --prune moves it to .trash/)"))
    return problems
