"""The Generator contract: one suite that every generator adapter runs.

An adapter's test class subclasses :class:`GeneratorContract` (any generator) or
:class:`ModelGeneratorContract` (a generator that asks a model over a transport) and provides a
``generator`` fixture. Where the adapter asks a model, :meth:`GeneratorContract.model_answers`
scripts what a conforming model answers to the next pass (the JSON the pass's schema allows); the
test class wraps it in its API's wire format and checks that the request carried the JSON schema
whose span-key ``enum`` is exactly the keys shown::

    class TestMyGenerator(ModelGeneratorContract):
        @pytest.fixture
        def generator(self, stub: StubServer) -> Generator: ...
        def model_answers(self, pass_: str, keys: Sequence[str], payload: Mapping[str, Any]) -> None: ...
        def model_says_prose(self, pass_: str, keys: Sequence[str]) -> None: ...
        def model_fails(self, pass_: str, keys: Sequence[str]) -> None: ...
        def unreachable(self) -> Generator: ...

What every generator does (:class:`GeneratorContract`):

- it has a ``name``;
- ``select`` returns only keys it was shown, each once, and names the provider and model;
- ``write`` returns claims that each cite at least one of the spans it was given, and no other
  span; the claims carry text; the generation names provider and model, and the seed where one
  was sent;
- no spans: nothing selected, nothing claimed (and no request sent);
- when it does not answer (the question asks it to confirm a statement, the spans do not say),
  it returns no claims rather than inventing one; a ``declined`` generation carries no claims;
- a rejected premise comes with a claim citing what the law says;
- same input, same output.

What a generator that asks a model does as well (:class:`ModelGeneratorContract`): a reply
outside the schema (a key not offered, a claim citing no span, quote text, prose) is refused
whole with a :class:`GenerationError`, never repaired or partly kept; a provider error or an
unreachable provider is a :class:`GenerationError` naming the setting to check; span keys that
repeat within one request are refused before anything is sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from asat_research.generation.port import Generation, GenerationError, Generator, NumberedSpan, Selection
from services.research.tests.generation.spans import LABEL, OFFERED, QUESTION, S1, S3, SELECTED

SELECT = "select"
WRITE = "write"

CONFIRM_QUESTION = "Work-related car expenses are deductible if paid in the year, aren't they?"
PRIVATE = NumberedSpan(
    "S1",
    "itaa1997-s8-1@C2015C00285#s3",
    "itaa1997-s8-1@C2015C00285",
    LABEL,
    "(2) However, you cannot deduct a loss or outgoing under this section to the extent that it is "
    "a loss or outgoing of a private or domestic nature.",
)
FALSE_PREMISE = (
    "Since the small business turnover threshold was $10 million in 2014-15, my client with $6 million "
    "qualifies, right?"
)
ANSWER = {
    "claims": [
        {
            "text": "An entity carrying on a business was a small business entity if its aggregated turnover "
            "for the previous income year was less than $2 million.",
            "span_keys": ["S1", "S3"],
        }
    ],
    "premise_rejected": False,
}
NO_CLAIMS: dict[str, Any] = {"claims": [], "premise_rejected": False}


def keys_of(spans: Sequence[NumberedSpan]) -> list[str]:
    return [span.key for span in spans]


def assert_well_formed_selection(selection: Selection, shown: Sequence[NumberedSpan]) -> None:
    assert isinstance(selection, Selection)
    assert set(selection.keys) <= set(keys_of(shown)), f"selected keys not shown: {selection.keys}"
    assert len(set(selection.keys)) == len(selection.keys), f"a key selected twice: {selection.keys}"
    assert isinstance(selection.provider, str) and selection.provider.strip()
    assert isinstance(selection.model, str) and selection.model.strip()


def assert_well_formed_generation(generation: Generation, given: Sequence[NumberedSpan]) -> None:
    """Every claim cites at least one span it was given, and no other; the record is complete."""
    assert isinstance(generation, Generation)
    allowed = set(keys_of(given))
    for claim in generation.claims:
        assert isinstance(claim.text, str) and claim.text.strip(), f"a claim without text: {claim}"
        assert claim.span_keys, f"a claim citing no span: {claim}"
        assert set(claim.span_keys) <= allowed, f"{claim.span_keys} cites a span not given ({sorted(allowed)})"
        assert len(set(claim.span_keys)) == len(claim.span_keys), f"a key cited twice: {claim.span_keys}"
    assert isinstance(generation.premise_rejected, bool)
    assert isinstance(generation.provider, str) and generation.provider.strip()
    assert isinstance(generation.model, str) and generation.model.strip()
    assert generation.seed is None or isinstance(generation.seed, int)
    assert isinstance(generation.note, str)
    if generation.declined is not None:
        assert generation.declined.strip(), "a declined generation says why"
        assert generation.claims == (), "a declined generation carries no claims"


class GeneratorContract:
    """Behaviour every Generator adapter must show. Subclasses provide a ``generator`` fixture."""

    def model_answers(self, pass_: str, keys: Sequence[str], payload: Mapping[str, Any]) -> None:
        """Script the model's reply to the next ``pass_`` (``select`` or ``write``) over ``keys``.

        ``payload`` is the JSON the pass's schema allows. A generator that asks no model ignores it.
        """

    # --- the port's shape -----------------------------------------------------------------

    def test_has_a_name(self, generator: Generator) -> None:
        assert isinstance(generator.name, str) and generator.name.strip()

    def test_select_returns_only_keys_it_was_shown_each_once(self, generator: Generator) -> None:
        self.model_answers(SELECT, keys_of(OFFERED), {"span_keys": ["S3", "S1"]})
        selection = generator.select(QUESTION, OFFERED)
        assert_well_formed_selection(selection, OFFERED)
        assert selection.keys, "spans that answer the question are selected"

    def test_write_cites_only_the_spans_it_was_given(self, generator: Generator) -> None:
        self.model_answers(WRITE, keys_of(SELECTED), ANSWER)
        generation = generator.write(QUESTION, SELECTED)
        assert_well_formed_generation(generation, SELECTED)
        assert generation.claims, "spans that answer the question are claimed from"
        assert not generation.premise_rejected and generation.declined is None

    def test_write_over_one_span_cites_that_span(self, generator: Generator) -> None:
        self.model_answers(
            WRITE,
            ["S3"],
            {"claims": [{"text": "Less than $2 million.", "span_keys": ["S3"]}], "premise_rejected": False},
        )
        generation = generator.write(QUESTION, [S3])
        assert_well_formed_generation(generation, [S3])
        assert {key for claim in generation.claims for key in claim.span_keys} == {"S3"}

    # --- nothing to work from, nothing to say ------------------------------------------------

    def test_no_spans_selects_nothing_and_claims_nothing(self, generator: Generator) -> None:
        selection = generator.select(QUESTION, [])
        assert_well_formed_selection(selection, [])
        assert selection.keys == ()
        generation = generator.write(QUESTION, [])
        assert_well_formed_generation(generation, [])
        assert generation.claims == () and not generation.premise_rejected

    def test_declines_with_no_claims_rather_than_inventing_one(self, generator: Generator) -> None:
        self.model_answers(WRITE, ["S1"], NO_CLAIMS)
        generation = generator.write(CONFIRM_QUESTION, [PRIVATE])
        assert_well_formed_generation(generation, [PRIVATE])
        assert generation.claims == ()
        assert not generation.premise_rejected

    def test_a_rejected_premise_comes_with_a_claim_citing_the_law(self, generator: Generator) -> None:
        rejected = {
            "claims": [{"text": "The threshold was $2 million.", "span_keys": ["S3"]}],
            "premise_rejected": True,
        }
        self.model_answers(WRITE, keys_of([S1, S3]), rejected)
        generation = generator.write(FALSE_PREMISE, [S1, S3])
        assert_well_formed_generation(generation, [S1, S3])
        assert generation.premise_rejected
        assert generation.claims and "S3" in {key for claim in generation.claims for key in claim.span_keys}

    # --- reproducible ------------------------------------------------------------------------

    def test_same_input_same_output(self, generator: Generator) -> None:
        self.model_answers(SELECT, keys_of(OFFERED), {"span_keys": ["S3", "S1"]})
        self.model_answers(SELECT, keys_of(OFFERED), {"span_keys": ["S3", "S1"]})
        assert generator.select(QUESTION, OFFERED) == generator.select(QUESTION, OFFERED)
        self.model_answers(WRITE, keys_of(SELECTED), ANSWER)
        self.model_answers(WRITE, keys_of(SELECTED), ANSWER)
        first, second = generator.write(QUESTION, SELECTED), generator.write(QUESTION, SELECTED)
        assert first == second


class ModelGeneratorContract(GeneratorContract):
    """Behaviour every Generator that asks a model must show, on top of :class:`GeneratorContract`."""

    def model_answers(self, pass_: str, keys: Sequence[str], payload: Mapping[str, Any]) -> None:
        raise NotImplementedError("a model generator's test class scripts the model's reply")

    def model_says_prose(self, pass_: str, keys: Sequence[str]) -> None:
        """Script a reply in prose instead of the schema (or the forced tool call)."""
        raise NotImplementedError

    def model_fails(self, pass_: str, keys: Sequence[str]) -> None:
        """Script an HTTP 500 from the provider for the next ``pass_``."""
        raise NotImplementedError

    def unreachable(self) -> Generator:
        """The adapter pointed at an address where nothing listens."""
        raise NotImplementedError

    # --- a reply outside the schema is refused whole ------------------------------------------

    def test_a_selection_of_a_key_not_offered_is_refused(self, generator: Generator) -> None:
        self.model_answers(SELECT, keys_of(OFFERED), {"span_keys": ["S1", "S9"]})
        with pytest.raises(GenerationError, match="S9"):
            generator.select(QUESTION, OFFERED)

    def test_a_claim_citing_a_key_not_offered_refuses_the_whole_reply(self, generator: Generator) -> None:
        payload = {
            "claims": [
                {"text": "Turnover under $2 million.", "span_keys": ["S3"]},
                {"text": "Winding up counts as carrying on a business.", "span_keys": ["S2"]},
            ],
            "premise_rejected": False,
        }
        self.model_answers(WRITE, keys_of(SELECTED), payload)
        with pytest.raises(GenerationError, match="S2"):
            generator.write(QUESTION, SELECTED)

    def test_a_claim_citing_no_span_is_refused(self, generator: Generator) -> None:
        payload = {"claims": [{"text": "Turnover under $2 million.", "span_keys": []}], "premise_rejected": False}
        self.model_answers(WRITE, keys_of(SELECTED), payload)
        with pytest.raises(GenerationError, match="cite at least one span"):
            generator.write(QUESTION, SELECTED)

    def test_a_reply_carrying_quote_text_is_refused(self, generator: Generator) -> None:
        payload = {
            "claims": [{"text": "Under $2 million.", "span_keys": ["S3"], "quote": "less than $2 million"}],
            "premise_rejected": False,
        }
        self.model_answers(WRITE, keys_of(SELECTED), payload)
        with pytest.raises(GenerationError, match="quote"):
            generator.write(QUESTION, SELECTED)

    def test_prose_instead_of_the_schema_is_refused(self, generator: Generator) -> None:
        self.model_says_prose(WRITE, keys_of(SELECTED))
        with pytest.raises(GenerationError):
            generator.write(QUESTION, SELECTED)

    # --- transport failures ------------------------------------------------------------------

    def test_a_provider_error_is_a_generation_error(self, generator: Generator) -> None:
        self.model_fails(WRITE, keys_of(SELECTED))
        with pytest.raises(GenerationError, match="500"):
            generator.write(QUESTION, SELECTED)

    def test_an_unreachable_provider_is_a_generation_error_naming_the_setting(self) -> None:
        generator = self.unreachable()
        with pytest.raises(GenerationError, match="ASAT_GENERATION_BASE_URL"):
            generator.select(QUESTION, OFFERED)
        with pytest.raises(GenerationError, match="ASAT_GENERATION_BASE_URL"):
            generator.write(QUESTION, SELECTED)

    def test_repeated_keys_in_one_request_are_refused_before_sending(self, generator: Generator) -> None:
        repeated = [S1, NumberedSpan("S1", S3.span_id, S3.source_id, S3.label, S3.text)]
        with pytest.raises(GenerationError, match="unique"):
            generator.select(QUESTION, repeated)
        with pytest.raises(GenerationError, match="unique"):
            generator.write(QUESTION, repeated)
