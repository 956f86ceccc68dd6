"""A paper's content file: YAML front matter (the keys of fields.FIELDS), a blank line, the
abstract; rendered from a Paper, parsed back into the same Paper, read and written whole.

content/ is the catalogue's database and people edit it. Reading is strict: an unknown or
ill-typed front-matter key is an error naming the file and the key, never silently ignored, and
every problem of a file is reported at once, one a line (as config reports site.toml's).
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

import yaml

from catalogue.errors import SHOWN_LENGTH, ContentFileError, shown
from catalogue.model import Paper
from catalogue.content.fields import FIELDS, KEYS, UNSAFE_IN_ABSTRACT, no_control_characters
from catalogue.content.strict_yaml import DUMPER, load_front_matter


def render_paper_markdown(paper: Paper) -> str:
    """The content file for a paper: front matter, a blank line, the abstract."""
    data = {}
    for field in FIELDS:
        value = getattr(paper, field.name)
        value = field.write(value) if field.write else value
        if value not in field.omitted:
            data[field.name] = value
    front = yaml.dump(data, Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=1000)
    abstract = paper.abstract.strip()
    return f"---\n{front}---\n\n{abstract}\n" if abstract else f"---\n{front}---\n"


def parse_paper_markdown(text: str, path: str) -> Paper:
    """A Paper from a content file's text; ContentFileError names the file and the field, with
    every problem of the file (a file without YAML front matter stops at that)."""
    match = re.match(r"\A\ufeff?---[ \t\r]*\n(.*?)\n---[ \t\r]*(?:\n|\Z)(.*)\Z", text, re.S)
    if not match:
        raise ContentFileError(path, "no front matter: the file must start with '---', the fields, then '---'")
    first_line = text.count("\n", 0, match.start(1)) + 1  # the file's line where the front matter starts
    data = load_front_matter(match[1], path, first_line)
    if not isinstance(data, dict):
        raise ContentFileError(path, "front matter must be a set of 'key: value' lines")
    problems = [ContentFileError(path, f"unknown front-matter key {shown(key)}{did_you_mean(key)} "
                                       f"(known keys: {', '.join(KEYS)})")
                for key in sorted(set(map(str, data)) - set(KEYS))]
    values = {}
    for field in FIELDS:  # one problem at most for each key
        key = field.name
        value = data.get(key, field.absent)
        try:
            if field.required and value in (None, ""):
                raise ContentFileError(path, f"front-matter key '{key}' is missing")
            if key in data:
                no_control_characters(path, key, value)
            values[key] = field.read(path, key, value)
        except ContentFileError as problem:
            problems.append(problem)
    abstract = match[2].strip()  # empty for a paper its list gives no abstract for
    if not abstract and data.get("title_source", "derived") == "derived":
        problems.append(ContentFileError(path, "the abstract (the text after the front matter) is empty, and the "
                                               "title was derived from it; write the abstract back"))
    if not match[2].replace("\n", "").isprintable() and (bad := UNSAFE_IN_ABSTRACT.search(match[2])):
        line = text.count("\n", 0, match.start(2) + bad.start()) + 1
        problems.append(ContentFileError(f"{path}:{line}", f"the abstract holds a control character "
                                                           f"(U+{ord(bad[0]):04X}); delete it"))
    if problems:
        raise _together(problems)
    return Paper(abstract=abstract, **values)


def did_you_mean(key: str) -> str:
    """A hint naming the known key a mistyped one is closest to ('vneue' -> 'venue'), or nothing."""
    # its start only: difflib's cost grows with the lengths compared, and a pasted paragraph is no typo
    close = difflib.get_close_matches(key[:SHOWN_LENGTH], KEYS, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _together(problems: list[ContentFileError]) -> ContentFileError:
    """A file's problems as one error, one a line, as config joins site.toml's (each line starts
    with the file, and its line where known)."""
    where, _, message = "\n".join(problem.message for problem in problems).partition(": ")
    return ContentFileError(where, message)


def read_paper(path: Path) -> Paper:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        line = error.object.count(b"\n", 0, error.start) + 1
        raise ContentFileError(f"{path.as_posix()}:{line}", f"not UTF-8 text (byte {error.start}); save the file as "
                                                            "UTF-8")
    return parse_paper_markdown(text, path.as_posix())


def write_text_atomic(path: Path, text: str) -> None:
    """Write a content file so that a killed process leaves the old file or the new, never half."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
