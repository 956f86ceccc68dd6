"""python3 build.py on a machine without the libraries: what decides to set up .venv/, and the pip it fetches.

The whole setup (a bare Debian 12 with python3 alone) was checked by hand in a chroot; these
tests cover the decisions and the download's checks without a network.
"""

import hashlib
import io
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
    monkeypatch.setattr(bootstrap, "run", lambda command, quiet=False: commands.append(command[2:4]) or 0)
    assert bootstrap.prepare_environment(requirements) == environment / "bin" / "python"
    assert ["pip", "install"] in commands and bootstrap.installed(requirements)
    commands.clear()
    bootstrap.prepare_environment(requirements)
    assert commands == []  # nothing run: not pip, not its version
    requirements.write_text("click==8.3.1\njinja2==3.1.6\n")  # changed since: installed again
    assert not bootstrap.installed(requirements)
    bootstrap.prepare_environment(requirements)
    assert ["pip", "install"] in commands


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
