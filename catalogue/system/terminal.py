"""What the build says on the terminal: a line, a stage with its duration, a path as short as it can be."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click


def counted(number: int, noun: str) -> str:
    """'1 paper', '38 papers': a count as the terminal says it (the nouns used take a plain -s)."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def say(message: str) -> None:
    click.echo(message, err=True)


def display(path: Path) -> str:
    """A path as short as possible for messages: relative to the working directory when inside it."""
    try:
        return Path(os.path.relpath(path)).as_posix() if not os.path.relpath(path).startswith("..") else path.as_posix()
    except ValueError:
        return path.as_posix()


class stage:
    """Prints what is being done and how long it took."""

    def __init__(self, label: str):
        self.label = label

    def __enter__(self):
        self.started = time.perf_counter()
        say(f"{self.label} ...")

    def __exit__(self, kind, *_):
        if kind is None:
            say(f"  done in {time.perf_counter() - self.started:.2f} s")
