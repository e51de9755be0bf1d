"""Convert a name table of the earlier gzipped-JSON form (``mathlib_names.json.gz``) to the SQLite file.

Usage (from the repository root)::

    git show 9640835:transted/pipeline/opt/data/mathlib_names.json.gz > /tmp/names.json.gz
    python -m scripts.name_table.convert /tmp/names.json.gz \\
        [--out transted/pipeline/opt/data/mathlib_names.sqlite]

The content is carried over unchanged: its ``content_sha256`` is checked before writing and
read back from the written file, so the table's version (and every score signature) stays the
same. A fresh table from the Mathlib sources comes from ``scripts.name_table.build`` instead.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

from scripts.name_table.build import DEFAULT_OUT, write
from transted.pipeline.opt.name_store import body_digest


def read_json_table(path: Path) -> dict:
    """The table in ``path``, after checking its content against its header's hash."""
    table = json.loads(gzip.decompress(path.read_bytes()))
    digest = body_digest({k: v for k, v in table.items() if k != "header"})
    if digest != table["header"]["content_sha256"]:
        raise ValueError(f"{path}: content hashes to {digest}, its header says "
                         f"{table['header']['content_sha256']}")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", type=Path, help="the mathlib_names.json.gz to convert")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    write(read_json_table(args.table), args.out)
    print(f"{args.out}: {args.out.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
