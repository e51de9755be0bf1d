"""``report.html`` of ``transted eval``: one self-contained file to read, print or paste from.

Contents: the Table 3 look-alike (precision, recall, accuracy, kappa per metric with threshold
mode and threshold; oracle next to grouped cross-validation and the shipped default when the
summary carries them), the kappa-vs-threshold plot (the SVG written next to it, inlined as a
``data:`` URI), the disagreements with a tree diff each, and every pair with both statements,
each metric's score, verdict and explanation (the result's ``details``, read back from
``OUT/scores/<metric>.jsonl``).

The tree diff is the optimal unit-cost TED mapping (edist's backtrace,
:func:`transted.pipeline.search.explain.tree_diff`) between the two statements' operator trees as the
``ted`` metric builds them (default tree options): each node is unchanged, relabelled, deleted
from the reference or inserted in the candidate; under it, the ``ted`` metric's costed edits
(:func:`transted.pipeline.ted.edits.costed_edits`, dearest first). No external asset: inline CSS, the plot as a
base64 ``data:`` URI; every piece of text from the data goes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import json
import math
from html import escape
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from transted.errors import TranstedError
from transted.pipeline.search.explain import tree_diff
from transted.pipeline.ted.edits import costed_edits, format_edits
from transted.pipeline.verdict.rules import format_residual
from transted.running.reasons import details_text, verdict_text
from transted.studies.evaluation.harness import scores_path
from transted.studies.evaluation.reports.trees import ReportTrees

if TYPE_CHECKING:
    from transted.pipeline.opt.node import Node
    from transted.studies.evaluation.harness import MetricEvaluation
    from transted.studies.evaluation.outcome import EvalRun

__all__ = ["REPORT_HTML", "write_html_report", "render_html", "disagreement_ids"]

REPORT_HTML = "report.html"
_MARK_NAME = {"=": "same", "~": "relabelled", "-": "deleted", "+": "inserted"}

_CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:2em auto;
max-width:1300px;color:#222;line-height:1.4;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.8em;
border-bottom:1px solid #ccc}
.meta{color:#555;font-size:.9em}
table{border-collapse:collapse;font-size:.88em;margin:.6em 0}
th,td{border:1px solid #ccc;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f1f3f5}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.85em;
font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}
.pairs td{max-width:330px}.ok{color:#1b7a2c}.bad{color:#b3261e;font-weight:600}
.det{color:#555;font-size:.8em}
.diff{display:flex;gap:1.5em;flex-wrap:wrap}.diff>div{flex:1;min-width:300px}
ul.tree,ul.tree ul{list-style:none;margin:0;padding-left:1.1em}
ul.tree{padding-left:0;font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px}
ul.tree ul{border-left:1px dotted #bbb}
.same{color:#444}.relabelled{background:#fff3bf}.deleted{background:#ffd8d8;
text-decoration:line-through}.inserted{background:#d3f9d8}
details{margin:.5em 0;border:1px solid #ddd;border-radius:4px;padding:.3em .7em}
summary{cursor:pointer;font-weight:600}.legend span{padding:0 .4em;margin-right:.6em}
img.plot{max-width:100%;border:1px solid #eee}
"""


def _num(x: object, digits: int = 3) -> str:
    if not isinstance(x, (int, float)) or not math.isfinite(x):
        return "–"
    return f"{x:.{digits}f}"


def _pct(x: object) -> str:
    return "–" if not isinstance(x, (int, float)) or not math.isfinite(x) else f"{100 * x:.1f}%"


def _ci(ci: object, fmt: Any) -> str:
    if not isinstance(ci, (list, tuple)) or len(ci) != 2:
        return ""
    return f' <span class="det">[{fmt(ci[0])}, {fmt(ci[1])}]</span>'


