"""python3 build.py on a machine without the libraries: what decides to set up .venv/, and the pip it fetches.

The whole setup (a bare Debian 12 with python3 alone) was checked by hand in a chroot; these
tests cover the decisions, the download's checks and what a person reads without a network (pip is
played by a script in place of .venv/bin/python).
"""

import hashlib
import io
import re
import sys
import urllib.request

import pytest

from catalogue import bootstrap


def test_nothing_happens_when_the_libraries_are_there(monkeypatch, tmp_path):
    monkeypatch.setattr(bootstrap, "ENVIRONMENT", tmp_path / ".venv")
    bootstrap.ensure_requirements(["build.py"])
    assert not (tmp_path / ".venv").exists()


def test_a_library_missing_after_setup_stops_with_the_command_to_run(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bootstrap, "NEEDED_MODULES", ("click", "no_such_module_for_this_test"))
    monkeypatch.setattr(bootstrap, "ENVIRONMENT", tmp_path / ".venv")
    monkeypatch.setenv("CATALOGUE_BOOTSTRAPPED", "1")  # as when the command runs again inside .venv/
    with pytest.raises(SystemExit) as stopped:
        bootstrap.ensure_requirements(["build.py"])
    assert stopped.value.code == 1
    message = capsys.readouterr().err
    assert "the libraries no_such_module_for_this_test are still missing" in message  # only the missing one
    assert "pip install -r" in message
    assert not (tmp_path / ".venv").exists()


def test_requirements_installed_once_are_not_installed_again(monkeypatch, tmp_path):
    """The system python3 lacks the libraries at every build: after the first, .venv/ is used at once."""
    environment, requirements = tmp_path / ".venv", tmp_path / "requirements.txt"
    (environment / "bin").mkdir(parents=True)
    (environment / "bin" / "python").write_text("")
    requirements.write_text("click==8.3.1\n")
    monkeypatch.setattr(bootstrap, "ENVIRONMENT", environment)
    commands = []
    monkeypatch.setattr(bootstrap, "run", lambda command, log=None: commands.append(command[2:4]) or 0)
    assert bootstrap.prepare_environment(requirements) == environment / "bin" / "python"
    assert ["pip", "install"] in commands and bootstrap.installed(requirements)
    commands.clear()
    bootstrap.prepare_environment(requirements)
    assert commands == []  # nothing run: not pip, not its version
    requirements.write_text("click==8.3.1\njinja2==3.1.6\n")  # changed since: installed again
    assert not bootstrap.installed(requirements)
    bootstrap.prepare_environment(requirements)
    assert ["pip", "install"] in commands


# .venv/bin/python as pip would behave in it: `-m pip --version` works once pip is there (a
# file beside it says so; the pip wheel run as `python <wheel>/pip install` puts it there), and
# `-m pip install -r FILE` prints a long log, then succeeds or fails as FAKE_PIP_FAILS says.
FAKE_PYTHON = f"""#!{sys.executable}
import pathlib, sys
here = pathlib.Path(sys.argv[0]).parent
if sys.argv[1:3] == ["-m", "pip"] and sys.argv[3] == "--version":
    sys.exit(0 if (here / "pip").exists() else 1)
if sys.argv[1].endswith("/pip"):
    print("Processing ./pip-wheel")
    print("Successfully installed pip-26.3")
    (here / "pip").write_text("")
    sys.exit(0)
for number in range(300):
    print(f"Collecting package{{number}}==1.0 (from -r requirements.txt (line {{number}}))")
    print(f"  Downloading package{{number}}-1.0-py3-none-any.whl (12 kB)", file=sys.stderr)
if (here / "FAKE_PIP_FAILS").exists():
    print("ERROR: No matching distribution found for nosuchpackage==9.9", file=sys.stderr)
    sys.exit(1)
print("Installing collected packages: ...")
print("Successfully installed click-8.3.1 jinja2-3.1.6 numpy-2.3.5")
"""


@pytest.fixture
def fake_environment(monkeypatch, tmp_path):
    """A .venv/ whose python plays pip, with pip in it, and a requirements file; returns both."""
    environment, requirements = tmp_path / ".venv", tmp_path / "requirements.txt"
    (environment / "bin").mkdir(parents=True)
    python = environment / "bin" / "python"
    python.write_text(FAKE_PYTHON, encoding="utf-8")
    python.chmod(0o755)
    (environment / "bin" / "pip").write_text("")
    requirements.write_text("click==8.3.1\n")
    monkeypatch.setattr(bootstrap, "ENVIRONMENT", environment)
    monkeypatch.setattr(bootstrap, "PROJECT", tmp_path)  # messages name paths from the project, as a person types them
    return environment, requirements


@pytest.mark.parametrize("log, said", [
    ("$ pip install -r r.txt\nCollecting a\nSuccessfully installed a-1.0 b-2.0\n", "2 packages installed"),
    ("$ pip install -r r.txt\nSuccessfully installed a-1.0\n", "1 package installed"),
    ("$ pip install -r r.txt\nRequirement already satisfied: a in ./.venv\n", "nothing new to install"),
    ("$ python pip install pip.whl\nSuccessfully installed pip-26.3\n$ pip install -r r.txt\nSuccessfully installed "
     "a-1.0\n", "1 package installed"),
])
def test_the_summary_counts_what_pip_installed_from_the_requirements(log, said):
    assert bootstrap.what_was_installed(log) == said


