"""The research contract's closed sets are the pipeline's own: a value added here is added there."""

from __future__ import annotations

from typing import get_args

from asat_corpus.contracts.decisions import Decision, is_answered, is_unanswered
from asat_corpus.contracts.research import ScopeSourceName
from asat_research import gate
from asat_research.temporal import ScopeSource


def test_scope_sources_are_the_temporal_ones() -> None:
    assert set(get_args(ScopeSourceName)) == {source.value for source in ScopeSource}


def test_the_gate_decides_the_wire_decision() -> None:
    assert gate.Decision is Decision


def test_period_conflict_is_a_decision_that_shows_no_claims() -> None:
    assert Decision("period_conflict") is Decision.PERIOD_CONFLICT
    assert not is_answered("period_conflict") and is_unanswered("period_conflict")
    assert {d for d in Decision if is_unanswered(d)} == {d for d in Decision if not is_answered(d)}
    assert not is_unanswered("error")


def test_the_provider_contract_names_the_factory_s_providers() -> None:
    from asat_corpus.contracts.provider import PROVIDERS, ProviderName
    from asat_research.generation.factory import PROVIDERS as FACTORY_PROVIDERS

    assert PROVIDERS == FACTORY_PROVIDERS == get_args(ProviderName)
