"""Adversarial inputs of issue 14 (items 2-5): each asserts a bound and that the batch keeps
every other pair. Inputs are generated here, not stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pytest

from transted.errors import (
    InputError,
    ResourceLimitError,
    TooLarge,
    caret_excerpt,
    escape_control,
)
from transted.fol.dnf import DNFOptions, count_clauses, dnf_clauses
from transted.fol.syntax import parse_formula
from transted.metrics.registry import get_metric
from transted.pipeline.opt import parse_statement
from transted.pipeline.opt.node import Node
from transted.pipeline.ted.bounds import TEDBounds, estimate, keyroot_work
from transted.pipeline.ted.distance import TreeEditDistance
from transted.reading.outputs import (
    OutputLock,
    OutputLocked,
    OutputPathError,
    check_output_dir,
    check_output_file,
)
from transted.reading.pairs import Pair, Statement, read_pairs, write_pairs
from transted.running.batch import RepairedOutputWarning, load_results, score_pairs, unencodable

ROOT = Path(__file__).resolve().parents[1]


def chain(n: int, last: str = "x") -> str:
    return "theorem t : " + "x + " * n + f"{last} = 0 := sorry"


def pair(pid: str, ref: str, cand: str) -> Pair:
    return Pair(id=pid, reference=Statement(statement=ref), candidate=Statement(statement=cand))


# ---- bounded TED ---------------------------------------------------------------------------

def test_keyroot_work_by_hand():
    # ((x + x) + x): root (5 nodes), inner + (3), three leaves.
    t = Node.from_text("{+{+{x}{x}}{x}}")
    # left key roots: root + the two right operands -> 5 + 1 + 1
    # right key roots: root + inner + (left operand) + its left leaf -> 5 + 3 + 1
    adj = [[1, 4], [2, 3], [], [], []]
    assert keyroot_work(adj, "left") == 7 and keyroot_work(adj, "right") == 9
    c = estimate(t, t, backend="edist")
    assert (c.size1, c.work, c.memory) == (5, 81, 24 * 36)
    assert estimate(t, t, backend="zss").work == 49
    assert estimate(t, t, backend="apted").work == 49


def test_bounds_refuse_before_computing_and_allow_below():
    a, b = Node.from_text("{f{x}{y}}"), Node.from_text("{f{x}{z}}")
    # right key roots of f(x, y): f (3 nodes) and x (1): C = 4, work = 4 * 4
    assert TreeEditDistance(bounds=TEDBounds(max_work=16))(a, b) == 1.0
    with pytest.raises(TooLarge, match="16 table cells"):
        TreeEditDistance(bounds=TEDBounds(max_work=15))(a, b)
    with pytest.raises(TooLarge) as e:
        TreeEditDistance(bounds=TEDBounds(max_memory=100))(a, b)
    assert (e.value.size1, e.value.size2, e.value.bound, e.value.resource) == (3, 3, 100, "memory")
    with pytest.raises(ValueError, match="max_work"):
        TEDBounds(max_work=0)


def wide(n: int, last: str = "x") -> str:
    return "theorem t : f " + "x " * n + f"{last} = 0 := sorry"


def test_long_sum_against_one_leaf_change_is_refused_fast():
    # issue 14 item 2: `x + ` x400 vs a one-leaf change took 80 s; x125 is the longest chain
    # under the tree-depth cap (127 levels with the `=`), and already over the TED bound
    metric = get_metric("ted", normalize=False)  # sizes derived on the parsed trees
    start = time.perf_counter()
    result = metric.score_pair(pair("long", chain(125), chain(125, "y")))
    elapsed = time.perf_counter() - start
    assert result.status == "too_large" and result.score is None
    assert result.details["size1"] == result.details["size2"] == 2 * 125 + 3
    assert result.details["needed"] > result.details["bound"] == TEDBounds().max_work
    assert elapsed < 5.0  # parse + estimate; computing took 80 s


def test_short_sum_still_scored_exactly():
    result = get_metric("ted", normalize=False).score_pair(pair("short", chain(20), chain(20, "y")))
    assert result.status == "ok" and result.details["distance"] == 1.0


MEMORY_SCRIPT = textwrap.dedent("""
    import sys
    from transted.budget import limit_memory
    limit_memory(2 * 1024 ** 3)
    from transted.running.batch import score_pairs
    from transted.metrics.registry import get_metric
    from transted.reading.pairs import read_pairs
    score_pairs(read_pairs(sys.argv[1]), get_metric("ted", backend=sys.argv[3], normalize=False),
                sys.argv[2])
