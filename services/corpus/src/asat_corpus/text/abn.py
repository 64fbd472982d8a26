"""Australian Business Numbers: the modulus-89 checksum and digit normalisation (pure).

One rule for every service: extraction checks a supplier's ABN with it, accounts a client's.
An ABN is 11 digits. Subtract 1 from the first digit, weight the digits 10, 1, 3, 5, ..., 19,
and the weighted sum must be divisible by 89 (ATO, "Format of the ABN").
"""

from __future__ import annotations

import re

WEIGHTS = (10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
_NON_DIGIT = re.compile(r"\D")


def abn_digits(text: str) -> str | None:
    """The 11 digits of ``text`` (spaces and punctuation dropped), or None when there are not 11."""
    digits = _NON_DIGIT.sub("", text)
    return digits if len(digits) == 11 else None


def abn_is_valid(abn: str) -> bool:
    """True when ``abn`` is 11 digits, does not start with 0, and passes the modulus-89 check."""
    if len(abn) != 11 or not abn.isdigit() or abn[0] == "0":
        return False
    values = [int(c) for c in abn]
    values[0] -= 1
    return sum(w * v for w, v in zip(WEIGHTS, values, strict=True)) % 89 == 0


def complete_abn(last_nine: str) -> str:
    """The valid ABN ending in ``last_nine`` (9 digits): the two leading digits are solved for.

    Leading pairs 10..99 cover every residue mod 89, so exactly one smallest pair works.
    """
    if len(last_nine) != 9 or not last_nine.isdigit():
        raise ValueError(f"complete_abn needs 9 digits, got {last_nine!r}")
    for lead in range(10, 100):
        candidate = f"{lead}{last_nine}"
        if abn_is_valid(candidate):
            return candidate
    raise AssertionError("unreachable: every residue mod 89 has a leading pair")  # pragma: no cover


def format_abn(abn: str) -> str:
    """``51824753556`` as printed on invoices: ``51 824 753 556``."""
    return f"{abn[0:2]} {abn[2:5]} {abn[5:8]} {abn[8:11]}"
