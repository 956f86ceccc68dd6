"""Search is the last stage: Pagefind indexes the built pages in site/pagefind/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from .errors import CatalogueError

BUNDLE_DIR = "pagefind"


def index_site(site_dir: Path) -> str:
    """Run Pagefind over site_dir (its old bundle removed first); returns Pagefind's summary."""
    shutil.rmtree(site_dir / BUNDLE_DIR, ignore_errors=True)  # Pagefind never clears stale files
    command = [sys.executable, "-m", "pagefind", "--site", str(site_dir), "--output-subdir", BUNDLE_DIR]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except FileNotFoundError as error:
        raise CatalogueError(f"cannot run Pagefind ({error}); install it with 'pip install -r requirements.txt'")
    if result.returncode != 0 or not (site_dir / BUNDLE_DIR / "pagefind.js").exists():
        output = (result.stderr or result.stdout).strip()[-2000:]
        raise CatalogueError(f"Pagefind failed (exit {result.returncode}):\n{output}\n"
                             "Is it installed? 'pip install -r requirements.txt' brings it; or build with --no-search.")
    summary = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith(("Indexed", "Found"))]
    return "; ".join(summary)
