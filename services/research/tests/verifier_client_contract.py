"""The VerifierClient contract: one suite that every verifier client runs.

An adapter's test class subclasses :class:`VerifierClientContract` and provides a ``verifier``
fixture (a client of a working verifier) and :meth:`~VerifierClientContract.unreachable` and
:meth:`~VerifierClientContract.answering` (a client whose verifier is down, or answers with the
given status and body)::

    class TestMyVerifierClient(VerifierClientContract):
        @pytest.fixture
        def verifier(self) -> VerifierClient: ...
        def unreachable(self) -> VerifierClient: ...
        def answering(self, status: int, body: str) -> VerifierClient: ...

What every client does: it hands back the verifier's :class:`VerificationResponse`, one verdict per
claim in the order asked; a quote taken verbatim from a retrieved, cited source verifies, with its
range in the original text; one that is not in the source, or whose source was not retrieved,
does not, with the reason; a verifier that cannot be reached, fails, or answers outside the
contract is a :class:`VerifierUnavailable` (never a response, never a claim let through).
"""

from __future__ import annotations

import pytest

from asat_corpus.contracts.claims import Claim, Quote
from asat_corpus.contracts.sources import SourceRef
from asat_corpus.contracts.verification import (
    ClaimFailure,
    QuoteFailure,
    VerificationRequest,
    VerificationResponse,
)
from asat_research.verifier_client import VerifierClient, VerifierUnavailable

SOURCE = SourceRef(
    id="itaa1997-s328-110@C2015C00285",
    text=(
        "(1) You are a small business entity for an income year (the current year) if:\n"
        "(a) you carry on a business in the current year; and\n"
        "(b) your aggregated turnover for the previous income year was less than $2 million."
    ),
    act="itaa1997",
    provision="328-110",
    register_id="C2015C00285",
)
OTHER = SourceRef(id="itaa1997-s8-1@C2015C00285", text="(1) You can deduct from your assessable income any loss.")
VERBATIM = "your aggregated turnover for the previous income year was less than $2 million"


def claim(claim_id: str, text: str, quote: str, source: SourceRef = SOURCE) -> Claim:
    return Claim(id=claim_id, text=text, source_ids=[source.id], quotes=[Quote(source_id=source.id, text=quote)])


def request(*claims: Claim, retrieved: tuple[SourceRef, ...] = (SOURCE,)) -> VerificationRequest:
    return VerificationRequest(
        claims=list(claims), sources=[SOURCE, OTHER], retrieved_source_ids=[s.id for s in retrieved]
    )


class VerifierClientContract:
    """Behaviour every VerifierClient adapter must show. Subclasses provide a ``verifier`` fixture."""

    def unreachable(self) -> VerifierClient:
        raise NotImplementedError

    def answering(self, status: int, body: str) -> VerifierClient:
        raise NotImplementedError

    def test_one_verdict_per_claim_in_the_order_asked(self, verifier: VerifierClient) -> None:
        asked = request(
            claim("c2", "Turnover under $2 million.", VERBATIM),
            claim("c1", "Carrying on a business.", "you carry on a business in the current year"),
        )
        response = verifier.verify(asked)
        assert isinstance(response, VerificationResponse)
        assert [verdict.id for verdict in response.claims] == ["c2", "c1"]
        assert response.scorer

    def test_a_verbatim_quote_verifies_with_its_range_in_the_original_text(self, verifier: VerifierClient) -> None:
        response = verifier.verify(request(claim("c1", "Turnover under $2 million.", VERBATIM)))
        (verdict,) = response.claims
        (quote,) = verdict.quotes
        assert quote.verified and quote.reason is None
        assert quote.start is not None and quote.end is not None
        assert SOURCE.text[quote.start : quote.end] == VERBATIM
        assert verdict.verified and response.verified

    def test_a_quote_not_in_the_source_does_not_verify(self, verifier: VerifierClient) -> None:
        paraphrase = "your aggregated turnover for the previous income year was under two million dollars"
        response = verifier.verify(request(claim("c1", "Turnover under $2 million.", paraphrase)))
        (verdict,) = response.claims
        assert not verdict.verified and not response.verified
        assert verdict.quotes[0].reason is QuoteFailure.NOT_A_SUBSTRING
        assert ClaimFailure.QUOTE_NOT_VERIFIED in {reason.code for reason in verdict.reasons}

    def test_a_quote_from_a_source_not_retrieved_does_not_verify(self, verifier: VerifierClient) -> None:
        asked = request(claim("c1", "Deduct a loss.", "You can deduct from your assessable income any loss", OTHER))
        (verdict,) = verifier.verify(asked).claims
        assert not verdict.verified
        assert verdict.quotes[0].reason is QuoteFailure.SOURCE_NOT_RETRIEVED

    def test_no_claims_no_verdicts(self, verifier: VerifierClient) -> None:
        assert verifier.verify(request()).claims == []

    def test_same_request_same_response(self, verifier: VerifierClient) -> None:
        asked = request(claim("c1", "Turnover under $2 million.", VERBATIM))
        assert verifier.verify(asked) == verifier.verify(asked)

    def test_a_verifier_that_cannot_be_reached_is_unavailable(self) -> None:
        with pytest.raises(VerifierUnavailable):
            self.unreachable().verify(request(claim("c1", "Turnover under $2 million.", VERBATIM)))

    @pytest.mark.parametrize(
        ("status", "body"),
        [
            pytest.param(503, '{"error": "starting", "message": "not ready"}', id="503"),
            pytest.param(500, "Internal Server Error", id="500"),
            pytest.param(413, '{"error": "request_too_large", "message": "too many claims"}', id="413"),
            pytest.param(200, '{"scorer": "deterministic", "claims": "all fine"}', id="malformed"),
            pytest.param(200, "<html>proxy</html>", id="not-json"),
        ],
    )
    def test_a_failing_or_unusable_reply_is_unavailable_never_a_response(self, status: int, body: str) -> None:
        with pytest.raises(VerifierUnavailable):
            self.answering(status, body).verify(request(claim("c1", "Turnover under $2 million.", VERBATIM)))
