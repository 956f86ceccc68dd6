"""topics.yaml and site.toml against their schemas (every problem as file:line naming the key),
and the default taxonomy a new catalogue starts with."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from catalogue.cli import main
from catalogue.config import parse_config_file, read_config
from catalogue.content.taxonomy import DEFAULT_TAXONOMY, TOPICS_FILE, parse_taxonomy, read_taxonomy
from catalogue.errors import CatalogueError
from catalogue.model import Topic
from conftest import PROJECT

SHOWN = "content/topics.yaml"
TOPIC = "  - slug: robustness\n    label: Robustness\n"


def taxonomy(topics: str = TOPIC, fallback: str = "fallback: robustness\n") -> str:
    return f"{fallback}topics:\n{topics}"


def test_a_taxonomy_reads_as_topics_in_order():
    text = taxonomy(TOPIC + "    keywords: [Robust, adversarial attack]\n    labels: {zh-CN: 鲁棒性}\n"
                    "  - slug: graphs\n    label: Graphs\n    keywords:\n")
    assert parse_taxonomy(text, SHOWN) == ((Topic("robustness", "Robustness", ("robust", "adversarial attack"),
                                                  (("zh-CN", "鲁棒性"),)),
                                            Topic("graphs", "Graphs", ())), "robustness")


@pytest.mark.parametrize("text, message", [
    (taxonomy(TOPIC + "    keywords: robust\n"),
     "5: 'keywords' of topic 1 must be a list, like [robust, adversarial], not the text 'robust'"),
    (taxonomy(TOPIC + "    keywords: [robust, 42]\n"),
     "5: each of 'keywords' of topic 1 must be a text, not 42 (a number; put it in quotes to make it a text)"),
    (taxonomy("  - slug: robustness\n    label: 3\n"),
     "4: 'label' of topic 1 must be a text, not 3 (a number; put it in quotes to make it a text)"),
    (taxonomy("  - slug: robustness\n    label: yes\n"),
     "4: 'label' of topic 1 must be a text, not yes (true or false; put it in quotes to make it a text)"),
    (taxonomy("  - slug: robustness\n"), "3: topic 1: 'label' is missing"),
    (taxonomy(TOPIC + "  - label: Graphs\n"), "5: topic 2: 'slug' is missing"),
    (taxonomy(TOPIC + "    colour: red\n"),
     "5: topic 1: unknown key 'colour' (known: slug, label, keywords, labels)"),
    (taxonomy() + "version: 2\n", "5: the file: unknown key 'version' (known: fallback, topics)"),
    (taxonomy(TOPIC + TOPIC), "5: 'slug' of topic 2: 'robustness' is also topic 1's; slugs must differ"),
    (taxonomy(fallback="fallback: graphs\n"), "1: 'fallback' is 'graphs', not the slug of one of the topics"),
    (taxonomy(fallback=""), "1: the file: 'fallback' is missing"),
    (taxonomy(fallback="fallback: robustness\nfallback: robustness\n"), "2: the file: 'fallback' is given twice"),
    (taxonomy("  - slug: Robust_Ness\n    label: R\n", "fallback: Robust_Ness\n"),
     "3: 'slug' of topic 1 must be lower-case letters, digits and single hyphens, not the text 'Robust_Ness'"),
    (taxonomy("  - slug: \"robustness\\n\"\n    label: R\n", "fallback: \"robustness\\n\"\n"),
     "3: 'slug' of topic 1 must be lower-case letters, digits and single hyphens, not the text 'robustness\n'"),
    (taxonomy(TOPIC + "    labels: [zh-CN]\n"),
     "5: 'labels' of topic 1 must be a set of 'key: value' lines, like {zh-CN: 图学习}, not a list"),
    (taxonomy(TOPIC + "    labels: {zh-CN: 7}\n"),
     "5: 'labels: zh-CN' of topic 1 must be a text, not 7 (a number; put it in quotes to make it a text)"),
    (taxonomy("  robustness\n"), "3: 'topics' must be a list, not the text 'robustness'"),
    ("fallback: robustness\ntopics: []\n", "2: 'topics' lists no topic; a catalogue needs at least one"),
    ("- robustness\n", "1: the file must be a set of 'key: value' lines, not a list"),
    ("", "1: empty; it needs 'fallback: <slug>' and a list under 'topics'"),
    ("fallback: [\n", "2: not valid YAML: did not find expected node content"),
])
def test_each_problem_in_topics_yaml_names_the_line_and_the_key(text, message):
    with pytest.raises(CatalogueError) as raised:
        parse_taxonomy(text, SHOWN)
    assert raised.value.message == f"{SHOWN}:{message}"


def test_every_problem_is_reported_in_the_files_order():
    text = taxonomy("  - slug: a\n    label: 1\n  - slug: a\n    label: B\n    keywords: b\n", "fallback: z\n")
    with pytest.raises(CatalogueError) as raised:
        parse_taxonomy(text, SHOWN)
    assert [line.split(": ", 1)[0] for line in raised.value.message.splitlines()] == [
        f"{SHOWN}:{n}" for n in (1, 4, 5, 7)]


def test_the_default_taxonomy_is_valid_and_the_projects_is_too():
    topics, fallback = parse_taxonomy(DEFAULT_TAXONOMY.read_text(encoding="utf-8"), DEFAULT_TAXONOMY.as_posix())
    assert len(topics) > 5 and fallback in {topic.slug for topic in topics}
    assert read_taxonomy(PROJECT / "content")[1]


SETTINGS_FILE = "site.toml"


@pytest.mark.parametrize("text, message", [
    ("title = 3\n", "1: 'title' must be a text in quotes, like title = \"My Catalogue\", not 3"),
    ("title = \"T\"\nbase_url = true\n",
     "2: 'base_url' must be a text in quotes, like base_url = \"https://example.org/catalogue/\", not true"),
    ("# settings\n\n  \"language\" = [\"en\"]\n", "3: 'language' must be a text in quotes, like language = \"en\", "
                                                 "not a list"),
    ("[description]\ntext = \"x\"\n",
     "1: 'description' must be a text in quotes, like description = \"Papers from ...\", not a table"),
    ("title = \"\"\n", "1: 'title' must not be empty, like title = \"My Catalogue\""),
    ("title = \"T\"\ncolour = \"red\"\n", "2: unknown setting 'colour' (known: title, description, language, base_url)"),
    ("source_date_epoch = 5\n", "1: unknown setting 'source_date_epoch' (known: title, description, language, "
                                "base_url)"),  # from the environment only
    ("title = \"T\"\ntitle = \"U\"\n", "2: not valid TOML: Cannot overwrite a value"),
])
def test_each_problem_in_site_toml_names_the_line_and_the_key(text, message):
    with pytest.raises(CatalogueError) as raised:
        parse_config_file(text, SETTINGS_FILE)
    assert raised.value.message == f"{SETTINGS_FILE}:{message}"


def test_the_projects_settings_are_valid(tmp_path):
    assert read_config(PROJECT / SETTINGS_FILE).title


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes, but the build's own cache and lock (lock.py leaves its empty lock file)."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and "/.cache/" not in f"/{path.relative_to(root).as_posix()}" and path.name != ".lock"}


def test_a_new_catalogue_gets_the_default_taxonomy_and_builds_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PROJECT / "seeds", tmp_path / "seeds")
    before = snapshot(tmp_path)
    result = CliRunner().invoke(main, ["ingest", "--seeds", "seeds", "--content", "content2"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (f"content2/{TOPICS_FILE}: no topic taxonomy; wrote the default one "
                                             "(edit it to change topics)")
    after = snapshot(tmp_path)
    assert after[f"content2/{TOPICS_FILE}"] == DEFAULT_TAXONOMY.read_bytes()
    new = set(after) - set(before)
    assert {path for path in new if not path.startswith("content2/papers/")} == {
        f"content2/{TOPICS_FILE}", "content2/.derived.json", "content2/.ingested.json"}
    assert len([path for path in new if path.startswith("content2/papers/")]) > 30
    again = CliRunner().invoke(main, ["ingest", "--seeds", "seeds", "--content", "content2"])
    assert again.exit_code == 0 and "no topic taxonomy" not in again.output  # written once, then the user's


@pytest.mark.parametrize("command", ["ingest", "render"])
def test_a_bad_taxonomy_stops_ingest_and_render_before_anything_is_written(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PROJECT / "seeds", tmp_path / "seeds")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / TOPICS_FILE).write_text(taxonomy(TOPIC + "    keywords: robust\n"), encoding="utf-8")
    before = snapshot(tmp_path)
    args = ["--seeds", "seeds", "--content", "content"] if command == "ingest" else ["--content", "content",
                                                                                       "--out", "site"]
    result = CliRunner().invoke(main, [command, *args])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (f"Error: content/{TOPICS_FILE}:5: 'keywords' of topic 1 must be a list, "
                                              "like [robust, adversarial], not the text 'robust'")
    assert snapshot(tmp_path) == before


def test_a_bad_setting_stops_the_build_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / SETTINGS_FILE).write_text("title = \"T\"\nbase_url = true\n", encoding="utf-8")
    before = snapshot(tmp_path)
    result = CliRunner().invoke(main, ["render", "--content", "content", "--out", "site", "--config", SETTINGS_FILE])
    assert result.exit_code == 1
    assert result.output == (f"Error: {SETTINGS_FILE}:2: 'base_url' must be a text in quotes, like "
                             "base_url = \"https://example.org/catalogue/\", not true\n")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["build", "render"])
def test_a_settings_file_named_but_missing_stops_before_anything_is_written(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PROJECT / "seeds", tmp_path / "seeds")
    before = snapshot(tmp_path)
    result = CliRunner().invoke(main, [command, "--content", "content", "--out", "site", "--config", "sitee.toml"])
    assert result.exit_code == 1
    assert result.output == "Error: sitee.toml: no such settings file; check --config (nothing was read or written)\n"
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("make", [lambda path: os.mkfifo(path), lambda path: path.mkdir()], ids=["fifo", "folder"])
def test_a_settings_path_that_is_not_a_file_is_refused_without_opening_it(make, tmp_path):
    make(tmp_path / SETTINGS_FILE)
    with pytest.raises(CatalogueError) as raised:
        read_config(tmp_path / SETTINGS_FILE)
    assert raised.value.message == (f"{(tmp_path / SETTINGS_FILE).as_posix()}: not a regular file; "
                                    "the settings file must be a TOML text file")
