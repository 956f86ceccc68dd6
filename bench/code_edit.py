"""What a build pays after an edit to the code, at the size users have (issue 38: code versions per stage).

    python bench/code_edit.py [--code DIR] [--limit 10000] [--work DIR]

The code of DIR (this checkout by default; another checkout measures an older version) is copied
into a scratch folder, so that it can be edited there. The corpus (../shared/corpus, 19,951 real
papers, titles and authors given) gives --limit records spread over it, one JSON lines list per
venue-year. Then, one process after another, each measured by bench/scale.py's measure():

1. `build.py ingest`, cold;
2. `build.py render` (no search, no base URL), cold;
3. one title edited in content/, `render` again;
4. a comment added to the site's code (site/render.py), `build` (ingest, then render);
5. a comment added to the ingest code (ingest/run.py), `build`.

Steps 4 and 5 show what a code edit throws away: with one version for all the code, both take a
whole ingest and a whole render; with a version per stage, an edit to the site keeps what ingest
derived. One Markdown table is printed at the end; the site's files and bytes after step 2 too.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus_build import site_size, write_jsonl_seed_lists  # noqa: E402
from bench.realtext import CORPUS, evenly_spaced, read_records  # noqa: E402
from bench.scale import git_commit, measure  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
CODE_PARTS = ("build.py", "catalogue", "templates", "assets", "site.toml")
TIMEOUT = 3600


def copy_code(source: Path, into: Path) -> Path:
    """The parts of a checkout a build runs, copied (edits there leave the checkout alone)."""
    into.mkdir(parents=True)
    for part in CODE_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, into / part, ignore=shutil.ignore_patterns("__pycache__"))
        elif (source / part).is_file():
            shutil.copy2(source / part, into / part)
    return into


def edit_a_title(content: Path) -> str:
    """One paper's title changed by hand; returns its file's name."""
    path = sorted((content / "papers").glob("*.md"))[len(list((content / "papers").glob("*.md"))) // 2]
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^title: (.*)$", r"title: \1 (edited)", text, count=1, flags=re.M), encoding="utf-8")
    return path.name


def add_comment(source: Path) -> None:
    with open(source, "a", encoding="utf-8") as file:
        file.write("\n# an edit that changes nothing but the code's bytes\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=PROJECT, help="the checkout whose code is measured")
    parser.add_argument("--limit", type=int, default=10_000)
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a new temporary one)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="code-edit-"))
    code = copy_code(args.code.resolve(), work / "code")
    records = evenly_spaced(read_records(CORPUS), args.limit)
    lists = write_jsonl_seed_lists(records, work / "seeds")
    python = sys.executable
    where = ["--content", str(work / "content")]
    render = [python, "build.py", "render", *where, "--out", str(work / "site")]
    build = [python, "build.py", "build", "--no-search", "--seeds", str(work / "seeds"), *where, "--out", str(work / "site")]
    steps = [("ingest, cold", lambda: None, [python, "build.py", "ingest", "--seeds", str(work / "seeds"), *where]),
             ("render, cold", lambda: None, render),
             ("one title edited, render", lambda: edit_a_title(work / "content"), render),
             ("site code edited (site/render.py), build", lambda: add_comment(code / "catalogue" / "site" / "render.py"), build),
             ("ingest code edited (ingest/run.py), build", lambda: add_comment(code / "catalogue" / "ingest" / "run.py"), build)]
    rows = []
    for number, (label, before, command) in enumerate(steps, 1):
        before()
        run = measure(command, work / f"{number}.log", code, TIMEOUT)
        if run.returncode != 0:
            print(f"{label}: exit {run.returncode}; see {run.log}", file=sys.stderr)
            return 1
        rows.append((label, f"{run.seconds:.1f} s", f"{run.tree_mb:.0f} MB"))
        if number == 2:
            files, size = site_size(work / "site")
        print(f"{label}: {run.seconds:.1f} s, {run.tree_mb:.0f} MB", file=sys.stderr)
    print(f"\n{len(records):,} papers in {lists} lists; code of {args.code} ({git_commit(args.code)}); "
          f"site after the cold render: {files:,} files, {size / 1e6:.1f} MB\n")
    print("| step | wall time | peak memory (process tree) |\n|---|---:|---:|")
    print("\n".join(f"| {label} | {seconds} | {memory} |" for label, seconds, memory in rows))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