def disagreement_ids(run: EvalRun) -> list[str]:
    """Ids of pairs where at least one metric's verdict differs from the experts', file order."""
    wrong = np.zeros(len(run.pairs), dtype=bool)
    for ev in run.evaluations:
        if ev.predictions is not None:
            wrong |= ev.predictions != run.labels
    return [p.id for p, w in zip(run.pairs, wrong, strict=True) if w]


def write_html_report(run: EvalRun, out: Path, *, trees: ReportTrees | None = None
                      ) -> dict[str, Path]:
    """Write ``OUT/report.html`` (after the plot files, which it inlines); ``trees``: the
    run's pair trees, shared with the other reports."""
    path = Path(out) / REPORT_HTML
    path.write_text(render_html(run, Path(out), trees=trees), encoding="utf-8")
    return {REPORT_HTML: path}


def render_html(run: EvalRun, out: Path, *, trees: ReportTrees | None = None) -> str:
    """The report as one HTML string; ``out`` holds the scores and plot files."""
    trees = trees if trees is not None else ReportTrees()
    n, n_pos = len(run.pairs), int(run.labels.sum())
    title = f"Agreement with expert labels: {run.data.file_name}"
    details = {ev.name: _read_details(scores_path(out, ev.name)) for ev in run.evaluations}
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{n} pairs ({n_pos} equivalent, {n - n_pos} not) · threshold mode '
        f"<b>{escape(run.config.threshold_mode)}</b> · oracle rule "
        f"{escape(run.config.oracle_rule)} · {100 * run.config.confidence:.0f}% bootstrap "
        f"intervals, {run.config.n_boot} resamples, seed {run.config.seed} · a pair a metric "
        f"failed on counts as not equivalent</p>",
        "<h2>Agreement (ASSESS Table 3 layout)</h2>", _summary_table(run), _modes_table(run),
        "<h2>Kappa against threshold</h2>", _plot(out),
        "<h2>Disagreements with the experts</h2>", _disagreements(run, trees),
        "<h2>Every pair</h2>", _pairs_table(run, details),
        "<h2>Signatures</h2><ul>",
        *[f"<li><code>{escape(ev.signature)}</code></li>" for ev in run.evaluations],
        f"<li><code>{escape(run.signature)}</code></li></ul>", "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _summary_table(run: EvalRun) -> str:
    rows = ["<table><tr><th>Metric</th><th>Mode</th><th>Threshold</th><th>Precision</th>"
            "<th>Recall</th><th>Accuracy</th><th>Kappa</th><th>TP</th><th>TN</th><th>FP</th>"
            "<th>FN</th><th>Errors</th></tr>"]
    for ev in run.evaluations:
        a = ev.agreement
        if a is None:
            rows.append(f"<tr><td>{escape(ev.name)}</td><td>{escape(ev.threshold_mode)}</td>"
                        f'<td colspan="10">not evaluated: {escape(ev.status)}</td></tr>')
            continue
        t = "–" if ev.binary or ev.threshold is None else _num(ev.threshold, 4)
        if ev.fold_thresholds is not None:
            t += (f' <span class="det">(folds {_num(float(ev.fold_thresholds.min()))}–'
                  f"{_num(float(ev.fold_thresholds.max()))})</span>")
        rows.append(
            f"<tr><td>{escape(ev.name)}</td><td>{escape(ev.threshold_mode)}</td>"
            f'<td class="n">{t}</td><td class="n">{_pct(a.precision)}</td>'
            f'<td class="n">{_pct(a.recall)}</td><td class="n">{_pct(a.accuracy)}'
            f"{_ci(ev.intervals.get('accuracy_ci'), _pct)}</td>"
            f'<td class="n">{_num(a.kappa)}{_ci(ev.intervals.get("kappa_ci"), _num)}</td>'
            + "".join(f'<td class="n">{v}</td>' for v in (a.tp, a.tn, a.fp, a.fn))
            + f'<td class="n">{len(ev.errors)}</td></tr>')
    return "\n".join(rows) + "</table>"


