"""Characters a page must not carry, and the only line breaks seed files have."""

from __future__ import annotations

import re

# C0/C1 control characters other than tab, line feed, form feed and carriage return, and
# Unicode noncharacters: HTML forbids them, and they arrive from PDFs and spreadsheets.
_NONCHARACTERS = "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
UNSAFE = re.compile(f"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef{_NONCHARACTERS}]")
# Editors and `grep -n` count lines this way; str.splitlines also breaks on \f, \x1c or \u2028.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def replace_unsafe(text: str) -> str:
    return UNSAFE.sub("\ufffd", text)


def split_lines(text: str) -> list[str]:
    return LINE_BREAK.split(text)


# What must not reach a terminal or a one-line message: control characters (line breaks and
# tabs included), and the marks that reorder or break lines (a name could hide its real text).
TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """text with every character a terminal would act on written as an escape (\\x1b, \\u202e)."""
    return TERMINAL_UNSAFE.sub(lambda match: match[0].encode("unicode_escape", "backslashreplace").decode("ascii"),
                               text)
