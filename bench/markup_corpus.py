"""TextConverter of real abstracts: which constructs the corpus writes, and how many are left unconverted.

    python bench/markup_corpus.py [--every 4] [--project /path/to/other/checkout]

For each construct (inline HTML, entities, LaTeX text commands, Markdown links, math), the number
of corpus abstracts that write it and the number whose plain text (what titles, feeds, search
and citations are made from) still shows it after conversion; then the share of math segments
shown unconverted (as written, in a <code> element). --project measures another checkout's
catalogue package (the main branch, say) on the same abstracts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus" / "papers.jsonl.gz"
if not CORPUS.exists():
    CORPUS = Path("/work/shared/corpus/papers.jsonl.gz")

_TAGS = r"</?(?:b|strong|i|em|u|sub|sup|br|code|tt|small|a)\b[^<>]*>"


@dataclass(frozen=True)
class Construct:
    name: str
    written: re.Pattern  # in the abstract as published
    left: re.Pattern  # in the plain text after conversion: shown as written


def _construct(name: str, written: str, left: str | None = None) -> Construct:
    return Construct(name, re.compile(written), re.compile(written if left is None else left))


CONSTRUCTS = (
    _construct("inline HTML tags (allowlisted)", _TAGS),
    _construct("HTML entities", r"&(?:[A-Za-z]+|#\d+|#x[0-9a-fA-F]+);"),
    _construct("\\url{}", r"\\url\{", r"\\url|\{https?:"),
    _construct("\\href{}{}", r"\\href\{", r"\\href|\}\{"),
    _construct("\\emph \\textit \\textbf \\texttt", r"\\(?:emph|textit|textbf|texttt)\{"),
    _construct("{\\em} {\\bf} {\\it}", r"\{\\(?:em|bf|it)\b", r"\\(?:em|bf|it)\b"),
    _construct("\\% \\& \\_", r"\\[%&_]"),
    _construct("~ (tie)", r"(?<=\S)~(?=\S)"),
    _construct("-- and ---", r"(?<!-)---?(?!-)"),
    _construct("`` and ''", r"``|''"),
    _construct("double-escaped backslash", r"\\\\[A-Za-z]", r"\\[A-Za-z]"),
    _construct("\\cdot \\geq \\log \\| outside math", r"(?:^|[^$\\])\\(?:cdot|geq|leq|ge|le|log|times|ell|\|)(?![A-Za-z])",
               r"\\(?:cdot|geq|leq|ge|le|log|times|ell|\|)(?![A-Za-z])"),
    _construct("$ x $ (spaces inside)", r"(?<![\w$])\$ [^$]*[\\^_=][^$]*\$", r"\$"),
    _construct("Markdown [text](address)", r"\[[^\]]+\]\((?:https?://|www\.)[^)]+\)", r"\]\("),
    _construct("any LaTeX command", r"\\[A-Za-z]+"),
)


def read_abstracts(every: int) -> list[str]:
    return [json.loads(line)["abstract"] for line in gzip.open(CORPUS, "rt")][::every]


def math_counts(abstracts: list[str]) -> tuple[int, list[str]]:
    """(math segments, those shown unconverted): formulas that are more than text, as the page shows them."""
    from catalogue.markup.formulas import render_math, text_only_math
    from catalogue.markup.segments import split_math
    total, unconverted = 0, []
    for abstract in abstracts:
        segments, _ = split_math(abstract)
        for segment in segments:
            if segment.kind == "text" or text_only_math(segment.content) is not None:
                continue
            total += 1
            if render_math(segment.content, display=segment.kind == "display") is None:
                unconverted.append(segment.written)
    return total, unconverted


def corpus_arguments(description: str, examples: str) -> argparse.Namespace:
    """--every N, --project (whose catalogue/ is imported from then on) and --examples (of what)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1, help="measure every Nth abstract")
    parser.add_argument("--project", type=Path, default=PROJECT, help="the checkout whose catalogue/ is measured")
    parser.add_argument("--examples", type=int, default=0, help=f"print this many {examples}")
    args = parser.parse_args()
    sys.path.insert(0, str(args.project.resolve()))
    return args


def main() -> None:
    args = corpus_arguments(__doc__, "unconverted formulas")
    from catalogue.markup.convert import TextConverter
    abstracts = read_abstracts(args.every)
    markup = TextConverter()
    plains = [markup.plain(abstract) for abstract in abstracts]
    print(f"{len(abstracts)} abstracts ({CORPUS.name}, every {args.every}), catalogue from {args.project}\n")
    print("| construct | abstracts writing it | plain text still showing it |\n|---|---:|---:|")
    for construct in CONSTRUCTS:
        writing = [i for i, abstract in enumerate(abstracts) if construct.written.search(abstract)]
        left = sum(1 for i in writing if construct.left.search(plains[i]))
        print(f"| {construct.name} | {len(writing)} | {left} |")
    total, unconverted = math_counts(abstracts)
    print(f"\nmath segments: {total}, shown unconverted: {len(unconverted)} "
          f"({len(unconverted) / max(total, 1):.2%})")
    for written in unconverted[:args.examples]:
        print("   ", written[:160])


if __name__ == "__main__":
    main()
