"""Evidence must not depend on machine load: the default budgets are counted in work
(z3 ``rlimit``, evaluation sample counts); wall-clock limits are only a safety net."""

import subprocess
import sys

import pytest

from transted.pipeline.evidence import RefuteOptions, pair_evidence
from transted.pipeline.opt import parse_statement

PAIRS = [
    # refuted by z3 only (the grid never satisfies both hypotheses): witness x = 501, y = 499
    ("theorem a (x y : ℤ) (h₀ : x + y = 1000) (h₁ : x - y = 2) : x = 501",
     "theorem b (x y : ℤ) (h₀ : x + y = 1000) (h₁ : x - y = 2) : x = 502"),
    # refuted by exact evaluation
    ("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4", "theorem b (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5"),
    # proved (z3, omega)
    ("theorem a (n : ℕ) (h : Even n) : n % 4 < 4", "theorem b (n : ℕ) (h : n % 2 = 0) : n % 4 < 4"),
    # nonlinear: z3 runs into its resource limit, not the clock
    ("theorem a (x y z : ℤ) (h : x ^ 3 + y ^ 3 + z ^ 3 = 33) : x * y * z ≠ 7",
     "theorem b (x y z : ℤ) (h : x ^ 3 + y ^ 3 + z ^ 3 = 33) : x * y * z ≠ 8"),
]


def _run() -> list[tuple[str, dict[str, str], str | None]]:
    out = []
    for ref, cand in PAIRS:
        ev = pair_evidence(parse_statement(ref), parse_statement(cand), RefuteOptions())
        out.append((ev.kind, ev.witness, ev.failing_side))
    return out


@pytest.mark.slow
def test_same_evidence_with_and_without_a_cpu_burner():
    idle = _run()
    assert [k for k, _, _ in idle[:3]] == ["refuted", "refuted", "proved"]
    assert idle[0][1] == {"x": "501", "y": "499"}
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        loaded = [_run() for _ in range(2)]
    finally:
        for p in burners:
            p.kill()
            p.wait()
    assert loaded == [idle, idle]


def test_rlimit_is_validated_and_in_the_signature():
    with pytest.raises(ValueError, match="rlimit"):
        RefuteOptions(rlimit=0)
    assert "rlimit:200000" in RefuteOptions().signature()
    assert "rlimit:none" in RefuteOptions(rlimit=None).signature()


def test_a_tiny_rlimit_abstains_with_the_reason():
    ref, cand = PAIRS[0]
    ev = pair_evidence(parse_statement(ref), parse_statement(cand),
                       RefuteOptions(rlimit=1, engines=("z3",)))
    assert ev.kind == "none" and "rlimit" in (ev.reason or "")
