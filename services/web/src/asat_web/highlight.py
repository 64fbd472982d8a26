"""Slicing a verified quote out of its source text at its exact character range (pure)."""

from __future__ import annotations

from dataclasses import dataclass


class QuoteMismatch(ValueError):
    """The text at the cited range is not the verified quote: nothing is highlighted."""


@dataclass(frozen=True)
class Highlight:
    before: str
    quote: str
    after: str


def highlight(text: str, start: int, end: int, quote: str) -> Highlight:
    """Split ``text`` around ``[start, end)``, which must hold exactly ``quote``."""
    if not 0 <= start <= end <= len(text):
        raise QuoteMismatch(
            f"the cited range [{start}, {end}) lies outside the source text (length {len(text)}): "
            "the citation does not belong to this version"
        )
    found = text[start:end]
    if found != quote:
        raise QuoteMismatch(
            f"the text at [{start}, {end}) is {found[:60]!r}, not the verified quote {quote[:60]!r}: "
            "the citation does not match this version, so it is not shown"
        )
    return Highlight(text[:start], found, text[end:])
