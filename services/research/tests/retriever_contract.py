"""The Retriever contract: one suite that every retriever runs.

An adapter's test class subclasses :class:`RetrieverContract`, provides a ``retriever`` fixture
over an index of the A New Tax System (Australian Business Number) Act 1999 (``abn1999``, whose
text is held for income year 2015), and :meth:`~RetrieverContract.unreachable` and
:meth:`~RetrieverContract.answering` (a retriever whose index service is down, or answers with the
given status and body)::

    class TestMyRetriever(RetrieverContract):
        @pytest.fixture
        def retriever(self) -> Retriever: ...
        def unreachable(self) -> Retriever: ...
        def answering(self, status: int, body: str) -> Retriever: ...

What every retriever does: at most ``limit`` hits, best first, each with ids, finite scores and
its payload; every hit is in the income year asked on the time axis asked (``in_force``:
``income_years`` or ``then_stood_years`` holds the year; ``on_the_books``: ``known_years``), so a
year the index holds nothing for returns nothing; the acts filter holds; the same search gives the
same hits; each result names the corpus generation and the embedder, and the generation is the
index's; an index service that is down, not ready, failing or answering outside its contract is a
:class:`RetrievalUnavailable`, never a result.
"""

from __future__ import annotations

import math

import pytest

from asat_research.retrieval import RetrievalUnavailable, Retriever, SearchResult

QUESTION = "Who is entitled to an ABN?"
HELD_YEAR = 2015
EMPTY_YEAR = 1950
AXES = {"in_force": ("income_years", "then_stood_years"), "on_the_books": ("known_years",)}


def years_on(payload: dict[str, object], axis: str) -> set[int]:
    found: set[int] = set()
    for key in AXES[axis]:
        value = payload.get(key) or []
        assert isinstance(value, list), f"{key} is a list of years, got {value!r}"
        found.update(int(year) for year in value)
    return found


class RetrieverContract:
    """Behaviour every Retriever adapter must show. Subclasses provide a ``retriever`` fixture."""

    def unreachable(self) -> Retriever:
        raise NotImplementedError

    def answering(self, status: int, body: str) -> Retriever:
        raise NotImplementedError

    def test_hits_are_well_formed_best_first_and_within_the_limit(self, retriever: Retriever) -> None:
        result = retriever.search(QUESTION, HELD_YEAR, 5)
        assert isinstance(result, SearchResult)
        assert 0 < len(result.hits) <= 5
        for hit in result.hits:
            assert hit.chunk_id and hit.source_id
            assert math.isfinite(hit.score) and math.isfinite(hit.dense_score)
            assert isinstance(hit.payload, dict)
        scores = [hit.score for hit in result.hits]
        assert scores == sorted(scores, reverse=True)
        assert len(retriever.search(QUESTION, HELD_YEAR, 1).hits) == 1

    @pytest.mark.parametrize("axis", sorted(AXES))
    def test_every_hit_is_in_the_year_on_the_axis_asked(self, retriever: Retriever, axis: str) -> None:
        hits = retriever.search(QUESTION, HELD_YEAR, 50, axis=axis).hits
        assert hits
        for hit in hits:
            assert HELD_YEAR in years_on(hit.payload, axis), f"{hit.chunk_id} is not in {HELD_YEAR} on {axis}"

    @pytest.mark.parametrize("axis", sorted(AXES))
    def test_a_year_the_index_holds_nothing_for_returns_nothing(self, retriever: Retriever, axis: str) -> None:
        assert retriever.search(QUESTION, EMPTY_YEAR, 50, axis=axis).hits == ()

    def test_the_acts_filter_holds(self, retriever: Retriever) -> None:
        hits = retriever.search(QUESTION, HELD_YEAR, 20, acts=("abn1999",)).hits
        assert hits and {hit.payload.get("act") for hit in hits} == {"abn1999"}

    def test_same_search_same_hits(self, retriever: Retriever) -> None:
        assert retriever.search(QUESTION, HELD_YEAR, 10) == retriever.search(QUESTION, HELD_YEAR, 10)

    def test_a_result_names_the_index_generation_and_the_embedder(self, retriever: Retriever) -> None:
        result = retriever.search(QUESTION, HELD_YEAR, 3)
        assert result.corpus_generation and result.embedder
        assert retriever.index_generation() == result.corpus_generation

    def test_the_index_report_is_ready_with_the_generation_searched(self, retriever: Retriever) -> None:
        report = retriever.index_report()
        assert report.state == "ready" and report.corpus_generation == retriever.index_generation()

    def test_an_index_service_that_cannot_be_reached_is_unavailable(self) -> None:
        retriever = self.unreachable()
        with pytest.raises(RetrievalUnavailable):
            retriever.search(QUESTION, HELD_YEAR, 5)
        with pytest.raises(RetrievalUnavailable):
            retriever.index_generation()
        with pytest.raises(RetrievalUnavailable):
            retriever.index_report()

    @pytest.mark.parametrize(
        ("status", "body"),
        [
            pytest.param(503, '{"error": "index_not_ready", "message": "building"}', id="503"),
            pytest.param(500, '{"error": "temporal_violation", "message": "hit outside 2015"}', id="500"),
            pytest.param(400, '{"error": "invalid_request", "message": "unknown act(s) x"}', id="400"),
            pytest.param(200, '{"hits": [{"chunk_id": 1}]}', id="malformed"),
            pytest.param(200, "<html>proxy</html>", id="not-json"),
        ],
    )
    def test_a_failing_or_unusable_reply_is_unavailable_never_a_result(self, status: int, body: str) -> None:
        with pytest.raises(RetrievalUnavailable):
            self.answering(status, body).search(QUESTION, HELD_YEAR, 5)
        with pytest.raises(RetrievalUnavailable):
            self.answering(status, body).index_generation()

    def test_an_index_that_is_not_ready_has_no_generation(self) -> None:
        building = (
            '{"state": "building", "message": "building 10%", "corpus_generation": null, '
            '"expected_corpus_generation": "g", "points": 0, "by_kind": {}, "embedder": "hash", '
            '"vector_config": {}, "index_scope": {}, "collection": "asat", "backend": "edge"}'
        )
        with pytest.raises(RetrievalUnavailable, match="not ready"):
            self.answering(200, building).index_generation()
        report = self.answering(200, building).index_report()
        assert (report.state, report.message, report.corpus_generation) == ("building", "building 10%", None)
