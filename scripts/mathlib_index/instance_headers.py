"""Write the index's companion file of instance headers (``mathlib_instance_headers.json.gz``).

    python -m scripts.mathlib_index.instance_headers [--index transted/pipeline/opt/data/mathlib_index.sqlite]

Instance resolution (the lemma provider's instance oracle) reads the header of every instance
declaration of a class and of each class that gives it: hundreds per query, scattered over the
index's blocks, each read inflating a block. The companion holds those headers for every
instance declaration, as the index stores them, in one small file read at once; it names the
index's ``content_sha256`` and is used only beside that index (otherwise the index's own records
are read, with the same answers). The index's build writes it too; run this after any other
change to the index.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from pathlib import Path

from transted.pipeline.opt.mathlib.index import (
    INSTANCE_HEADERS_FILE,
    INSTANCE_HEADERS_FORMAT,
    MathlibIndex,
    index_path,
)

__all__ = ["write_instance_headers"]


def write_instance_headers(index: Path) -> Path:
    """Write the companion of the index at ``index`` beside it; returns its path."""
    source = MathlibIndex(index)
    headers: dict[str, str] = {}
    for name in source.instance_declarations():
        record = source.instance_header_record(name)
        if record is not None:
            headers[name] = json.dumps(record, ensure_ascii=False, separators=(",", ":"),
                                       sort_keys=True)
    stored = {"format": INSTANCE_HEADERS_FORMAT,
              "index_content_sha256": source.version.content_sha256, "headers": headers}
    out = index.parent / INSTANCE_HEADERS_FILE
    text = json.dumps(stored, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    tmp = out.with_name(out.name + ".tmp")  # moved over the old one: never half written
    tmp.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))  # reproducible bytes
    os.replace(tmp, out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, default=index_path())
    args = parser.parse_args(argv)
    out = write_instance_headers(args.index)
    print(f"{out}: {out.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
