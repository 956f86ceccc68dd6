"""Strict YAML: the front matter read without aliases, deep nesting or a key given twice, and
YAML nodes read against what each key should hold, every mismatch an error with file and line.

A person edits these files, and YAML forgives too much: an alias of a few lines expands to
gigabytes, a nest deep enough crashes the library, a repeated key silently replaces the first.
"""

from __future__ import annotations

import json
import re
from datetime import date

import yaml

from catalogue.errors import SHOWN_LENGTH, ContentFileError, shown

# Front matter that may hold an alias, an anchor or deep nesting: flow collections, compact
# nested lists, deep indentation. What ingest writes has none of these.
MAY_NEST_OR_ALIAS = re.compile(r"[*&\[{]|[-?][ \t]+[-?]|^[ \t]{8}", re.MULTILINE)
MAX_DEPTH = 8  # the front matter needs 3: the mapping, 'links', a link
# A line of the front matter that starts with a key, plain or quoted ("title":, as YAML allows);
# values are one line: a key is never inside one.
TOP_LEVEL_KEY = re.compile(r"^[\"']?([A-Za-z_]\w*)[\"']?[ \t]*:", re.M)
# A value YAML reads as a date (unquoted, on a key's line or a list's), to find one that is no day.
DATE_VALUE = re.compile(r"^[ \t]*(?:-[ \t]+|[^#\n]*?:[ \t]+)(\d{4})-(\d\d?)-(\d\d?)\b", re.MULTILINE)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader is much faster
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def load_front_matter(front: str, path: str, first_line: int):
    """The front matter's YAML, without aliases (a few lines of them expand to gigabytes) and
    nested at most MAX_DEPTH deep (deeper, the YAML library recurses until it crashes)."""
    try:
        if MAY_NEST_OR_ALIAS.search(front):  # the events cost a third of a load: looked at only when needed
            _refuse_aliases_and_depth(yaml.parse(front, Loader=LOADER), path, first_line)
        data = yaml.load(front, Loader=LOADER)
        if _may_repeat_a_key(front):
            _refuse_repeated_keys(yaml.compose(front, Loader=LOADER), path, first_line)
        return data
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{first_line + mark.line}" if mark else path
        problem = getattr(error, "problem", None) or str(error)
        lines = front.split("\n")
        hint = _quoting_hint(lines[mark.line]) if mark and mark.line < len(lines) and "mapping values" in problem else ""
        raise ContentFileError(where, f"front matter is not valid YAML ({problem}){hint}")
    except ValueError as error:  # an unquoted date that is no day (2026-02-30): the library raises no YAMLError
        raise ContentFileError(_line_of_impossible_date(front, path, first_line),
                               f"front matter holds a date that does not exist ({error}); write a real one")


def _line_of_impossible_date(front: str, path: str, first_line: int) -> str:
    """The file and line of the first date in the front matter that no calendar has (the file alone if not found)."""
    for match in DATE_VALUE.finditer(front):
        try:
            date(*map(int, match.groups()))
        except ValueError:
            return f"{path}:{first_line + front.count(chr(10), 0, match.start())}"
    return path


def _may_repeat_a_key(front: str) -> bool:
    """A cheap look at the lines that start with a key: composing every file would cost a load again."""
    keys = TOP_LEVEL_KEY.findall(front)
    return len(keys) != len(set(keys))


def _refuse_repeated_keys(root, path: str, first_line: int) -> None:
    """YAML lets a later line with the same key replace an earlier one without a word: one of two
    hand edits (a second `authors:` added below the list's) would be lost."""
    seen: dict[str, int] = {}
    for key, _ in root.value if isinstance(root, yaml.MappingNode) else ():
        line = first_line + key.start_mark.line
        if key.value in seen:
            raise ContentFileError(f"{path}:{line}", f"front-matter key {shown(key.value)} is given twice (first on "
                                                     f"line {seen[key.value]}); keep one")
        seen[key.value] = line


