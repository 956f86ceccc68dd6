"""Our content/ as a Hugo site: bench/hugo/ (config and layouts) plus a converted content folder.

    python bench/hugo_site.py --content content --out /tmp/hugo-site && hugo --source /tmp/hugo-site --quiet

Only what Hugo needs changes: each content/papers/<slug>.md keeps its abstract as the page body
(Markdown; `$...$` math is left as text, Hugo does not convert it) and its front matter moves
under `params:`, plus `weight` (our display order: venue, newest year, seed file and line) and
`venues: ["ICML 2026"]` (a taxonomy; our venue pages are per venue and year). Topic labels from
content/topics.yaml become the titles of the topic term pages. assets/ is copied to static/.
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

import yaml

PROJECT = Path(__file__).resolve().parent.parent
TWIN = Path(__file__).resolve().parent / "hugo"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
FRONT = re.compile(r"\A\ufeff?---\s*\n(.*?)\n---\s*(?:\n|\Z)(.*)\Z", re.S)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _source_key(source: str) -> tuple[str, int]:
    path, _, line = str(source).rpartition(":")
    return (path, int(line)) if line.isdigit() else (str(source), 0)


def write_hugo_site(content: Path, out: Path, assets: Path = PROJECT / "assets") -> int:
    """out/ = a Hugo site (config, layouts, static/assets, content/) for content/; returns the paper count."""
    shutil.copytree(TWIN, out)
    shutil.copytree(assets, out / "static" / "assets")
    papers = []
    for path in sorted((content / "papers").glob("*.md")):
        match = FRONT.match(path.read_text(encoding="utf-8"))
        if not match:
            raise ValueError(f"{path}: no front matter")
        papers.append((yaml.load(match[1], Loader=_Loader), match[2].strip()))
    papers.sort(key=lambda p: (p[0].get("venue") or "~", -(p[0].get("year") or 0), _source_key(p[0]["source"]),
                               p[0]["id"]))
    target = out / "content" / "papers"
    target.mkdir(parents=True)
    venues = {}
    for weight, (data, abstract) in enumerate(papers, 1):
        venue = f"{data.get('venue') or 'Unknown venue'} {data.get('year') or ''}".strip()
        venues[slugify(venue)] = venue
        front = {"title": data["title"], "slug": data["slug"], "weight": weight,
                 "topics": data.get("topics") or [], "venues": [venue],
                 "params": {k: v for k, v in data.items() if k not in ("title", "slug", "topics")}}
        text = yaml.dump(front, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
        (target / f"{data['slug']}.md").write_text(f"---\n{text}---\n\n{abstract}\n", encoding="utf-8")
    topics = yaml.load((content / "topics.yaml").read_text(encoding="utf-8"), Loader=_Loader)["topics"]
    terms = [("topics", t["slug"], t["label"]) for t in topics] + [("venues", s, v) for s, v in venues.items()]
    for taxonomy, slug, label in terms:
        folder = out / "content" / taxonomy / slug
        folder.mkdir(parents=True)
        (folder / "_index.md").write_text(f"---\ntitle: {yaml.dump(label, Dumper=_Dumper).splitlines()[0]}\n---\n",
                                          encoding="utf-8")
    for taxonomy, title in (("topics", "Topics"), ("venues", "Venues")):
        (out / "content" / taxonomy / "_index.md").write_text(f"---\ntitle: {title}\n---\n", encoding="utf-8")
    return len(papers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--content", type=Path, default=PROJECT / "content")
    parser.add_argument("--out", type=Path, required=True, help="a folder that does not exist yet")
    args = parser.parse_args()
    count = write_hugo_site(args.content, args.out)
    print(f"{count} papers -> {args.out} (run: hugo --source {args.out} --quiet)")


if __name__ == "__main__":
    main()
