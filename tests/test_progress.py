"""Progress of long stages: a line on a terminal, nothing in logs."""

import io

from catalogue.system.progress import Progress


def test_progress_on_a_terminal_shows_count_rate_and_time_left():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    progress = Progress("Deriving papers", 400, Terminal())
    progress.done = 100
    assert progress.line(progress.started + 2) == "Deriving papers: 100/400 (50/s, 6 s left)"
    quiet = io.StringIO()
    with Progress("Deriving papers", 3, quiet) as silent:
        silent.advance(3)
    assert quiet.getvalue() == ""  # not a terminal (CI, logs): the stage's own summary line only
