"""A built site's whole-catalogue data, read back from its parts: papers.json names them."""

import json
from pathlib import Path

from catalogue.site.check import read_records


def site_records(site: Path) -> list[dict]:
    """Every paper's record of papers.json's parts, in its order."""
    return read_records(site)[0]


def site_bibtex(site: Path) -> str:
    """Every paper's BibTeX entry, from the BibTeX parts papers.json names."""
    index = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    return "\n".join((site / part["bib"]).read_text(encoding="utf-8") for part in index["parts"])


def list_rows(site: Path) -> dict[str, list]:
    """id -> row of the reading list's parts (list-data/<prefix>.js)."""
    rows = {}
    for path in sorted((site / "list-data").glob("*.js")):
        rows |= {row[0]: row for row in part_data(path)}
    return rows


def part_data(path: Path):
    """The data a part script files (catalogue/site/data_parts.py's part_script)."""
    return json.loads(path.read_text(encoding="utf-8").split("] = ", 1)[1].rstrip().removesuffix(";"))