""")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["edist"])
def test_24kb_pair_under_2gb_cap_gives_too_large_line_and_batch_goes_on(tmp_path, backend):
    # a wide statement: a 24 KB chain is refused by the tree-depth cap (tests/test_depth.py)
    pairs = [pair("a", chain(3), chain(3, "y")), pair("huge", wide(12000), wide(12000, "y")),
             pair("c", chain(5), chain(4))]
    assert len(pairs[1].reference.statement) > 24_000
    data, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    write_pairs(pairs, data)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(data), str(out), backend],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert time.perf_counter() - start < 60
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in lines] == ["a", "huge", "c"]
    assert [r["status"] for r in lines] == ["ok", "too_large", "ok"]
    assert lines[1]["details"]["resource"] == "memory"
    assert lines[1]["details"]["size1"] == 12000 + 4  # =, f, 12001 arguments, 0


# ---- fol-sim -------------------------------------------------------------------------------

@pytest.mark.parametrize("op", ["⊕", "↔"])
def test_24_atom_chain_refused_in_milliseconds(op):
    formula = parse_formula(f" {op} ".join(f"P{i}(x)" for i in range(24)))
    start = time.perf_counter()
    with pytest.raises(ResourceLimitError, match="8388608 disjuncts"):
        dnf_clauses(formula)
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("text", [
    "P(x) ⊕ Q(x) ⊕ R(x)", "(P(x) ↔ Q(x)) → R(x)", "¬((A(x) ∨ B(x)) ∧ (C(x) ↔ ¬D(x)))",
    "∀x ((A(x) → B(x)) ⊕ (C(x) ∧ D(x)))",
])
def test_count_matches_the_expansion(text):
    formula = parse_formula(text)
    assert count_clauses(formula) == len(dnf_clauses(formula, DNFOptions(max_clauses=10_000)))


def test_fol_sim_metric_reports_the_cap_as_a_pair_error():
    xor = " ⊕ ".join(f"P{i}(x)" for i in range(24))
    result = get_metric("fol-sim").score_pair(pair("xor", xor, "P0(x)"))
    assert result.status == "error" and "max_clauses" in (result.error or "")


# ---- exactly-once output -------------------------------------------------------------------

@pytest.fixture
def three():
    return [pair("p1", chain(1), chain(1, "y")), pair("p2", chain(2), chain(2)),
            pair("p3", chain(3), chain(2))]


def test_second_writer_is_refused_naming_the_holder(tmp_path, three):
    out = tmp_path / "out.jsonl"
    with OutputLock(out):
        with pytest.raises(OutputLocked, match=f"pid={os.getpid()} host="):
            score_pairs(three, get_metric("ted"), out)
    assert score_pairs(three, get_metric("ted"), out)  # released: the next run goes
    assert len(load_results(out)) == 3


def test_second_writer_in_another_process_is_refused(tmp_path, three):
    out = tmp_path / "out.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from transted.reading.outputs import OutputLock\n"
         "with OutputLock(sys.argv[1]):\n    print('locked', flush=True); time.sleep(30)",
         str(out)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(OutputLocked, match=f"pid={holder.pid} "):
            score_pairs(three, get_metric("ted"), out, resume=False)
        assert not out.exists() or out.read_text() == ""
    finally:
        holder.kill()
        holder.wait()
    score_pairs(three, get_metric("ted"), out)  # the kernel dropped the dead holder's lock


def test_out_equal_to_an_input_is_refused(tmp_path, three):
    data = tmp_path / "pairs.jsonl"
    write_pairs(three, data)
    before = data.read_bytes()
    link = tmp_path / "alias.jsonl"
    link.symlink_to(data)
    for target in (data, link, tmp_path / "." / "pairs.jsonl"):
        with pytest.raises(OutputPathError, match="is the input file"):
            score_pairs(read_pairs(data), get_metric("ted"), target, resume=False, inputs=[data])
    assert data.read_bytes() == before


def test_resume_repairs_a_corrupted_file_and_keeps_a_backup(tmp_path, three):
    out = tmp_path / "out.jsonl"
    metric = get_metric("ted")
    first = score_pairs(three, metric, out)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text(lines[0] + lines[0] + '{"id": "p2", "garbage\n' + lines[2])
    with pytest.warns(RepairedOutputWarning, match=r"dropped 2 bad line\(s\), kept 2") as w:
        again = score_pairs(three, metric, out)
    assert ":2: repeats id 'p1'" in str(w[0].message) and ":3: not a transted" in str(w[0].message)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in first]
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == ["p1", "p2", "p3"]
    backups = list(tmp_path.glob("out.jsonl.corrupt-*"))
    assert len(backups) == 1 and b"garbage" in backups[0].read_bytes()


def test_truncated_last_line_resumes_silently(tmp_path, three):
    out = tmp_path / "out.jsonl"
    score_pairs(three, get_metric("ted"), out)
    raw = out.read_bytes()
    out.write_bytes(raw[: len(raw) - 10])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RepairedOutputWarning)
        score_pairs(three, get_metric("ted"), out)
    assert out.read_bytes() == raw


def test_lone_surrogate_gets_a_per_pair_error_and_the_batch_goes_on(tmp_path, three):
    bad = pair("bad", "theorem t : a = \ud800 := sorry", chain(1))
    assert "U+D800 at character 17" in (unencodable(bad) or "")
    out = tmp_path / "out.jsonl"
    results = score_pairs([three[0], bad, three[1]], get_metric("ted"), out)
    assert [r.status for r in results] == ["ok", "error", "ok"]
    assert [r.id for r in load_results(out)] == ["p1", "bad", "p2"]
    # an id that cannot be written is refused when reading, naming the line
    data = tmp_path / "ids.jsonl"
    data.write_text('{"id": "ok", "reference": {"statement": "x"}, "candidate": {"statement": '
                    '"y"}}\n{"id": "a\\ud800", "reference": {"statement": "x"}, '
                    '"candidate": {"statement": "y"}}\n')
    with pytest.raises(InputError, match=":2: field `id`"):
        read_pairs(data)


@pytest.mark.parametrize(("make", "match"), [
    (lambda d: d, "is a directory"),
    (lambda d: d / "missing" / "out.jsonl", "does not exist"),
    (lambda d: Path("/dev/full"), "not a regular file"),
    (lambda d: Path("/dev/null"), "not a regular file"),
    (lambda d: Path("/dev/stdout"), "not a regular file"),
])
def test_output_path_problems_are_one_line(tmp_path, make, match):
    with pytest.raises(OutputPathError, match=match) as e:
        check_output_file(make(tmp_path))
    assert "\n" not in str(e.value)


def test_stdout_pipe_is_refused_without_reading_it(tmp_path):
    read, write = os.pipe()
    try:
        with pytest.raises(OutputPathError, match="not a regular file"):
            check_output_file(f"/proc/self/fd/{write}")
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_is_refused(tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputPathError, match="permission denied"):
            check_output_file(locked / "out.jsonl")
        with pytest.raises(OutputPathError, match="permission denied"):
            check_output_dir(locked / "sub")
    finally:
        locked.chmod(0o700)


def test_escape_control():
    assert escape_control("a\x1b[2Jb\x07\tc\nd\x9b") == "a\\x1b[2Jb\\x07\\tc\nd\\x9b"
    assert escape_control("x\ny", keep_newlines=False) == "x\\ny"


# ---- readers name the place ----------------------------------------------------------------

@pytest.mark.parametrize(("line", "match"), [
    (b'{"id": "a", "reference": {"statement": "\xff"}, "candidate": {"statement": "y"}}',
     r":2:41: invalid UTF-8 \(byte 0xff\)"),
    (b'{"id": "a", "reference": {"statement": "x"}, "candidate": {"statement": "y"}, '
     b'"label": "yes"}', ":2: field `label`"),
    (b'{"id": "a", "reference": {"statement": "x"}, "candidate": {"statement": "y"}, '
     b'"label": 1}', ":2: field `label`"),
    (b'{"id": "", "reference": {"statement": "x"}, "candidate": {"statement": "y"}}',
     ":2: field `id`"),
])
def test_pair_reader_names_file_and_line(tmp_path, line, match):
    good = b'{"id": "z", "reference": {"statement": "x"}, "candidate": {"statement": "y"}}\n'
    path = tmp_path / "p.jsonl"
    path.write_bytes(good + line + b"\n")
    with pytest.raises(InputError, match=match):
        read_pairs(path)


def test_lfi_reader_names_bad_utf8(tmp_path):
    from transted.fol.lfi import read_logic_forms

    path = tmp_path / "lf.txt"
    path.write_bytes(b"1 :: A(x)\n2 :: B(\xc3x)\n")
    with pytest.raises(InputError, match=r"lf.txt:2:8: invalid UTF-8"):
        read_logic_forms(path)


def test_caret_is_measured_on_the_raw_line_with_controls_escaped():
    src = "a" * 85 + "\x1b[2J" + "b" * 10 + "?"
    col = src.index("?") + 1  # column 100 on one raw line
    shown, caret = caret_excerpt(src, 1, col, width=40).split("\n")
    assert "\x1b" not in shown and "\\x1b[2J" in shown
    assert shown[caret.index("^")] == "?" and len(caret) <= 41


def test_second_theorem_and_char_literals():
    from transted.errors import ParseError

    with pytest.raises(ParseError) as e:
        parse_statement("theorem a : 1 = 1 := by\n  rfl\n@[simp] theorem b : 2 = 3 := sorry")
    assert (e.value.line, e.value.column) == (3, 9) and "second declaration" in e.value.reason
    tree = parse_statement("theorem t (c : Char) (h : c = 'a') : c ≠ '\\n' := sorry")
    assert "{'a'}" in str(tree) and "{'\\\\n'}" in str(tree)  # backslash escaped in brackets


# ---- eval output folder and dev set --------------------------------------------------------

def _labelled(path: Path, labels: list[bool]) -> Path:
    pairs = [Pair(id=f"q{i}", reference=Statement(statement=chain(i + 1)),
                  candidate=Statement(statement=chain(i + 1, "y")), label=label)
             for i, label in enumerate(labels)]
    write_pairs(pairs, path)
    return path


def test_eval_out_dir_from_other_data_is_refused_unless_no_resume(tmp_path):
    from transted.api import labelled_pairs
    from transted.studies.evaluation.run import run_eval

    a = _labelled(tmp_path / "a.jsonl", [True, False, True])
    b = _labelled(tmp_path / "b.jsonl", [False, True, False, True])
    out = tmp_path / "out"
    run_eval(labelled_pairs(a), ["ted"], out)
    run_eval(labelled_pairs(a), ["ted"], out)  # same data: resumes
    with pytest.raises(InputError, match="holds results for other inputs"):
        run_eval(labelled_pairs(b), ["ted"], out)
    run_eval(labelled_pairs(b), ["ted"], out, resume=False)
    assert json.loads((out / "inputs.json").read_text())["data"]["path"] == str(b)


def test_eval_dev_without_positives_is_refused(tmp_path):
    from transted.api import labelled_pairs
    from transted.studies.evaluation.harness import EvalConfig
    from transted.studies.evaluation.run import run_eval

    data = _labelled(tmp_path / "a.jsonl", [True, False, True])
    dev = _labelled(tmp_path / "dev.jsonl", [False, False])
    with pytest.raises(InputError, match="the dev set has no positive labels"):
        run_eval(labelled_pairs(data), ["ted"], tmp_path / "out", dev=labelled_pairs(dev),
                 config=EvalConfig(threshold_mode="calibrated"))


# ---- hypothesis: deeply nested and very wide statements ------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from transted.errors import ParseError  # noqa: E402

_atoms = st.sampled_from(["x", "y", "0", "1", "f x", "'a'", "(-x)", "a\x1b", "é", "\ud800"])
_ops = st.sampled_from([" + ", " * ", " ∧ ", " → ", " = ", ", ", " ", ""])


@st.composite
def statements(draw: st.DrawFn) -> str:
    depth = draw(st.integers(0, 400))
    width = draw(st.integers(1, 300))
    body = draw(_ops).join(draw(st.lists(_atoms, min_size=1, max_size=4)) * (width // 4 + 1))
    opener = draw(st.sampled_from(["(", "∀ x : ℕ, ", "¬", "f ("]))
    closer = ")" if opener in ("(", "f (") else ""
    return "theorem t : " + opener * depth + body + closer * depth + " := sorry"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statements(), statements())
def test_nested_and_wide_statements_give_a_result_or_a_positioned_error(ref, cand):
    start = time.perf_counter()
    result = get_metric("ted").score_pair(pair("h", ref, cand))
    assert time.perf_counter() - start < 20
    assert result.status in ("ok", "error", "too_large")
    if result.status == "ok":
        assert result.score is not None and 0.0 <= result.score <= 1.0
    else:
        assert result.error
    if result.status == "error" and "nests deeper" not in (result.error or ""):
        try:
            parse_statement(ref)
            parse_statement(cand)
        except ParseError as e:
            assert e.line >= 1 and e.column >= 1 and "^" in e.excerpt
        except ResourceLimitError:
            pass
