"""`python3 build.py` on a machine that lacks the libraries: install them once into .venv/.

Debian and Ubuntu refuse `pip install` into the system Python (PEP 668) and often lack
`python3-venv` (whose ensurepip gives a new environment its pip). So, when a library the
build needs cannot be imported, this makes `.venv/` beside build.py, gives it pip (from
ensurepip, or else a pinned pip wheel from PyPI, checked against its SHA-256), installs
requirements.txt into it and runs the same command again with `.venv/bin/python`. It says one line
per step; pip's own output goes to a log in .venv/, shown (its end) only when pip fails.

Standard library only: it runs before anything in requirements.txt can be imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import html
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

PROJECT = Path(__file__).resolve().parent.parent
ENVIRONMENT = PROJECT / ".venv"
REQUIREMENTS = PROJECT / "requirements.txt"
# Modules that requirements.txt provides; one of them missing means the requirements are not installed.
NEEDED_MODULES = ("click", "jinja2", "markdown_it", "yaml", "latex2mathml", "pagefind", "pylatexenc", "slugify",
                  "PIL", "numpy", "scipy", "sklearn", "threadpoolctl", "bibtexparser", "watchfiles")
# Used only when the Python at hand has no ensurepip (Debian without python3-venv).
PIP_VERSION = "26.3"
PIP_WHEEL = f"pip-{PIP_VERSION}-py3-none-any.whl"
PIP_SHA256 = "f3b60b20ffaadd4415ed7957212a38ac63fa4c5fa375bd0f4a797777940fad13"
LOG_TAIL = 20  # lines of pip's log shown when it fails: its error, and what it was doing


def missing_modules() -> list[str]:
    return [name for name in NEEDED_MODULES if importlib.util.find_spec(name) is None]


def ensure_requirements(argv: list[str]) -> None:
    """Return if the libraries are importable; otherwise set up .venv/ and re-run argv there (never returns)."""
    if sys.version_info < (3, 11):
        stop(f"the build needs Python 3.11 or newer; this is {sys.version.split()[0]} ({sys.executable})")
    missing = missing_modules()
    if not missing:
        return
    if Path(sys.prefix).resolve() == ENVIRONMENT.resolve() or os.environ.get("CATALOGUE_BOOTSTRAPPED"):
        stop(f"the libraries {', '.join(missing)} are still missing in {sys.prefix}; "
             f"install them with: {sys.executable} -m pip install -r {REQUIREMENTS}")
    if not installed(REQUIREMENTS):
        say(f"The build needs libraries this Python lacks ({', '.join(missing)}): installing {REQUIREMENTS.name} "
            f"into {ENVIRONMENT.name}/ (once; a minute or two). Delete {ENVIRONMENT.name}/ any time to start over.")
    python = prepare_environment(REQUIREMENTS)
    os.execve(python, [str(python), *argv], dict(os.environ, CATALOGUE_BOOTSTRAPPED="1"))


def prepare_environment(requirements: Path) -> Path:
    """.venv/ (made if missing) with `requirements` installed; returns its Python. A requirements file
    installed before, unchanged since, is not installed again: every later build starts at once."""
    python = ENVIRONMENT / "bin" / "python"
    if installed(requirements):
        return python
    started = time.perf_counter()
    if not python.exists():
        say(f"  making {ENVIRONMENT.name}/")
        create_environment()
    log = ENVIRONMENT / f"pip-{requirements.name}.log"
    log.write_text("", encoding="utf-8")  # this setup's log alone
    if run([python, "-m", "pip", "--version"]) != 0:  # also a .venv/ left by an interrupted setup
        say(f"  giving {ENVIRONMENT.name}/ pip {PIP_VERSION}")
        install_pip(python, log)
    say(f"  installing {requirements.name} with pip (its log: {shown_path(log)})")
    if run([python, "-m", "pip", "install", "--disable-pip-version-check", "-r", str(requirements)], log) != 0:
        stop_with_log(f"installing {requirements.name} into {ENVIRONMENT.name}/ failed", log)
    _install_record(requirements).write_text(_digest(requirements), encoding="utf-8")
    say(f"  done: {what_was_installed(log.read_text(encoding='utf-8', errors='replace'))} "
        f"in {time.perf_counter() - started:.0f} s")
    return python


def what_was_installed(pip_log: str) -> str:
    """What the log's last command says it installed ("Successfully installed click-8.3.1 jinja2-3.1.6 ...");
    the pip that install_pip gave the environment before is not counted."""
    last = pip_log.rsplit("\n$ ", 1)[-1]
    names = [name for line in last.splitlines() if line.startswith("Successfully installed ")
             for name in line.split()[2:]]
    return f"{len(names)} package{'s' if len(names) != 1 else ''} installed" if names else "nothing new to install"


def installed(requirements: Path) -> bool:
    """Whether .venv/ holds `requirements` as the file is now (its record is written once pip succeeds)."""
    record = _install_record(requirements)
    return (ENVIRONMENT / "bin" / "python").exists() and record.is_file() \
        and record.read_text(encoding="utf-8") == _digest(requirements)


def _install_record(requirements: Path) -> Path:
    return ENVIRONMENT / f".installed-{requirements.name}"


def _digest(requirements: Path) -> str:
    return hashlib.sha256(requirements.read_bytes()).hexdigest()


def create_environment() -> None:
    """A new .venv/, with pip when this Python has ensurepip (else install_pip gives it one)."""
    import venv  # (here and below: what only a setup needs is not loaded by every build)
    try:
        venv.EnvBuilder(with_pip=importlib.util.find_spec("ensurepip") is not None).create(ENVIRONMENT)
    except (OSError, subprocess.CalledProcessError) as error:  # e.g. Debian's ensurepip stub
        say(f"  ensurepip failed ({error}); using pip {PIP_VERSION} from PyPI instead")
        venv.EnvBuilder(with_pip=False, clear=True).create(ENVIRONMENT)


def install_pip(python: Path, log: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        wheel = Path(folder) / PIP_WHEEL
        wheel.write_bytes(download_pip())
        # A pip wheel runs from the wheel file itself, which installs pip into the environment.
        if run([python, str(wheel / "pip"), "install", "--no-index", str(wheel)], log) != 0:
            stop_with_log(f"could not install pip into {ENVIRONMENT}", log)


def download_pip() -> bytes:
    """The pinned pip wheel, found on the package index's page for pip (PEP 503) like pip itself would."""
    import urllib.request
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/").rstrip("/") + "/pip/"
    url = index
    try:
        with urllib.request.urlopen(index, timeout=60) as response:
            page = response.read().decode("utf-8")
        url = urljoin(index, next(html.unescape(link) for link in re.findall(r'href="([^"#]+)', page)
                                  if link.rsplit("/", 1)[-1] == PIP_WHEEL))
        with urllib.request.urlopen(url, timeout=120) as response:
            data = response.read()
    except (OSError, ValueError, StopIteration) as error:
        stop(f"could not download pip from PyPI ({error}). Install Debian's python3-venv "
             "(sudo apt install python3-venv), or pip, and run the command again")
    if hashlib.sha256(data).hexdigest() != PIP_SHA256:
        stop(f"the pip wheel downloaded from {url} does not have the expected SHA-256; not installed")
    return data


def run(command: list, log: Path | None = None) -> int:
    """The command's exit status; what it prints is added to `log` (after the command itself), or dropped."""
    command = [str(part) for part in command]
    if log is None:
        return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    with log.open("a", encoding="utf-8") as output:
        output.write(f"$ {' '.join(command)}\n")
        output.flush()
        return subprocess.run(command, stdout=output, stderr=subprocess.STDOUT).returncode


def stop_with_log(message: str, log: Path) -> None:
    """Stop with the end of pip's log (where its error is), naming the whole log."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL:]
    say(f"The end of {shown_path(log)}:")
    for line in lines:
        say(f"  {line}")
    stop(f"{message}; pip's whole log is {shown_path(log)}")


def shown_path(path: Path) -> str:
    """The path as a person at the project would type it (relative when it is inside the project)."""
    return str(path.relative_to(PROJECT)) if path.is_relative_to(PROJECT) else str(path)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def stop(message: str) -> None:
    say(f"Error: {message}")
    raise SystemExit(1)


if __name__ == "__main__":  # .ci/run: python3 -m catalogue.bootstrap requirements-dev.txt
    prepare_environment(Path(sys.argv[1]).resolve())
