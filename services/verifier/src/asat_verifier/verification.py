"""Verify a request: every quote's integrity, then every claim's groundedness by its verified quotes.

The edge between the wire contracts and the pure checks: it reads the request, calls
``integrity`` and the groundedness scorer, and builds the reply. No I/O of its own.
"""

from __future__ import annotations

from functools import lru_cache

from asat_corpus.contracts.claims import Claim
from asat_corpus.contracts.sources import SourceRef
from asat_corpus.contracts.verification import (
    ClaimFailure,
    ClaimReason,
    ClaimVerdict,
    GroundednessFinding,
    QuoteVerdict,
    VerificationRequest,
    VerificationResponse,
)
from asat_corpus.normalise import NormalisedText, normalise_text
from asat_verifier.groundedness.port import Evidence, GroundednessScorer
from asat_verifier.integrity import check_quote

# The sources are the corpus's texts, sent again with every question that retrieves them: each is
# normalised once (normalise_text is pure, its result immutable; a few hundred kept, each a few
# tens of KB with its character map).
_normalised = lru_cache(maxsize=512)(normalise_text)


class _Sources:
    """The request's sources, each normalised once, on first use."""

    def __init__(self, sources: list[SourceRef]) -> None:
        self._by_id = {source.id: source for source in sources}
        self._normalised: dict[str, NormalisedText] = {}

    def get(self, source_id: str) -> SourceRef | None:
        return self._by_id.get(source_id)

    def normalised(self, source_id: str) -> NormalisedText | None:
        source = self._by_id.get(source_id)
        if source is None:
            return None
        if source_id not in self._normalised:
            self._normalised[source_id] = _normalised(source.text)
        return self._normalised[source_id]


def _verify_claim(
    claim: Claim, sources: _Sources, retrieved: frozenset[str], scorer: GroundednessScorer
) -> ClaimVerdict:
    cited = frozenset(claim.source_ids)
    quote_verdicts: list[QuoteVerdict] = []
    evidence: list[Evidence] = []
    for quote in claim.quotes:
        check = check_quote(quote.text, quote.source_id, sources.normalised, retrieved, cited)
        quote_verdicts.append(
            QuoteVerdict(
                source_id=quote.source_id,
                text=quote.text,
                verified=check.verified,
                reason=check.reason,
                message=check.message,
                start=check.start,
                end=check.end,
            )
        )
        source = sources.get(quote.source_id)
        if check.verified and source is not None:
            evidence.append(Evidence(quote.text, source.id, source.act, source.provision))

    reasons: list[ClaimReason] = []
    if not claim.quotes:
        reasons.append(ClaimReason(code=ClaimFailure.NO_QUOTES, message="the claim has no quote"))
    failed = sum(1 for verdict in quote_verdicts if not verdict.verified)
    if failed:
        reasons.append(
            ClaimReason(
                code=ClaimFailure.QUOTE_NOT_VERIFIED,
                message=f"{failed} of {len(quote_verdicts)} quotes did not verify",
            )
        )
    for source_id in claim.source_ids:
        if sources.get(source_id) is None:
            reasons.append(
                ClaimReason(
                    code=ClaimFailure.UNKNOWN_CITED_SOURCE,
                    message=f"the claim cites {source_id!r} but no source with that id was sent",
                )
            )
        elif source_id not in retrieved:
            reasons.append(
                ClaimReason(
                    code=ClaimFailure.CITED_SOURCE_NOT_RETRIEVED,
                    message=f"the claim cites {source_id!r}, which is not in the retrieved set",
                )
            )

    result = scorer.score(claim.text, evidence)
    if not result.grounded:
        failing = [f.message for f in result.findings if not f.passed]
        reasons.append(
            ClaimReason(
                code=ClaimFailure.NOT_GROUNDED,
                message=f"{scorer.name} groundedness {result.score:.2f}: " + "; ".join(failing),
            )
        )
    return ClaimVerdict(
        id=claim.id,
        verified=not reasons,
        grounded=result.grounded,
        groundedness_score=min(1.0, max(0.0, result.score)),
        reasons=reasons,
        findings=[GroundednessFinding(check=f.check, passed=f.passed, message=f.message) for f in result.findings],
        quotes=quote_verdicts,
    )


def verify(request: VerificationRequest, scorer: GroundednessScorer) -> VerificationResponse:
    """Verify every claim of ``request``; groundedness is judged on the verified quotes only."""
    sources = _Sources(request.sources)
    retrieved = frozenset(request.retrieved_source_ids)
    verdicts = [_verify_claim(claim, sources, retrieved, scorer) for claim in request.claims]
    return VerificationResponse(scorer=scorer.name, claims=verdicts, verified=all(v.verified for v in verdicts))
