"""Generate the synthetic extraction set: ``python scripts/make_extraction_set.py --seed 7 --out var/extraction-set``.

Writes each document (PDF, PNG, JPEG, image-only PDF, .eml, .txt) with ``<stem>.truth.json`` beside it.
The set is generated, never committed (``var/`` is git-ignored). Needs ``asat-extraction[synthetic]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asat_extraction.synthetic.generate import write_set


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("var/extraction-set"))
    parser.add_argument("--count", type=int, default=160, help="documents to write (at least 150 for the bench)")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    written = write_set(args.out, args.seed, args.count)
    print(f"wrote {len(written)} documents with truth files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