def _modes_table(run: EvalRun) -> str:
    """Oracle next to grouped CV (and the shipped default) when the summary carries them."""
    metrics = run.summary().get("metrics")
    rows = []
    for name, entry in (metrics if isinstance(metrics, dict) else {}).items():
        modes = entry.get("modes") if isinstance(entry, dict) else None
        if not modes:
            continue
        o, c, d = (modes.get(k) or {} for k in ("oracle", "cv", "default"))
        rows.append(f"<tr><td>{escape(name)}</td><td class=n>{_num(o.get('threshold'), 4)}</td>"
                    f"<td class=n>{_pct(o.get('accuracy'))}</td>"
                    f"<td class=n>{_num(o.get('kappa'))}</td>"
                    f"<td class=n>{_pct(c.get('accuracy'))}</td>"
                    f"<td class=n>{_num(c.get('kappa'))}</td>"
                    f"<td class=n>{_num(d.get('threshold'), 4)}</td>"
                    f"<td class=n>{_pct(d.get('accuracy'))}</td>"
                    f"<td class=n>{_num(d.get('kappa'))}</td></tr>")
    if not rows:
        return ""
    return ("<p>Oracle (threshold tuned on these labels, optimistic) next to grouped "
            "cross-validation (threshold chosen without the pair's problem) and the shipped "
            "default threshold:</p><table><tr><th>Metric</th><th>Oracle t</th>"
            "<th>Oracle acc</th><th>Oracle κ</th><th>Grouped CV acc</th><th>Grouped CV κ</th>"
            "<th>Default t</th><th>Default acc</th><th>Default κ</th></tr>"
            + "\n".join(rows) + "</table>")


def _plot(out: Path) -> str:
    for name, mime in (("kappa_curve.svg", "image/svg+xml"), ("kappa_curve.png", "image/png")):
        path = out / name
        if path.exists():
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            return (f'<img class="plot" alt="Cohen\'s kappa against threshold" '
                    f'src="data:{mime};base64,{data}">'
                    '<p class="meta">Dots and legend: each metric\'s chosen threshold and the '
                    "kappa reached with it (in cv mode: the median fold threshold and the "
                    "cross-validated kappa, hence below the curve). Each curve is the verdict "
                    "rule at that fallback threshold, as in the table: the pairs that evidence, "
                    "invalidity or residual edits decide keep their verdict, the threshold "
                    "decides the rest. Dotted lines: verdict metrics. Also written as "
                    "kappa_curve.png / .svg / .pdf.</p>")
    return "<p>No plot (no graded metric).</p>"


def _verdict(ev: MetricEvaluation, i: int, label: bool) -> str:
    """The evaluation's verdict of pair ``i`` (the rule at the row's threshold), named so:
    it may differ from the metric's own verdict, made with its shipped threshold."""
    if ev.predictions is None:
        return ""
    p = bool(ev.predictions[i])
    cls = "ok" if p == label else "bad"
    at = "" if ev.threshold is None else f" at {ev.threshold_mode} t={_num(ev.threshold)}"
    return (f'<span class="{cls}" title="the evaluation\'s verdict: the verdict rule{at}">'
            f'{"equivalent" if p else "not equivalent"}</span>')


