"""The search contract's index states are the index's own, and building."""

from __future__ import annotations

from typing import get_args

from asat_corpus.contracts.search import MAX_SEARCH_LIMIT, IndexStateName
from asat_ingest.build import IndexState
from asat_ingest.search import MAX_LIMIT


def test_index_states_are_the_builds_and_building() -> None:
    assert set(get_args(IndexStateName)) == {state.value for state in IndexState} | {"building"}


def test_the_search_limit_is_the_contracts() -> None:
    assert MAX_LIMIT == MAX_SEARCH_LIMIT
