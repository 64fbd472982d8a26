"""Field-level scoring of an extraction against a truth file, as the bench reports it.

Strings compare case- and space-insensitively; amounts, dates, ABNs and booleans exactly; line
items as a list: same count, same amounts (and quantity and unit where the truth shows them), and
descriptions at least 90% similar (OCR may drop a character of a long description).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

FIELDS = (
    "kind", "supplier_name", "supplier_abn", "abn_valid", "invoice_number", "issue_date", "currency",
    "total_amount", "gst_amount", "gst_registered_supplier", "line_items",
)  # fmt: skip


def _norm(value: object) -> object:
    if isinstance(value, str):
        return re.sub(r"\s+", " ", value).strip(" .").casefold()
    return value


def _items_match(truth: object, got: object) -> bool:
    if not truth:
        return not got
    if not isinstance(truth, list) or not isinstance(got, list) or len(truth) != len(got):
        return False
    for want, have in zip(truth, got, strict=True):
        if not isinstance(want, Mapping) or not isinstance(have, Mapping):
            return False
        if want.get("amount") != have.get("amount"):
            return False
        for key in ("quantity", "unit_amount"):
            if key in want and want[key] != have.get(key):
                return False
        want_text, have_text = str(_norm(str(want["description"]))), str(_norm(str(have.get("description", ""))))
        ratio = difflib.SequenceMatcher(None, want_text, have_text).ratio()
        if ratio < 0.9:
            return False
    return True


def score(truth: Mapping[str, object], got: Mapping[str, object]) -> dict[str, bool]:
    """Per field: does ``got`` (flat values of an extraction) match ``truth``?"""
    result: dict[str, bool] = {}
    for name in FIELDS:
        if name == "line_items":
            result[name] = _items_match(truth.get(name), got.get(name))
        else:
            result[name] = _norm(truth.get(name)) == _norm(got.get(name))
    return result