def _refuse_aliases_and_depth(events, path: str, first_line: int) -> None:
    """Reads the events as they come, so that neither an alias nor a deep nest is ever expanded."""
    depth, anchored = 0, None
    for event in events:
        if isinstance(event, yaml.AliasEvent):
            raise ContentFileError(f"{path}:{first_line + event.start_mark.line}", f"front matter uses a YAML alias "
                                   f"(*{shown(event.anchor)[1:-1]}); write the value out")
        if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
            anchored = anchored or event
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise ContentFileError(f"{path}:{first_line + event.start_mark.line}", f"front matter nests lists or "
                                       f"mappings more than {MAX_DEPTH} deep; write plain values")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    if anchored:
        raise ContentFileError(f"{path}:{first_line + anchored.start_mark.line}", f"front matter uses a YAML anchor "
                               f"(&{shown(anchored.anchor)[1:-1]}); write the value out")


def _quoting_hint(line: str) -> str:
    """For `title: Foo: a bar`, the line as it must be written."""
    key, _, value = line.partition(":")
    quoted = json.dumps(value.strip(), ensure_ascii=False)  # a JSON string is a YAML double-quoted one
    if not key.strip() or ": " not in value or len(quoted) > SHOWN_LENGTH:
        return "; a value holding ': ' must be quoted, like title: \"Foo: a bar\""
    return f"; a value holding ': ' must be quoted, like {key.strip()}: {quoted}"


_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"


class NodeChecker:
    """Reads composed YAML nodes against what a key should hold; each mismatch is an error with
    the file and the node's line, and a stand-in value (empty) so that checking goes on."""

    def __init__(self, shown: str):
        self.shown = shown
        self.errors: list[tuple[int, str]] = []  # (line, message), to be reported in the file's order

    def error(self, node: yaml.Node, message: str) -> None:
        line = node.start_mark.line + 1
        self.errors.append((line, f"{self.shown}:{line}: {message}"))

    def mapping(self, node: yaml.Node | None, where: str, known: tuple[str, ...] | None,
                required: tuple[str, ...] = (), example: str = "") -> dict[str, yaml.Node]:
        """{key: value node}; `known` None allows any text key. Missing (or null) and optional: {}."""
        if node is None or (node.tag == _NULL and not required):
            return {}
        if not isinstance(node, yaml.MappingNode):
            like = f", like {example}" if example else ""
            self.error(node, f"{where} must be a set of 'key: value' lines{like}, not {_describe(node)}")
            return {}
        found: dict[str, yaml.Node] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) and key.tag == _STR else None
            if name is None or (known is not None and name not in known):
                named = f"'{key.value}'" if name else _describe(key)
                self.error(key, f"{where}: unknown key {named}" + (f" (known: {', '.join(known)})" if known else ""))
            elif name in found:
                self.error(key, f"{where}: '{name}' is given twice")
            else:
                found[name] = value
        for name in required:
            if name not in found:
                self.error(node, f"{where}: '{name}' is missing")
        return found

    def sequence(self, node: yaml.Node | None, where: str, example: str = "") -> list[yaml.Node]:
        """The items of a list; missing or null: none."""
        if node is None or node.tag == _NULL:
            return []
        if not isinstance(node, yaml.SequenceNode):
            like = f", like {example}" if example else ""
            self.error(node, f"{where} must be a list{like}, not {_describe(node)}")
            return []
        return node.value

    def text(self, node: yaml.Node | None, where: str, pattern: re.Pattern | None = None, expected: str = "") -> str:
        """A non-empty text (matching `pattern` in full); '' after an error, or when missing (reported by mapping)."""
        if node is None:
            return ""
        if not (isinstance(node, yaml.ScalarNode) and node.tag == _STR and node.value.strip()):
            self.error(node, f"{where} must be a text, not {_describe(node)}")
            return ""
        if pattern and not pattern.fullmatch(node.value):
            self.error(node, f"{where} must be {expected}, not {_describe(node)}")
            return ""
        return node.value


def _describe(node: yaml.Node) -> str:
    """A node as a message shows it: its kind, and a short scalar's value."""
    if isinstance(node, yaml.MappingNode):
        return "a set of keys"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if node.tag == _NULL:
        return "nothing"
    shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
    if node.tag == _STR:
        return f"the text '{shown}'"
    kind = {"int": "a number", "float": "a number", "bool": "true or false"}.get(node.tag.rsplit(":", 1)[-1], "no text")
    return f"{shown} ({kind}; put it in quotes to make it a text)"
