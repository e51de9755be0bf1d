#!/usr/bin/env bash
# Byte-identity check for refactors: writes every offline output a refactor must not change
# (dev-pair and strict-pair scores per metric, eval summaries, the Lean sensitivity suite, FOL perturbation
# tables) into OUT. Run it on two checkouts and `diff -r` the folders.
#   usage: benchmarks/golden_outputs.sh OUT [PYTHON]
# Fails loudly: a command that exits non-zero or writes an empty output stops the script with
# its stderr shown, so two crashing runs can never compare identical.
set -euo pipefail
out=${1:?usage: golden_outputs.sh OUT [PYTHON]}
py=${2:-.venv/bin/python}
mkdir -p "$out"
log="$out/.stderr"
run() {  # run a transted command; its stderr goes to $log, shown when it fails
  if ! "$py" -m transted "$@" 2>"$log"; then
    echo "golden_outputs: failed (exit $?): transted $*" >&2; cat "$log" >&2; exit 1
  fi
}
nonempty() {  # every named output exists and is not empty
  local f
  for f in "$@"; do
    [ -s "$f" ] || { echo "golden_outputs: empty or missing output: $f" >&2; exit 1; }
  done
}
dev=tests/data/gted/proofnet.jsonl
for m in transted ted ted:cost=semantic bleu identity; do
  name=${m//[:=]/_}
  run -q score "$dev" -m "$m" --out "$out/dev_$name.jsonl" --jobs 1 >/dev/null
  nonempty "$out/dev_$name.jsonl"
done
for f in tests/data/strict/beq_human_dev.jsonl tests/data/strict/proofnet_verified_dev.jsonl; do
  for m in transted ted; do
    name=strict_$(basename "$f" .jsonl)_$m
    run -q score "$f" -m "$m" --out "$out/$name.jsonl" --jobs 1 >/dev/null
    nonempty "$out/$name.jsonl"
  done
done
run -q eval "$dev" -m transted,ted,bleu,identity --out "$out/eval" --jobs 1 >/dev/null
nonempty "$out/eval/summary.md" "$out/eval/pairs.csv"
run -q eval "$dev" -m transted,ted --threshold-mode default --out "$out/eval_default" --jobs 1 >/dev/null
nonempty "$out/eval_default/summary.md"
run -q sensitivity tests/data/statements/minif2f.jsonl -m transted -m ted -m bleu --per-kind 10 \
  --out "$out/sens" --pairs-out "$out/sens_pairs.jsonl" --jobs 1 >/dev/null
nonempty "$out/sens_pairs.jsonl"
run fol perturb tests/data/fol/folio/folio-validation.jsonl -m fol-bleu,fol-le,fol-rougeL \
  --limit 40 --format json > "$out/fol_perturb.json"
nonempty "$out/fol_perturb.json"
rm -f "$log"
# volatile report files (timestamps, run times) are left out of the comparison
find "$out" -name "*.lock" -o -name "*.html" -o -name '*.png' -o -name '*.pdf' -o -name '*.svg' | xargs -r rm -f
