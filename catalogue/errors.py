"""Errors a person can act on: each names the file (and line) it is about."""

from __future__ import annotations

import reprlib

import click


class CatalogueError(click.ClickException):
    """A problem that stops the build; click prints it and exits non-zero."""


class ContentFileError(CatalogueError):
    """A file in content/ that cannot be read as a paper; the message starts with its path."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")


SHOWN_LENGTH = 80  # the most of a value a message quotes: enough to recognise it, never a whole file
_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = SHOWN_LENGTH
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = 4
_SHOWN.maxlevel = 2


def shown(value: object) -> str:
    """A value as a message quotes it: its repr (so a trailing newline or a control character is
    visible), cut to about SHOWN_LENGTH characters with '...'. reprlib stops early in big nested
    values, so the cost is bounded too, not only the length."""
    text = _SHOWN.repr(value)
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH - 3] + "..."
