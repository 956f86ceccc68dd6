"""Progress of long stages: a count, a rate and the time left on one terminal line; silent when not a terminal (CI, logs)."""

from __future__ import annotations

import sys
import time

REDRAW_SECONDS = 0.2


class Progress:
    """`with Progress("Rendering", total) as progress: ... progress.advance(n)`."""

    def __init__(self, label: str, total: int, stream=None):
        self.label, self.total, self.done = label, total, 0
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.started = self.drawn = time.perf_counter()

    def __enter__(self) -> Progress:
        return self

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.perf_counter()
        if self.live and now - self.drawn >= REDRAW_SECONDS:
            self.drawn = now
            self.stream.write(f"\r  {self.line(now)}")
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate else 0
        return f"{self.label}: {self.done:,}/{self.total:,} ({rate:,.0f}/s, {left:.0f} s left)"

    def __exit__(self, *_) -> None:
        if self.live and self.done:
            self.stream.write("\r\033[K")  # the stage's own summary line follows
            self.stream.flush()
