"""Errors a person can act on: each names the file (and line) it is about."""

from __future__ import annotations

import click


class CatalogueError(click.ClickException):
    """A problem that stops the build; click prints it and exits non-zero."""


class ContentFileError(CatalogueError):
    """A file in content/ that cannot be read as a paper; the message starts with its path."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
