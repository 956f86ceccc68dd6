"""The only writer of site/: pages go to a staging folder that replaces site/ when complete.

A build that fails or is killed leaves the previous site/ as it was; a stale staging
folder from a killed build is removed by the next one.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import CatalogueError

STAGING_PREFIX = ".site-staging-"


@contextmanager
def staged_site(out_dir: Path) -> Iterator[Path]:
    """A fresh folder beside out_dir; it becomes out_dir only if the block succeeds."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.parent.glob(f"{STAGING_PREFIX}{out_dir.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out_dir.name}-", dir=out_dir.parent))
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    swap_in(staging, out_dir)


def swap_in(staging: Path, out_dir: Path) -> None:
    """Replace out_dir by staging with two renames, so site/ is never half-written."""
    retired = staging.with_name(staging.name + "-old")
    if out_dir.exists():
        out_dir.rename(retired)
    staging.rename(out_dir)
    shutil.rmtree(retired, ignore_errors=True)


def write_pages(pages: dict[str, str | bytes], site_dir: Path) -> int:
    """Write each file under site_dir; refuse any path that would land outside it. Returns bytes."""
    root = site_dir.resolve()
    total = 0
    for relative, content in sorted(pages.items()):
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or target == root:
            raise CatalogueError(f"refusing to write {relative!r}: it is outside {site_dir}")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        target.write_bytes(data)
        total += len(data)
    return total


def copy_assets(assets_dir: Path, site_dir: Path) -> None:
    if not assets_dir.is_dir():
        raise CatalogueError(f"{assets_dir}: the assets folder is missing")
    shutil.copytree(assets_dir, site_dir / "assets", dirs_exist_ok=True)
