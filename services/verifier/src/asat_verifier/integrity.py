"""Citation integrity: is a quote, normalised, an exact substring of its normalised source?

No model, no network, no similarity threshold. The matched range is reported in the ORIGINAL
source text (through the normalisation's position map) so a UI can highlight exactly that span.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from asat_corpus.contracts.verification import MIN_QUOTE_CHARS, MIN_QUOTE_WORDS, QuoteFailure
from asat_corpus.normalise import NormalisedText, normalise


@dataclass(frozen=True)
class QuoteCheck:
    """Outcome for one quote; ``start``/``end`` index the original source text when verified."""

    verified: bool
    reason: QuoteFailure | None
    message: str
    start: int | None = None
    end: int | None = None


def _failed(reason: QuoteFailure, message: str) -> QuoteCheck:
    return QuoteCheck(verified=False, reason=reason, message=message)


def length_problem(normalised_quote: str) -> str | None:
    """Why a normalised quote is too short to count as evidence, or None if it is long enough."""
    chars, words = len(normalised_quote), len(normalised_quote.split())
    if chars < MIN_QUOTE_CHARS or words < MIN_QUOTE_WORDS:
        return (
            f"quote is {chars} characters and {words} words after normalisation; at least "
            f"{MIN_QUOTE_CHARS} characters and {MIN_QUOTE_WORDS} words are needed: quote a longer span"
        )
    return None


def match_quote(quote_text: str, source: NormalisedText) -> QuoteCheck:
    """Length rule, then exact substring test of the normalised quote in the normalised source."""
    quote = normalise(quote_text)
    problem = length_problem(quote)
    if problem is not None:
        return _failed(QuoteFailure.TOO_SHORT, problem)
    found = source.text.find(quote)
    if found < 0:
        return _failed(
            QuoteFailure.NOT_A_SUBSTRING,
            "quote is not in the source, even after normalisation (NFKC, hyphens, whitespace): "
            "copy it from the source text exactly",
        )
    start, end = source.original_range(found, found + len(quote))
    return QuoteCheck(
        verified=True,
        reason=None,
        message=f"quote found at characters [{start}, {end}) of the source",
        start=start,
        end=end,
    )


def check_quote(
    quote_text: str,
    source_id: str,
    source: Callable[[str], NormalisedText | None],
    retrieved: Collection[str],
    cited: Collection[str],
) -> QuoteCheck:
    """Check one quote: its source must be given, retrieved and cited by the claim, then match.

    ``source(id)`` returns the normalised source text, or None when no source has that id.
    """
    normalised_source = source(source_id)
    if normalised_source is None:
        return _failed(
            QuoteFailure.UNKNOWN_SOURCE,
            f"no source with id {source_id!r} was sent: include it in 'sources'",
        )
    if source_id not in retrieved:
        return _failed(
            QuoteFailure.SOURCE_NOT_RETRIEVED,
            f"source {source_id!r} is not in the retrieved set: quote only retrieved sources",
        )
    if source_id not in cited:
        return _failed(
            QuoteFailure.SOURCE_NOT_CITED,
            f"source {source_id!r} is not among the claim's source_ids: cite it or drop the quote",
        )
    return match_quote(quote_text, normalised_source)
