"""content/topics.yaml, the topic taxonomy: read and checked against its schema (every problem
reported, each with its line), and the package's default written for a new catalogue.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from catalogue.errors import CatalogueError
from catalogue.portable import is_portable
from catalogue.model import Topic
from catalogue.content.fields import PORTABLE_SLUG, SLUG
from catalogue.content.paper_file import write_text_atomic
from catalogue.content.strict_yaml import LOADER, NodeChecker

TOPICS_FILE = "topics.yaml"
DEFAULT_TAXONOMY = Path(__file__).parent / "defaults" / TOPICS_FILE  # what a new catalogue starts with
TOPIC_KEYS = ("slug", "label", "keywords", "labels")


def write_default_taxonomy(content_dir: Path) -> Path | None:
    """content/topics.yaml from the package's default taxonomy, when content/ has none (a new
    catalogue); returns the file written, or None when there is one already (never replaced)."""
    path = content_dir / TOPICS_FILE
    if os.path.lexists(path):
        return None
    content_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, DEFAULT_TAXONOMY.read_text(encoding="utf-8"))
    return path


def read_taxonomy(content_dir: Path) -> tuple[tuple[Topic, ...], str]:
    """The topics and the fallback topic's slug from content/topics.yaml."""
    path = content_dir / TOPICS_FILE
    if not path.is_file():
        raise CatalogueError(f"{path.as_posix()}: the topic taxonomy is missing (or not a file); "
                             "'python3 build.py ingest' writes the default one")
    return parse_taxonomy(path.read_text(encoding="utf-8"), path.as_posix())


def parse_taxonomy(text: str, shown: str) -> tuple[tuple[Topic, ...], str]:
    """The topics and the fallback slug from topics.yaml's text, checked against its schema:
    `fallback` (a topic's slug) and `topics`, a list of {slug, label, keywords, labels}. Every
    problem is reported, each as `file:line: message` naming the key."""
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise CatalogueError(f"{shown}:{mark.line + 1 if mark else 1}: not valid YAML: "
                             f"{getattr(error, 'problem', None) or error}")
    if root is None:
        raise CatalogueError(f"{shown}:1: empty; it needs 'fallback: <slug>' and a list under 'topics'")
    check = NodeChecker(shown)
    top = check.mapping(root, "the file", ("fallback", "topics"), required=("fallback", "topics"))
    topics: list[Topic] = []
    lines: dict[str, int] = {}  # slug -> its topic's number
    named: set[str] = set()  # what each topic gives as its slug, valid or not (the fallback names one of them)
    for number, node in enumerate(check.sequence(top.get("topics"), "'topics'"), 1):
        where = f"topic {number}"
        item = check.mapping(node, where, TOPIC_KEYS, required=("slug", "label"))
        slug = check.text(item.get("slug"), f"'slug' of {where}", SLUG, "lower-case letters, digits and single hyphens")
        if slug and not is_portable(slug):
            check.error(item["slug"], f"'slug' of {where} must be {PORTABLE_SLUG}, not '{slug}'")
            slug = ""
        named.add(getattr(item.get("slug"), "value", slug))
        label = check.text(item.get("label"), f"'label' of {where}")
        keywords = tuple(check.text(word, f"each of 'keywords' of {where}") for word in
                         check.sequence(item.get("keywords"), f"'keywords' of {where}", "[robust, adversarial]"))
        labels = check.mapping(item.get("labels"), f"'labels' of {where}", None, example="{zh-CN: 图学习}")
        translations = tuple(sorted((code, check.text(value, f"'labels: {code}' of {where}"))
                                    for code, value in labels.items()))
        if slug in lines:
            check.error(item["slug"], f"'slug' of {where}: '{slug}' is also topic {lines[slug]}'s; slugs must differ")
        elif slug:
            lines[slug] = number
        topics.append(Topic(slug or "", label or "", tuple(str(word).lower() for word in keywords), translations))
    if isinstance(top.get("topics"), yaml.SequenceNode) and not topics:
        check.error(top["topics"], "'topics' lists no topic; a catalogue needs at least one")
    fallback = check.text(top.get("fallback"), "'fallback'")
    if fallback and topics and fallback not in named:
        check.error(top["fallback"], f"'fallback' is '{fallback}', not the slug of one of the topics")
    if check.errors:
        raise CatalogueError("\n".join(message for _, message in sorted(check.errors)))
    return tuple(topics), fallback
