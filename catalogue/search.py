"""Search: Pagefind indexes the built pages (site/pagefind/) for the hosted site, and a small
offline index (site/search-index.js) serves pages opened from disk, where Pagefind cannot load."""

from __future__ import annotations

import functools
import json
import math
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
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


# --- The offline index: a plain script, so that search works from file:// too -------------

FALLBACK_FILE = "search-index.js"
TERMS_PER_PAPER = 10
CJK_PIECES_PER_PAPER = 400
STOPWORDS = frozenset("""a about above across after again against all also although among an and any are as at
be because been before being below between both but by can could did do does doing done during each either
even every few for from further had has have having here how however i if in into is it its itself just
less many may more most much must new no nor not novel of off often on once only or other our ours out over
own paper per propose proposed rather same several should show shows so some such than that the their them
then there these they this those through thus to too under until up upon us use used uses using very via
was we were what when where whether which while who whom why will with within without would yet""".split())


# Chinese, Japanese and Korean runs have no spaces between words: they are cut into overlapping
# two-character pieces (强化学习 -> 强化 化学 学习), which match a query cut the same way.
WORD = re.compile(r"[^\W_]+")
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def words(text: str) -> list[str]:
    """Lower-case words with plurals folded, CJK runs as bigrams (the search page's script does the same)."""
    text = text.lower()
    if not CJK_RUN.search(text):  # most text: words only
        return [stem(word) for word in WORD.findall(text)]
    result = []
    for token in WORD.findall(CJK_RUN.sub(lambda run: f" {run.group()} ", text)):
        if CJK_RUN.fullmatch(token):
            result += [token[i:i + 2] for i in range(max(1, len(token) - 1))]
        else:
            result.append(stem(token))
    return result


@functools.lru_cache(maxsize=1 << 16)  # a catalogue has a few tens of thousands of distinct words
def stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[-3] in "sxzh":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@dataclass(frozen=True)
class SearchEntry:
    """What the offline search knows of a paper (plain text, no markup)."""

    path: str
    name: str
    title: str
    venue: str
    topics: tuple[int, ...]  # indexes into the topic labels
    abstract: str


def render_fallback_index(entries: list[SearchEntry], topic_labels: list[str]) -> str:
    """A script that sets window.CATALOGUE_SEARCH: papers with their most telling words.

    Each paper keeps its slug, name, title and the abstract words that set it apart most
    (tf-idf), so the file stays small (under 200 bytes an English paper) while names, titles and key
    terms match. An empty name means the title begins with it.
    """
    abstract_words = [words(e.abstract) for e in entries]
    documents = [Counter(w for w in found if w not in STOPWORDS and len(w) > 2) for found in abstract_words]
    frequency = Counter(word for document in documents for word in document)
    venues = sorted({e.venue for e in entries})
    papers = []
    for entry, document, found in zip(entries, documents, abstract_words):
        in_title = set(words(f"{entry.name} {entry.title}"))
        ranked = sorted((w for w in document if w not in in_title),
                        key=lambda w: (-document[w] * math.log(len(entries) / frequency[w] + 1), w))
        name = "" if entry.title.startswith(entry.name) else entry.name  # most titles begin with the name
        # CJK pieces are too many and too alike to rank: a paper keeps them all (up to a cap).
        pieces = dict.fromkeys(w for w in found if CJK_RUN.match(w) and w not in in_title)
        terms = ranked[:TERMS_PER_PAPER] + list(pieces)[:CJK_PIECES_PER_PAPER]
        papers.append([entry.path.removeprefix("papers/").removesuffix("/index.html"), name, entry.title,
                       venues.index(entry.venue), list(entry.topics), " ".join(terms)])
    data = {"stopwords": " ".join(sorted(STOPWORDS)), "topics": topic_labels, "venues": venues, "papers": papers}
    return "window.CATALOGUE_SEARCH = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n"