def _explain(result: dict[str, Any] | None, ev: MetricEvaluation, i: int) -> str:
    """The metric's own verdict (what decided it, why) and the result's details, as lines."""
    if not result:
        return ""
    if result.get("error") and result.get("status") != "invalid":
        return f'<div class="det bad">{escape(str(result["error"]))}</div>'
    record = SimpleNamespace(verdict=result.get("verdict"), decided_by=result.get("decided_by"),
                             details=result.get("details") or {})
    items = []
    if result.get("verdict") or result.get("decided_by"):
        items.append("metric's own verdict (its shipped threshold): "
                     + escape(_cut(verdict_text(record))))
        note = _differs(result, ev, i)
        if note:
            items.append(escape(note))
    if result.get("status") == "invalid" and result.get("error"):
        items.append(escape(_cut(str(result["error"]))))
    for key, value in record.details.items():
        if key == "verdict_reason":
            continue
        if key == "residual" and isinstance(value, list):
            counted = sum(e.get("role") == "meaning" and not e.get("discharged_by")
                          for e in value if isinstance(e, dict))
            value = f"{len(value)} edits, {counted} meaning edits left"
        lines = details_text({key: value})
        shown = lines[:12] + ([f"  … {len(lines) - 12} more lines"] if len(lines) > 12 else [])
        items.append("<br>".join(escape(_cut(line)).replace("  ", "&nbsp;&nbsp;")
                                 for line in shown))
    return f'<div class="det">{"<br>".join(items)}</div>' if items else ""


def _cut(text: str, limit: int = 300) -> str:
    return text[:limit] + ("…" if len(text) > limit else "")


def _differs(result: dict[str, Any], ev: MetricEvaluation, i: int) -> str | None:
    """Why the metric's own verdict and the evaluation's differ, when they do: only a
    threshold can (the forced decisions are the same rule's)."""
    if ev.predictions is None or result.get("verdict") is None:
        return None
    own = result.get("verdict") == "equivalent"
    if own == bool(ev.predictions[i]):
        return None
    at = "" if ev.threshold is None else f" ({ev.threshold_mode} t={_num(ev.threshold)})"
    return (f"differs from the evaluation's verdict: the evaluation's threshold{at} replaces "
            "the shipped one for a pair the evidence and edits left to the threshold")


def _pairs_table(run: EvalRun, details: dict[str, dict[str, dict[str, Any]]]) -> str:
    head = "".join(f"<th>{escape(ev.name)}</th>" for ev in run.evaluations)
    rows = [f'<table class="pairs"><tr><th>Pair</th><th>Experts</th><th>Reference</th>'
            f"<th>Candidate</th>{head}</tr>"]
    for i, pair in enumerate(run.pairs):
        label = bool(run.labels[i])
        cells = []
        for ev in run.evaluations:
            score = ev.scores[i]
            cells.append(f'<td><span class="n">{_num(float(score), 4)}</span> '
                         f"{_verdict(ev, i, label)}"
                         f"{_explain(details[ev.name].get(pair.id), ev, i)}</td>")
        rows.append(f'<tr id="pair-{escape(pair.id)}"><td><code>{escape(pair.id)}</code></td>'
                    f"<td>{'equivalent' if label else 'not equivalent'}</td>"
                    f"<td><pre>{escape(pair.reference.statement.strip())}</pre></td>"
                    f"<td><pre>{escape(pair.candidate.statement.strip())}</pre></td>"
                    + "".join(cells) + "</tr>")
    return "\n".join(rows) + "</table>"


def _disagreements(run: EvalRun, trees: ReportTrees) -> str:
    ids = set(disagreement_ids(run))
    if not ids:
        return "<p>Every metric agrees with the experts on every pair.</p>"
    parts = [f"<p>{len(ids)} pairs where at least one metric's verdict differs from the "
             "experts'. Tree diff: the optimal unit-cost TED mapping between the two "
             "statements' operator trees (as the <code>ted</code> metric builds them).</p>"
             '<p class="legend"><span class="same">same</span><span class="relabelled">'
             'relabelled</span><span class="deleted">deleted from reference</span>'
             '<span class="inserted">inserted in candidate</span></p>']
    shown = 0
    for i, pair in enumerate(run.pairs):
        if pair.id not in ids:
            continue
        label = bool(run.labels[i])
        wrong = [f"{ev.name} ({_num(float(ev.scores[i]), 3)})" for ev in run.evaluations
                 if ev.predictions is not None and bool(ev.predictions[i]) != label]
        opened = " open" if shown < 3 else ""
        shown += 1
        parts.append(
            f"<details{opened}><summary><code>{escape(pair.id)}</code> — experts: "
            f"{'equivalent' if label else 'not equivalent'}; wrong: "
            f"{escape(', '.join(wrong))}</summary>"
            + (f"<p><i>{escape(pair.informal.strip())}</i></p>" if pair.informal else "")
            + '<div class="diff"><div><b>Reference</b><pre>'
            + escape(pair.reference.statement.strip()) + "</pre></div><div><b>Candidate</b><pre>"
            + escape(pair.candidate.statement.strip()) + "</pre></div></div>"
            + _residual_html(run, i) + _tree_diff_html(pair, trees) + "</details>")
    return "\n".join(parts)


