"""Compile a .bib as its users would: pdflatex (T1 fonts, UTF-8 input) with plain.bst, with natbib and
plainnat.bst, and with biblatex and biber; count the errors and warnings of each from their logs.

    python -m bench.bib_compile site/data/*.bib

One document cites every entry (`\\nocite{*}`), compiled once per style (tests/test_bibtex_compile.py
runs it on hostile and real entries; bench/README.md has the figures of a real build).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

PREAMBLE = "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
# Each style: what its document loads, what it ends with, and the program that makes its bibliography
# (biber checks each entry against biblatex's data model: its types' mandatory fields, its field names).
STYLES = {
    "plain.bst": ("", "\\bibliographystyle{plain}\n\\bibliography{refs}\n", ["bibtex"]),
    "natbib + plainnat.bst": ("\\usepackage{natbib}\n\\usepackage{url}\n", "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n", ["bibtex"]),
    "biblatex + biber": ("\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}\n",
                         "\\printbibliography\n", ["biber", "--validate-datamodel"]),
}
LATEX = ["pdflatex", "-interaction=nonstopmode", "doc.tex"]
TIMEOUT = 300
# bibtex's closing count: "(There were 2 error messages)", "(There was 1 warning)".
_BIBTEX_COUNT = re.compile(r"\(There (?:was|were) (\d+) (error message|warning)s?\)")


@dataclass
class Outcome:
    """What one style's compile reported: TeX's errors (`! ...` and the line after), the bibliography
    program's errors and warnings, as they read."""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def compile_bib(bib: Path, style: str, work: Path) -> Outcome:
    """pdflatex, the bibliography program, pdflatex again (which typesets the entries) in `work`."""
    preamble, ending, program = STYLES[style]
    shutil.copy(bib, work / "refs.bib")
    (work / "doc.tex").write_text(PREAMBLE + preamble + "\\begin{document}\n\\nocite{*}\n" + ending
                                  + "\\end{document}\n", encoding="utf-8")
    for command in (LATEX, program + ["doc"], LATEX):
        subprocess.run(command, cwd=work, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    outcome = Outcome()
    log = (work / "doc.log").read_text(encoding="utf-8", errors="replace").splitlines()
    outcome.errors += [" ".join(log[n:n + 2]) for n, line in enumerate(log) if line.startswith("! ")]
    blg = (work / "doc.blg").read_text(encoding="utf-8", errors="replace") if (work / "doc.blg").exists() else ""
    if program[0] == "biber":
        outcome.errors += [line for line in blg.splitlines() if " ERROR - " in line]
        outcome.warnings += [line for line in blg.splitlines() if " WARN - " in line]
    else:
        counts = {kind: int(number) for number, kind in _BIBTEX_COUNT.findall(blg)}
        outcome.errors += [f"bibtex: {counts['error message']} error messages"] if "error message" in counts else []
        outcome.warnings += [line for line in blg.splitlines() if line.startswith("Warning--")]
    if not blg:
        outcome.errors.append(f"{program[0]} wrote no log")
    return outcome


def main(paths: list[str]) -> None:
    for path in paths:
        for style in STYLES:
            with tempfile.TemporaryDirectory() as work:
                outcome = compile_bib(Path(path), style, Path(work))
            print(f"{path}\t{style}\t{len(outcome.errors)} errors\t{len(outcome.warnings)} warnings")
            for line in outcome.errors + sorted(set(outcome.warnings)):
                print("   ", line[:200])


if __name__ == "__main__":
    main(sys.argv[1:])
