"""Lighthouse on the home page and a paper page: performance, accessibility, best practices and
SEO must each score at least 0.95.

Lighthouse (pinned in package.json, installed by `npm ci`) drives Debian's Chromium with its
default settings: mobile emulation with simulated slow 4G and a 4x slower CPU, the stricter of
its two presets. The site is built with the address it is served at as its base URL, so
canonical links, the sitemap and robots.txt are those of a real deployment, and served from the
domain root with the Content-Security-Policy that netlify.toml sends and its text gzipped, as
GitHub Pages and Netlify send it (a simulated slow 4G link pays for every byte).

The home page is audited at its canonical address, `/`. At `/index.html` (where the site's own
"Papers" link leads, so that it also works from disk) Lighthouse fails the canonical audit with
"points to the domain's root URL": a heuristic against pages that all name the home page as
canonical, which a home page naming `/` is not.

A page whose performance falls under the threshold is audited twice more and judged by the median
run. A failure lists, for each category under the threshold, the audits that lost points (id, title,
score, Lighthouse's value or explanation), and where the full JSON report was saved.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CHROMIUM, PROJECT, build_project, make_project, serve_folder
from catalogue.routes import bucket

LIGHTHOUSE = PROJECT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
THRESHOLD = 0.95
PAPER = "wz-llm"  # highlights, links, related papers, the cite section
PAGES = {"home": "", "paper": f"papers/{bucket(PAPER)}/{PAPER}/index.html", "search": "search.html?q=optimal+transport"}
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
TIMEOUT_S = 120  # per page; a run takes about 12 s
RUNS_WHEN_SLOW = 3


def netlify_policy() -> str:
    """The Content-Security-Policy the site is deployed with."""
    config = tomllib.loads((PROJECT / "netlify.toml").read_text(encoding="utf-8"))
    return next(rule["values"]["Content-Security-Policy"] for rule in config["headers"] if rule["for"] == "/*")


def run_lighthouse(url: str, report: Path) -> dict:
    assert LIGHTHOUSE.is_file(), f"{LIGHTHOUSE} is missing: run `npm ci` at the project root (.ci/run does)"
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    result = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True,
                            text=True, timeout=TIMEOUT_S, check=False)
    assert result.returncode == 0 and report.is_file(), \
        f"lighthouse failed on {url} (exit {result.returncode}):\n{result.stderr[-3000:]}"
    data = json.loads(report.read_text(encoding="utf-8"))
    assert not data.get("runtimeError"), data["runtimeError"]
    return data


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Iterator[dict[str, tuple[dict, Path]]]:
    """The pages audited one after the other (in parallel they would slow each other down,
    and the simulated timings with them)."""
    scratch = tmp_path_factory.mktemp("lighthouse")
    project = make_project(scratch / "project")
    with serve_folder(project / "site", not_found=project / "site" / "404.html", policy=netlify_policy(),
                      compress=True) as address:
        build_project(project, "--base-url", address)
        results = {}
        for name, path in PAGES.items():
            results[name] = audited(address + path, scratch, name)
        yield results


def audited(url: str, scratch: Path, name: str) -> tuple[dict, Path]:
    """One audit of the page; when its performance is under the threshold, the median of three runs
    (Lighthouse's advice for its variance: timings move with the machine's load, and the suite runs
    a test file on each core)."""
    runs = []
    for number in range(RUNS_WHEN_SLOW):
        report = scratch / f"{name}.{number + 1}.report.json"
        runs.append((run_lighthouse(url, report), report))
        if number == 0 and (runs[0][0]["categories"]["performance"]["score"] or 0) >= THRESHOLD:
            break
    runs.sort(key=lambda run: run[0]["categories"]["performance"]["score"] or 0)
    return runs[len(runs) // 2]


def failing_audits(report: dict, category: str) -> list[str]:
    """The audits that cost the category points, the most costly first."""
    lines = []
    refs = [ref for ref in report["categories"][category]["auditRefs"] if ref.get("weight", 0) > 0]
    for ref in sorted(refs, key=lambda ref: -ref["weight"]):
        audit = report["audits"][ref["id"]]
        if audit.get("score") is None or audit["score"] >= 1:
            continue
        detail = audit.get("displayValue") or audit.get("explanation") or ""
        lines.append(f"    {audit['id']}: {audit['title']} (score {audit['score']:.2f}, weight {ref['weight']})"
                     + (f": {detail}" if detail else ""))
    return lines


def describe(report: dict, path: Path) -> str:
    parts = []
    for category in CATEGORIES:
        score = report["categories"][category]["score"]
        if score is None or score < THRESHOLD:
            parts.append(f"  {category}: {score} (needs {THRESHOLD})")
            parts.extend(failing_audits(report, category) or ["    (no single audit below 1)"])
    return "\n".join(parts + [f"  full report: {path}"])


@pytest.mark.parametrize("page", list(PAGES))
def test_lighthouse_scores_at_least_095(reports, page: str):
    report, path = reports[page]
    scores = {category: report["categories"][category]["score"] for category in CATEGORIES}
    if any(score is None or score < THRESHOLD for score in scores.values()):
        pytest.fail(f"Lighthouse scores for the {page} page, {report['requestedUrl']}: {scores}\n"
                    + describe(report, path), pytrace=False)


def test_the_failure_message_names_the_audits_to_fix(tmp_path):
    """The report a developer gets: each low category with the audits that cost it points."""
    report = {
        "categories": {category: {"score": 1.0, "auditRefs": []} for category in CATEGORIES},
        "audits": {
            "canonical": {"id": "canonical", "title": "Document does not have a valid `rel=canonical`", "score": 0,
                          "explanation": "Points to the domain's root URL"},
            "robots-txt": {"id": "robots-txt", "title": "robots.txt is valid", "score": 1},
            "hreflang": {"id": "hreflang", "title": "Document has a valid `hreflang`", "score": None},
        },
    }
    report["categories"]["seo"] = {"score": 0.92, "auditRefs": [
        {"id": "robots-txt", "weight": 1}, {"id": "canonical", "weight": 1}, {"id": "hreflang", "weight": 1}]}
    message = describe(report, tmp_path / "r.json")
    assert message.splitlines() == [
        "  seo: 0.92 (needs 0.95)",
        "    canonical: Document does not have a valid `rel=canonical` (score 0.00, weight 1):"
        " Points to the domain's root URL",
        f"  full report: {tmp_path / 'r.json'}",
    ]
