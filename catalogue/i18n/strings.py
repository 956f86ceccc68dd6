"""Interface strings: one catalogue per language in catalogue/i18n/locales/<language>.yaml.

English is the reference: every other catalogue must have exactly its keys, with the same
{placeholders}, so a missing translation stops the build instead of showing a blank.
A key may hold `one`/`other` forms, chosen by a count (languages without plurals give `other`).
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import yaml
from markupsafe import Markup, escape

from catalogue.errors import CatalogueError, shown
from catalogue.model import Topic

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
REFERENCE = "en"
PLURAL_FORMS = ("one", "other")
SCRIPT_GROUP = "script."  # the strings assets/*.js show, handed to them in each page
DIGIT_GROUP = SCRIPT_GROUP + "digit_group"  # what separates groups of three digits, in Python and the scripts


@dataclass(frozen=True)
class Strings:
    """The interface text of one language; `t("nav.papers")` in templates."""

    language: str
    table: dict[str, str | dict[str, str]]
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # strings without values, made once

    def number(self, value: int) -> str:
        """A whole number with its digits grouped as the language groups them ("10,000")."""
        return f"{value:,}".replace(",", self.table[DIGIT_GROUP])

    def shown(self, values: dict) -> dict:
        """Values as a string shows them: whole numbers grouped (as common.js's catalogueFill does)."""
        return {name: self.number(value) if type(value) is int else value for name, value in values.items()}

    def text(self, key: str, count: int | None = None, /, **values) -> str:
        """Plain text, for Python callers (titles, descriptions, charts)."""
        return self.form(key, count).format(**self.shown({"count": count, **values}))

    def __call__(self, key: str, count: int | None = None, /, **values) -> Markup:
        """HTML for templates: the string escaped, values escaped unless already markup."""
        if not values:  # most of a page's strings: the same on every page
            if (key, count) not in self.memo:
                self.memo[key, count] = Markup(str(escape(self.form(key, count))).format(**self.shown({"count": count})))
            return self.memo[key, count]
        # escape() leaves markup as it is and escapes the rest; the braces of the escaped text survive
        escaped = {name: escape(value) for name, value in self.shown(values).items()}
        return Markup(str(escape(self.form(key, count))).format(**{**self.shown({"count": count}), **escaped}))

    def form(self, key: str, count: int | None) -> str:
        try:
            entry = self.table[key]
        except KeyError:
            raise CatalogueError(f"no interface string '{key}' in {self.language}.yaml") from None
        if isinstance(entry, dict):
            if count is None:
                raise CatalogueError(f"interface string '{key}' has plural forms: give it a count")
            return entry["one"] if count == 1 and "one" in entry else entry["other"]
        return entry

    def script_strings(self) -> dict[str, str | dict[str, str]]:
        """The strings scripts need, keyed without their group: {"copied_link": ...}."""
        return {key.removeprefix(SCRIPT_GROUP): value for key, value in sorted(self.table.items())
                if key.startswith(SCRIPT_GROUP)}


def available_languages() -> list[str]:
    return sorted(path.stem for path in LOCALES_DIR.glob("*.yaml"))


def load_strings(language: str) -> Strings:
    """The catalogue for a language tag (case-insensitive; 'zh' finds 'zh-CN'), checked against English."""
    match = find_language(language)
    table = read_table(match)
    if match != REFERENCE:
        check_complete(match, table, read_table(REFERENCE))
    return Strings(match, table)


def find_language(language: str) -> str:
    available = available_languages()
    found = match_language(language, available)
    if found is None:
        raise CatalogueError(f"no interface strings for language {shown(language)}; available: {', '.join(available)} "
                             f"(add catalogue/i18n/locales/{language}.yaml, translated from en.yaml)")
    return found


def match_language(language: str, available: Iterable[str]) -> str | None:
    """The best of `available` for a language tag: the same tag (any case, '_' or '-'), else its
    base language ('en-GB' -> 'en'), else a regional form of it ('zh' -> 'zh-CN')."""
    def norm(tag: str) -> str:
        return tag.strip().lower().replace("_", "-")

    wanted, candidates = norm(language), {norm(tag): tag for tag in sorted(available)}
    base = wanted.split("-")[0]
    if wanted in candidates:
        return candidates[wanted]
    if base in candidates:
        return candidates[base]
    return next((tag for key, tag in candidates.items() if key.split("-")[0] == base), None)


def localise_topic(topic: Topic, language: str) -> Topic:
    """The topic with its label in the language, when topics.yaml gives one (`labels:`)."""
    labels = dict(topic.translations)
    found = match_language(language, labels)
    return replace(topic, label=labels[found]) if found else topic


@cache
def read_table(language: str) -> dict[str, str | dict[str, str]]:
    """A locale file flattened to dotted keys ('nav.papers'); plural forms kept as a dict."""
    path = LOCALES_DIR / f"{language}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise CatalogueError(f"{path}: not valid YAML: {error}") from None
    table: dict[str, str | dict[str, str]] = {}

    def walk(prefix: str, node) -> None:
        for key, value in node.items():
            name = f"{prefix}{key}"
            if isinstance(value, dict) and set(value) <= set(PLURAL_FORMS) and "other" in value:
                table[name] = {form: str(text) for form, text in value.items()}
            elif isinstance(value, dict):
                walk(name + ".", value)
            elif isinstance(value, str):
                table[name] = value
            else:
                raise CatalogueError(f"{path}: '{name}' must be text, not {shown(value)}")

    walk("", data or {})
    return table


def check_complete(language: str, table: dict, reference: dict) -> None:
    """Same keys and placeholders as English, or an error naming what is missing."""
    problems = [f"missing '{key}'" for key in sorted(set(reference) - set(table))]
    problems += [f"unknown '{key}' (not in en.yaml)" for key in sorted(set(table) - set(reference))]
    for key in sorted(set(reference) & set(table)):
        expected, found = placeholders(reference[key]), placeholders(table[key])
        if expected != found:
            problems.append(f"'{key}' uses {{{', '.join(sorted(found))}}}, English uses {{{', '.join(sorted(expected))}}}")
    if problems:
        raise CatalogueError(f"catalogue/i18n/locales/{language}.yaml: " + "; ".join(problems))


def placeholders(entry: str | dict[str, str]) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field}
