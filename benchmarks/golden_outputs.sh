#!/usr/bin/env bash
# Byte-identity check for refactors: writes every offline output a refactor must not change
# (dev-pair scores per metric, eval summaries, the Lean sensitivity suite, FOL perturbation
# tables) into OUT. Run it on two checkouts and `diff -r` the folders.
#   usage: benchmarks/golden_outputs.sh OUT [PYTHON]
set -euo pipefail
out=${1:?usage: golden_outputs.sh OUT [PYTHON]}
py=${2:-.venv/bin/python}
mkdir -p "$out"
t() { "$py" -m transted "$@"; }
dev=tests/data/gted/proofnet.jsonl
for m in transted ted ted:cost=semantic bleu identity; do
  name=${m//[:=]/_}
  t -q score "$dev" -m "$m" --out "$out/dev_$name.jsonl" --jobs 1 >/dev/null 2>&1 || true
done
t -q eval "$dev" -m transted,ted,bleu,identity --out "$out/eval" --jobs 1 >/dev/null 2>&1 || true
t -q eval "$dev" -m transted,ted --threshold-mode default --out "$out/eval_default" --jobs 1 >/dev/null 2>&1 || true
t -q sensitivity tests/data/statements/minif2f.jsonl -m transted -m ted -m bleu --per-kind 10 \
  --out "$out/sens" --pairs-out "$out/sens_pairs.jsonl" --jobs 1 >/dev/null 2>&1 || true
t fol perturb tests/data/fol/folio/folio-validation.jsonl -m fol-bleu,fol-le,fol-rougeL \
  --limit 40 --format json > "$out/fol_perturb.json" 2>/dev/null || true
# volatile report files (timestamps, run times) are left out of the comparison
find "$out" -name "*.lock" -o -name "*.html" -o -name '*.png' -o -name '*.pdf' -o -name '*.svg' | xargs -r rm -f
