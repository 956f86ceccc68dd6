"""Run one command and report the largest sum of PSS over its process tree (issue 21's "peak memory
summed over all processes"), sampled from /proc/<pid>/smaps_rollup once a second.

    python bench/pss.py [--interval 1] [--json FILE] [--trace FILE] -- python build.py render --content C --out O

RSS counts a page shared by a forked process and its parent in both; PSS divides each shared page
among its sharers, so the sum over the tree is what the machine holds for it. Printed on stderr at the
end: the peak sum, and each process's own peak (by program, as bench/scale.py names them) with what the
others held at the moment of the peak sum. --trace writes every sample (seconds, sum, each process), to see
which stage holds what.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.scale import TreeSampler, _program  # noqa: E402


def pss_kb(pid: int) -> int:
    """The process's PSS in kB, or 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class PssSampler(TreeSampler):
    """Samples the tree under root every `interval` seconds: the peak sum, and each program's peak."""

    def __init__(self, root: int, interval: float, trace=None):
        super().__init__(root, interval)
        self.trace = trace
        self.started = time.perf_counter()
        self.peak_kb, self.at_peak = 0, {}   # the largest sum, and each program's share at that moment
        self.peaks: dict[str, int] = {}      # program -> its own largest PSS
        self.names: dict[tuple[int, str], str] = {}

    def sample(self) -> None:
        now: dict[str, int] = {}
        for key in self.processes():
            pid = key[0]
            name = self.names.setdefault(key, _program(pid, key[1], self.root))
            kb = pss_kb(pid)
            self.peaks[name] = max(self.peaks.get(name, 0), kb)
            now[f"{name} [{pid}]"] = kb
        total = sum(now.values())
        if self.trace:
            print(f"{time.perf_counter() - self.started:.0f} s {total // 1024} MB: "
                  + ", ".join(f"{name} {kb // 1024}" for name, kb in now.items()), file=self.trace, flush=True)
        if total > self.peak_kb:
            self.peak_kb, self.at_peak = total, now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--trace", type=Path, help="write every sample here")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    started = time.perf_counter()
    process = subprocess.Popen(command)
    trace = open(args.trace, "w", encoding="utf-8") if args.trace else None
    sampler = PssSampler(process.pid, args.interval, trace)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    sampler.stop.set()
    sampler.join()
    if trace:
        trace.close()
    figures = {"command": command, "exit": os.waitstatus_to_exitcode(status), "seconds": round(seconds, 1),
               "cpu_seconds_children": round(usage.ru_utime + usage.ru_stime, 1),
               "pss_peak_mb": round(sampler.peak_kb / 1024), "load": os.getloadavg()[0],
               "at_peak_mb": {name: round(kb / 1024) for name, kb in sampler.at_peak.items()},
               "own_peak_mb": {name: round(kb / 1024) for name, kb in sampler.peaks.items()}}
    print(f"PSS summed, peak {figures['pss_peak_mb']:,} MB; {seconds:.1f} s; "
          f"load {figures['load']:.1f}", file=sys.stderr)
    print("  at the peak: " + ", ".join(f"{n} {mb} MB" for n, mb in figures["at_peak_mb"].items()), file=sys.stderr)
    print("  own peaks: " + ", ".join(f"{n} {mb} MB" for n, mb in figures["own_peak_mb"].items()), file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    sys.exit(figures["exit"])


if __name__ == "__main__":
    main()
