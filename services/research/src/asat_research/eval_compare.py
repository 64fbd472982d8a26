"""``python -m asat_research.eval_compare A.json B.json``: two eval runs case by case.

Lists the cases fixed (not accurate in A, accurate in B), broken (accurate in A, not in B) and
otherwise changed, grouped by tag, with each side's verdict, decision and cited sources, and the
metric deltas. ``--json`` prints the comparison as JSON; ``--all`` also lists unchanged cases.
Exit status 0, or 2 when a file cannot be read as an eval report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from asat_research.evaluation.comparison import ReportFormatError, compare, comparison_json, comparison_text


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportFormatError(f"cannot read {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ReportFormatError(f"{path} is not JSON ({exc}); pass files written by eval_cli --out") from exc


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m asat_research.eval_compare", description=__doc__.split("\n")[0])
    p.add_argument("a", type=Path, help="the earlier run (eval_cli --out)")
    p.add_argument("b", type=Path, help="the later run")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--all", action="store_true", help="also list unchanged cases")
    args = p.parse_args(argv)
    try:
        a, b = _read(args.a), _read(args.b)
        if not isinstance(a, dict) or not isinstance(b, dict):
            raise ReportFormatError("an eval report is a JSON object with `metrics` and `cases`")
        comparison = compare(a, b, (str(args.a), str(args.b)))
    except ReportFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(comparison_json(comparison), indent=2, ensure_ascii=False))
    else:
        print(f"A = {args.a}\nB = {args.b}\n")
        print(comparison_text(comparison, show_unchanged=args.all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
