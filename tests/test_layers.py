"""The package's floors: a module imports only from its own floor or the floors below (issue 38),
no import circle, no module past its size, and a stage's code version follows only the code it runs."""

import shutil

import pytest

from catalogue.system import cache as cache_module
from catalogue.system.cache import PACKAGE, code_version, folder_data, modules_reached, package_imports, package_version

# From the ground up. A module's floor is that of the longest prefix of its name listed here.
FLOORS = {
    "catalogue.text": 0, "catalogue.errors": 0, "catalogue.model": 0, "catalogue.portable": 0,
    "catalogue.routes": 0, "catalogue.bootstrap": 0,
    "catalogue.system": 1, "catalogue.config": 1, "catalogue.i18n": 1, "catalogue.publish": 1,
    "catalogue.markup": 2,
    "catalogue.ingest": 3, "catalogue.content": 3,
    "catalogue.discovery": 4, "catalogue.search": 4,
    "catalogue.site": 5,
    "catalogue.serve": 6, "catalogue.pipeline": 6, "catalogue.cli": 6,
}
MAX_LINES = 400


def floor(module: str) -> int | None:
    """The module's floor; None for a module of no floor listed (the package itself is the ground)."""
    if module == "catalogue":
        return 0
    named = [name for name in FLOORS if module == name or module.startswith(name + ".")]
    return FLOORS[max(named, key=len)] if named else None


def test_every_module_has_a_floor():
    assert [module for module in package_imports() if floor(module) is None] == []
    assert floor("catalogue.newroom.x") is None and floor("catalogue.site.render") == 5


def test_no_module_imports_from_a_floor_above_its_own():
    upward = [f"{module} -> {other}" for module, others in package_imports().items() for other in others
              if floor(other) > floor(module)]
    assert upward == []


def test_no_import_circle():
    imports = package_imports()
    circles = [module for module in imports
               if any(module in modules_reached(other) for other in imports[module] if other != module.rpartition(".")[0])]
    assert circles == []


def test_no_module_is_past_its_size():
    sizes = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert {path: lines for path, lines in sizes.items() if lines > MAX_LINES} == {}


def test_the_floor_rule_can_fail():
    assert floor("catalogue.site.render") > floor("catalogue.ingest.run") > floor("catalogue.markup.convert")
    assert "catalogue.site.render" not in modules_reached("catalogue.ingest.run")
    assert "catalogue.ingest.run" in modules_reached("catalogue.pipeline")  # an import inside a function counts


@pytest.fixture
def versions_around_an_edit(tmp_path, monkeypatch):
    """(versions before, versions after) an edit that adds a comment to one file of a copy of the
    package: each stage's code version, and the build's fingerprint."""
    copy = tmp_path / "catalogue"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_module, "PACKAGE", copy)
    cached = (code_version, package_imports, folder_data, package_version)

    def versions() -> dict[str, str]:
        for function in cached:
            function.cache_clear()
        return {stage: code_version(stage) for stage in ("catalogue.ingest.run", "catalogue.site.render",
                                                         "catalogue.markup.convert", "catalogue.pipeline")
                } | {"the build's fingerprint": package_version()}

    def around(edited: str) -> tuple[dict[str, str], dict[str, str]]:
        before = versions()
        with open(copy / edited, "a", encoding="utf-8") as source:
            source.write("\n# an edit\n")
        return before, versions()
    yield around
    for function in cached:
        function.cache_clear()


def test_an_edit_to_the_site_code_keeps_what_ingest_derived(versions_around_an_edit):
    before, after = versions_around_an_edit("site/pages.py")
    assert after["catalogue.ingest.run"] == before["catalogue.ingest.run"]
    assert after["catalogue.markup.convert"] == before["catalogue.markup.convert"]
    assert after["catalogue.site.render"] != before["catalogue.site.render"]
    assert after["catalogue.pipeline"] != before["catalogue.pipeline"]


def test_an_edit_to_the_markup_code_is_new_code_for_every_stage_that_converts(versions_around_an_edit):
    before, after = versions_around_an_edit("markup/formulas.py")
    assert all(after[stage] != before[stage] for stage in before)


@pytest.mark.parametrize("edited", ["discovery/map.py", "i18n/locales/en.yaml"])
def test_an_edit_to_what_the_site_alone_runs_keeps_ingest_and_changes_the_fingerprint(versions_around_an_edit, edited):
    """The similarity process runs by name (no import reaches it) and the interface strings are
    data of i18n/: neither is ingest's code, and both are the build's."""
    before, after = versions_around_an_edit(edited)
    assert after["catalogue.ingest.run"] == before["catalogue.ingest.run"]
    assert after["the build's fingerprint"] != before["the build's fingerprint"]


def test_the_code_that_finds_related_papers_is_versioned_though_run_by_name():
    from catalogue.discovery.related import SIMILARITY_CODE
    assert {"catalogue.discovery.map", "catalogue.discovery.neighbours"} <= modules_reached(SIMILARITY_CODE)
    with pytest.raises(ValueError, match="not a module"):
        code_version("catalogue.no_such_module")


def test_the_typed_contexts_never_name_one_value_twice():
    """render_page joins the values every page has, the site's parts, a family's values and a paper
    page's extras: a name in two of them would hide one, so none is."""
    from dataclasses import fields
    from typing import get_args

    from catalogue.site.contexts import SiteParts, Values
    from catalogue.site.paper_extras import PaperExtras
    common = {"site", "path", "root", "canonical", "title", "description", "papers", "routes"}
    shared = {field.name for field in fields(SiteParts)} | {field.name for field in fields(PaperExtras)}
    assert not common & shared and len(shared) == len(fields(SiteParts)) + len(fields(PaperExtras))
    for family in get_args(Values):
        assert not {field.name for field in fields(family)} & (common | shared), family.__name__