def _residual_html(run: EvalRun, i: int) -> str:
    """Each metric's residual edits of pair ``i`` (what its verdict was decided from)."""

    parts = []
    for ev in run.evaluations:
        residual = ev.residual[i] if i < len(ev.residual) else None
        if not isinstance(residual, list):
            continue
        by = ev.decided[i] if i < len(ev.decided) else "?"
        reason = ev.verdict_reasons[i] if i < len(ev.verdict_reasons) else None
        lines = "".join(f"<li>{escape(line)}</li>" for line in format_residual(residual, 20))
        parts.append(f"<p><b>Residual edits of <code>{escape(ev.name)}</code></b> "
                     f"(decided by {escape(by)}"
                     + (f": {escape(str(reason))}" if reason else "") + ")</p>"
                     + (f'<ul class="det">{lines}</ul>' if lines else
                        '<p class="det">none: the best goal\'s two sides are the same</p>'))
    return "".join(parts)


def _tree_diff_html(pair: Any, trees: ReportTrees) -> str:

    metric = trees.metric
    try:
        ref, cand = trees.of(pair)
        edits = format_edits(costed_edits(ref, cand, metric.pipeline.distance))
    except (TranstedError, ValueError) as e:
        return f'<p class="bad">No tree diff: {escape(str(e))}</p>'
    left, right = tree_diff(ref, cand)
    changed = sum(m != "=" for m in left) + sum(m != "=" for m in right)
    costed = "".join(f"<li>{escape(line)}</li>" for line in edits)
    return (f'<p class="det">{ref.size()} / {cand.size()} nodes; {changed} marked.</p>'
            + (f"<p><b>Costed edits</b> (<code>ted</code>, cost "
               f"<code>{escape(metric.pipeline.distance.name)}</code>, dearest first):</p>"
               f'<ul class="det">{costed}</ul>' if costed else "")
            + f'<div class="diff"><div><b>Reference tree</b>{_tree_html(ref, left)}</div>'
            f"<div><b>Candidate tree</b>{_tree_html(cand, right)}</div></div>")


def _tree_html(tree: Node, marks: tuple[str, ...]) -> str:
    """Nested lists in preorder (the order of ``marks``); iterative: trees can be deep."""
    out: list[str] = ['<ul class="tree">']
    index = 0
    stack: list[Node | None] = [tree]  # None closes a child list
    while stack:
        node = stack.pop()
        if node is None:
            out.append("</ul></li>")
            continue
        mark = marks[index]
        index += 1
        out.append(f'<li><span class="{_MARK_NAME[mark]}" title="{_MARK_NAME[mark]}">'
                   f"{escape(node.label)}</span>")
        if node.children:
            out.append("<ul>")
            stack.append(None)
            stack.extend(reversed(node.children))
        else:
            out.append("</li>")
    out.append("</ul>")
    return "".join(out)


def _read_details(path: Path) -> dict[str, dict[str, Any]]:
    """Result lines by pair id (the last line of an id wins, as resume does)."""
    if not path.exists():
        return {}
    out: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a kill: batch resume rescored that pair
            if isinstance(obj, dict) and "id" in obj:
                out[str(obj["id"])] = obj
    return out
