"""SiteConfig: the few settings a site has, from site.toml, overridden by the host and by flags."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from urllib.parse import urlsplit

from .errors import CatalogueError, shown

CONFIG_FILE = "site.toml"


@dataclass(frozen=True)
class SiteConfig:
    title: str = "Paper Catalogue"
    description: str = "Conference papers you can browse, search, cite and share."
    language: str = "en"
    base_url: str | None = None  # e.g. https://user.github.io/REPO/; None: no absolute URLs
    source_date_epoch: int | None = None  # from $SOURCE_DATE_EPOCH: the date feeds carry

    @property
    def base_path(self) -> str:
        """The site's path on its host ('/REPO/'), for the one page that cannot use relative links."""
        return urlsplit(self.base_url).path if self.base_url else "/"

    def absolute_url(self, path: str) -> str | None:
        return self.base_url + path if self.base_url else None


def read_config(path: Path, **overrides) -> SiteConfig:
    """Settings from a TOML file (optional), then non-empty overrides (command-line flags)."""
    values = {}
    if path.exists():
        try:
            values = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise CatalogueError(f"{path.as_posix()}: not valid TOML: {error}")
        known = {f.name for f in fields(SiteConfig)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise CatalogueError(f"{path.as_posix()}: unknown setting '{unknown[0]}' (known: {', '.join(sorted(known))})")
    config = replace(SiteConfig(), **(values | {k: v for k, v in overrides.items() if v is not None}))
    return replace(config, base_url=normalise_base_url(config.base_url))


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
