"""SiteConfig: the few settings a site has, from site.toml, overridden by the host and by flags."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from catalogue.errors import CatalogueError, shown
from catalogue.routes import absolute
from catalogue.i18n.strings import load_strings

CONFIG_FILE = "site.toml"
# The settings site.toml may hold (each a text), with an example of each for messages.
SETTINGS = {"title": "My Catalogue", "description": "Papers from ...", "language": "en",
            "base_url": "https://example.org/catalogue/"}
NOT_EMPTY = ("title", "language")


@dataclass(frozen=True)
class SiteConfig:
    title: str = "Paper Catalogue"
    description: str = ("Conference papers you can browse, search, cite and share: abstracts with rendered math, "
                        "topics and code links.")
    language: str = "en"
    base_url: str | None = None  # e.g. https://user.github.io/REPO/; None: no absolute URLs

    @property
    def base_path(self) -> str:
        """The site's path on its host ('/REPO/'), for the one page that cannot use relative links."""
        return urlsplit(self.base_url).path if self.base_url else "/"

    def absolute_url(self, path: str) -> str | None:
        return absolute(self.base_url, path)


def read_config(path: Path, **overrides) -> SiteConfig:
    """Settings from a TOML file (optional), then non-empty overrides (command-line flags); a title
    or description neither gives is the interface language's own (`site.title`, `site.description`
    in catalogue/i18n/locales/): a Chinese site gets a Chinese title."""
    if path.exists() and not path.is_file():  # a FIFO would never end, a folder is no settings file
        raise CatalogueError(f"{path.as_posix()}: not a regular file; the settings file must be a TOML text file")
    values = parse_config_file(path.read_text(encoding="utf-8"), path.as_posix()) if path.exists() else {}
    given = values | {k: v for k, v in overrides.items() if v is not None}
    config = replace(SiteConfig(), **given)
    t = load_strings(config.language).text
    defaults = {"title": t("site.title"), "description": t("site.description")}
    return replace(config, base_url=normalise_base_url(config.base_url),
                   **{key: text for key, text in defaults.items() if key not in given})


def parse_config_file(text: str, shown: str) -> dict[str, str]:
    """site.toml's settings, checked against its schema: each of SETTINGS, a text in quotes
    (title and language not empty), and nothing else. Every problem is reported, each as
    `file:line: message` naming the key."""
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        where = re.search(r"\(at line (\d+), column \d+\)$", str(error))
        raise CatalogueError(f"{shown}:{where[1] if where else 1}: not valid TOML: {str(error).split(' (at line')[0]}")
    errors = []
    for key, value in values.items():
        at = f"{shown}:{_line_of(text, key)}"
        if key not in SETTINGS:
            errors.append(f"{at}: unknown setting '{key}' (known: {', '.join(SETTINGS)})")
        elif not isinstance(value, str):
            errors.append(f"{at}: '{key}' must be a text in quotes, like {key} = \"{SETTINGS[key]}\", "
                          f"not {_as_written(value)}")
        elif key in NOT_EMPTY and not value.strip():
            errors.append(f"{at}: '{key}' must not be empty, like {key} = \"{SETTINGS[key]}\"")
    if errors:
        raise CatalogueError("\n".join(errors))
    return values


def _as_written(value: object) -> str:
    """A TOML value as a message shows it."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value).lower() if isinstance(value, bool) else repr(value)[:40]


def _line_of(text: str, key: str) -> int:
    """The line where a top-level key is set (tomllib gives values, not places): the first line
    that starts with the key, bare or quoted, then '=' (or ']' for a table); 1 if none does."""
    pattern = re.compile(rf"^\s*\[?\s*([\"']?){re.escape(key)}\1\s*[=\]]")
    return next((number for number, line in enumerate(text.splitlines(), 1) if pattern.match(line)), 1)


def host_base_url(environment: dict[str, str]) -> str | None:
    """The address a host announces while it builds: Netlify's URL, or DEPLOY_PRIME_URL for
    deploy previews and branch deploys (so their links point at themselves)."""
    if environment.get("NETLIFY") != "true":
        return None
    if environment.get("CONTEXT", "production") != "production" and environment.get("DEPLOY_PRIME_URL"):
        return environment["DEPLOY_PRIME_URL"]
    return environment.get("URL") or None


def normalise_base_url(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)  # (which drops line breaks and tabs, hence the search for spaces and controls)
    if parts.scheme not in ("http", "https") or not parts.netloc or re.search(r"[\s\x00-\x1f\x7f]", url):
        raise CatalogueError(f"base URL {shown(url)} must be an absolute http(s) address without spaces, like "
                             "https://example.org/catalogue/")
    return url if url.endswith("/") else url + "/"
