"""Superscripts and subscripts in plain text, on formulas taken from the real corpus: a script of more
than one character is written whole (κ^(3/2), x¹⁰), never cut into script characters and text (κ³/2)."""

import sys

import pytest

from catalogue.ingest.results import plain_math
from catalogue.markup.convert import TextConverter
from catalogue.markup.formulas import math_to_text

from conftest import PROJECT

sys.path.insert(0, str(PROJECT))
from bench.plain_math import cut_group, script_groups, unspaced  # noqa: E402

# Formulas of real abstracts (../shared/corpus), as each reads in plain text.
GROUPED = [
    # a group with a character that has no superscript: after its ^ or _, in parentheses
    (r"O(\kappa^{3/2}/N\epsilon^3)", "O(κ^(3/2)/Nϵ³)"),  # the seeds'
    (r"\Omega(\epsilon^{1/2})", "Ω(ϵ^(1/2))"),
    (r"O(d^{1/2}T^{3/4} + \epsilon_0T)", "O(d^(1/2)T^(3/4) + ϵ_0T)"),
    (r"\tilde{O}(d^{\frac{3}{2}}\sqrt{T})", "Õ(d^(3/2)√(T))"),
    (r"\mathcal{O}(\min\{\sqrt{T}, \sqrt{\mathcal{E}}T^\frac{1}{4}\})", "𝒪(min{√(T), √(ℰ)T^(1/4)})"),  # no braces
    (r"A\in\mathbb{R}^{n\times d}", "A∈ℝ^(n×d)"),
    (r"O(n^{3.5})", "O(n^(3.5))"),
    (r"\nu_* = e^{-f}", "ν_* = e^(-f)"),
    (r"2^{O(k^2)}n^{O(k)}", "2^(O(k²))n^(O(k))"),
    (r"\R^{n_i}", "ℝ^(n_i)"),
    (r"\mathbb{E}[X_{ij}] = A_{ij}", "𝔼[X_(ij)] = A_(ij)"),
    (r"g(x; w) = \sum_{j=1}^K \sigma(w_j \cdot x)", "g(x; w) = ∑_(j=1)^K σ(w_j ·x)"),
    # a group in parentheses of its own keeps just those; one that only starts with one gets its pair
    (r"h^{(t)}", "h^(t)"),
    (r"\tilde{O}(T^{(D+1)/(D+2)})", "Õ(T^((D+1)/(D+2)))"),
    # every character has a superscript: all of them become superscripts
    (r"10^{14}", "10¹⁴"),
    (r"(A^\top A)^{-1}", "(A^⊤A)⁻¹"),
    (r"O(\gamma^{-1} \epsilon^{-1/2} \log(\gamma^{-1} \epsilon^{-1}))", "O(γ⁻¹ ϵ^(-1/2) log(γ⁻¹ ϵ⁻¹))"),
    (r"q_{\phi^{(n)}}", "q_(ϕ⁽ⁿ⁾)"),
]
AS_BEFORE = [  # one character, braced or not: as plain text always wrote it
    (r"O(n^2)", "O(n²)"), (r"O(1/\epsilon^{2})", "O(1/ϵ²)"), (r"{mn^{2}}/{\varepsilon}", "mn²/ε"),
    (r"\mathbb{R}^n", "ℝⁿ"), (r"\mathbb{R}^d", "ℝ^d"), (r"\ell_{1}", "ℓ_1"), (r"\ell_2", "ℓ_2"), (r"x_t", "x_t"),
    (r"\ell_\infty", "ℓ_∞"),
]


@pytest.mark.parametrize("latex, text", GROUPED + AS_BEFORE)
def test_a_script_reads_as_grouped(latex, text):
    assert math_to_text(latex) == text


@pytest.mark.parametrize("latex", [latex for latex, _ in GROUPED])
def test_no_group_is_cut(latex):
    """bench/plain_math.py's detector, which starts from the LaTeX's groups, finds nothing."""
    text = unspaced(math_to_text(latex))
    for mark, content in script_groups(latex):
        cut = cut_group(mark, unspaced(math_to_text(content)))
        assert cut is None or not cut.search(text), (mark, content)


@pytest.mark.parametrize("mark, group, written, cut", [
    ("^", "3/2", "κ³/2", True), ("^", "3/2", "κ^(3/2)", False), ("^", "(t)", "h⁽t)", True),
    ("^", "-1", "x⁻1", True), ("^", "-1", "x⁻¹", False), ("_", "ij", "x_(ij)", False), ("_", "12", "x₁2", True),
])
def test_the_detector_sees_a_cut_group(mark, group, written, cut):
    pattern = cut_group(mark, group)
    assert bool(pattern and pattern.search(written)) == cut


def test_every_plain_text_path_writes_the_group():
    """An abstract's plain text (descriptions, feeds, search, citations) and the text results are found in."""
    abstract = (r"we present an algorithm that achieves an $O(T^{3/4})$ regret and improve the best-known lower bound"
                r" from $Omega(T^{3/5})$ to $\Omega(T^{2/3})$.")  # a real abstract's sentence
    expected = "we present an algorithm that achieves an O(T^(3/4)) regret and improve the best-known lower bound" \
               " from Omega(T^(3/5)) to Ω(T^(2/3))."
    assert TextConverter().plain(abstract) == expected
    assert plain_math(abstract) == expected