def test_a_setup_says_one_line_a_step_and_keeps_pips_log(fake_environment, capfd):
    environment, requirements = fake_environment
    bootstrap.prepare_environment(requirements)
    out, err = capfd.readouterr()  # (the file descriptors: what pip prints would land there)
    log = environment / "pip-requirements.txt.log"
    assert out == ""
    assert err.splitlines()[0] == "  installing requirements.txt with pip (its log: .venv/pip-requirements.txt.log)"
    assert re.fullmatch(r"  done: 3 packages installed in \d+ s", err.splitlines()[1])
    assert len(err.splitlines()) == 2
    text = log.read_text(encoding="utf-8")
    assert text.startswith(f"$ {environment / 'bin' / 'python'} -m pip install --disable-pip-version-check -r ")
    assert text.count("Collecting package") == 300 and text.count("Downloading package") == 300  # both streams
    assert bootstrap.installed(requirements)


def test_a_failed_pip_shows_the_end_of_its_log_and_where_the_rest_is(fake_environment, capfd):
    environment, requirements = fake_environment
    (environment / "bin" / "FAKE_PIP_FAILS").write_text("")
    with pytest.raises(SystemExit) as stopped:
        bootstrap.prepare_environment(requirements)
    assert stopped.value.code == 1
    out, err = capfd.readouterr()
    log = environment / "pip-requirements.txt.log"
    lines = err.splitlines()
    assert out == "" and len(lines) == 1 + 1 + bootstrap.LOG_TAIL + 1
    assert lines[1] == "The end of .venv/pip-requirements.txt.log:"
    assert lines[2:-1] == ["  " + line for line in log.read_text(encoding="utf-8").splitlines()[-bootstrap.LOG_TAIL:]]
    assert lines[-2] == "  ERROR: No matching distribution found for nosuchpackage==9.9"
    assert lines[-1] == ("Error: installing requirements.txt into .venv/ failed; "
                         "pip's whole log is .venv/pip-requirements.txt.log")
    assert not bootstrap.installed(requirements)  # the next build tries again


def test_an_environment_without_pip_is_given_the_pinned_one_first(fake_environment, monkeypatch, capfd):
    environment, requirements = fake_environment
    (environment / "bin" / "pip").unlink()
    monkeypatch.setattr(bootstrap, "download_pip", lambda: b"pretend wheel bytes")
    bootstrap.prepare_environment(requirements)
    lines = capfd.readouterr().err.splitlines()
    assert lines[:2] == [f"  giving .venv/ pip {bootstrap.PIP_VERSION}",
                         "  installing requirements.txt with pip (its log: .venv/pip-requirements.txt.log)"]
    assert lines[2].startswith("  done: 3 packages installed") and len(lines) == 3
    assert "Processing ./pip-wheel" in (environment / "pip-requirements.txt.log").read_text(encoding="utf-8")


class FakeIndex:
    """urlopen for a package index whose page for pip links the wheel (relative or absolute)."""

    def __init__(self, link: str, wheel: bytes):
        self.link, self.wheel, self.asked = link, wheel, []

    def __call__(self, url, timeout=None):
        self.asked.append(url)
        if url.endswith("/pip/"):
            page = f'<a href="{self.link}#sha256=00">{bootstrap.PIP_WHEEL}</a><a href="../x/pip-1.0.tar.gz">old</a>'
            return io.BytesIO(page.encode())
        return io.BytesIO(self.wheel)


@pytest.mark.parametrize("link, expected", [
    (f"../../packages/ab/{bootstrap.PIP_WHEEL}", f"https://index.example/packages/ab/{bootstrap.PIP_WHEEL}"),
    (f"https://files.example/p/{bootstrap.PIP_WHEEL}", f"https://files.example/p/{bootstrap.PIP_WHEEL}"),
])
def test_the_pinned_wheel_is_found_on_the_index_page_and_checked(monkeypatch, link, expected):
    wheel = b"pretend wheel bytes"
    fake = FakeIndex(link, wheel)
    monkeypatch.setenv("PIP_INDEX_URL", "https://index.example/simple")
    monkeypatch.setattr(urllib.request, "urlopen", fake)
    monkeypatch.setattr(bootstrap, "PIP_SHA256", hashlib.sha256(wheel).hexdigest())
    assert bootstrap.download_pip() == wheel
    assert fake.asked == ["https://index.example/simple/pip/", expected]


def test_a_wheel_with_another_hash_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(urllib.request, "urlopen", FakeIndex(bootstrap.PIP_WHEEL, b"tampered"))
    with pytest.raises(SystemExit):
        bootstrap.download_pip()
    assert "expected SHA-256" in capsys.readouterr().err


def test_an_index_without_the_wheel_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(urllib.request, "urlopen", FakeIndex("pip-1.0-py3-none-any.whl", b""))
    with pytest.raises(SystemExit):
        bootstrap.download_pip()
    assert "python3-venv" in capsys.readouterr().err
