"""A HubSpot company as a practice's client (pure).

- ``abn_property``: which company property holds the ABN: a custom property (not HubSpot-defined)
  whose internal name or label says ABN or "Australian Business Number"; None when there is none.
- ``read_abn``: a property value as an ABN: its 11 digits when they pass the ATO's modulus-89
  checksum (``asat_corpus.text.abn``), else no ABN and the reason (the company is still imported).
- ``client_key``: what makes two names the same client (case and spacing ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from asat_corpus.text.abn import abn_digits, abn_is_valid, format_abn

_ABN_NAME = re.compile(r"(^|[^a-z0-9])abn([^a-z0-9]|$)|australian[\s_-]*business[\s_-]*number", re.IGNORECASE)
_ABN_CHARS = re.compile(r"^[0-9\s.\-]+$")


@dataclass(frozen=True)
class AbnReading:
    abn: str | None  # 11 digits, checksum valid
    problem: str | None  # why a value given was not taken


def abn_property(properties: Iterable[Mapping[str, Any]]) -> str | None:
    """The internal name of the company property holding an ABN, or None.

    HubSpot-defined properties are never taken (none holds an ABN); of the custom ones, a name
    match is preferred to a label match, then the shortest name (``abn`` before ``abn_notes``).
    """
    ranked: list[tuple[int, int, str]] = []
    for prop in properties:
        name = str(prop.get("name") or "")
        label = str(prop.get("label") or "")
        if not name or prop.get("hubspotDefined") is True:
            continue
        if _ABN_NAME.search(name.replace("_", " ")):
            ranked.append((0, len(name), name))
        elif _ABN_NAME.search(label):
            ranked.append((1, len(name), name))
    return min(ranked)[2] if ranked else None


def read_abn(value: object) -> AbnReading:
    """An ABN property's value, taken only when it is 11 digits passing the checksum."""
    if value is None or not str(value).strip():
        return AbnReading(None, None)
    text = str(value).strip()
    digits = abn_digits(text)
    if digits is None or not _ABN_CHARS.match(text):
        return AbnReading(None, f"{text[:40]!r} is not an ABN (11 digits)")
    if not abn_is_valid(digits):
        return AbnReading(None, f"ABN {format_abn(digits)} fails the ABN checksum")
    return AbnReading(digits, None)


def client_key(name: str) -> str:
    """``name`` compared as a client's: whitespace runs as one space, case folded."""
    return " ".join(name.split()).casefold()
