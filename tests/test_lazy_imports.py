"""Speed without changing outputs: heavy libraries load on first use, the lexer's symbol index."""

from __future__ import annotations

import subprocess
import sys

from transted.opt.lexer import tokenize


def test_the_transted_metric_imports_neither_sympy_nor_scipy_optimize():
    code = ("import sys, transted.metrics.transted; "
            "print(sorted(m for m in ('sympy', 'scipy.optimize') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_longest_symbol_at_a_position_wins_among_those_sharing_its_first_character():
    symbols = {"<", "<=", "<=>", "lim", "limsup"}
    words = [t.text for t in tokenize("a <=> b <= c < d limsup x lim y", symbols)[:-1]]
    assert words == ["a", "<=>", "b", "<=", "c", "<", "d", "limsup", "x", "lim", "y"]
    kinds = [t.kind for t in tokenize("limsup limsupx", symbols)[:-1]]
    assert kinds == ["sym", "ident"]  # a word symbol only where it is as long as the identifier
