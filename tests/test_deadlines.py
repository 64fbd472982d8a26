"""Every question ends inside the web's timeout for research (issue 19, item 2).

Research's deadline bounds the model calls, counted from the question's arrival (retrieval
included). After it come the verifier (one call, bounded by its client's timeout) and the audit
row (a pooled connection waited for, then a statement with a server-side timeout). The sum of
those worst cases must stay under the time the web waits, so that a slow provider ends in an
abstention the user is shown and the audit log holds, never in a timeout of the web's.
"""

from __future__ import annotations

from asat_audit.pool_settings import PoolSettings
from asat_research.deadline import DEFAULT_DEADLINE_S
from asat_research.settings import research_settings
from asat_research.verifier_client import VERIFIER_TIMEOUT_S
from asat_web.research_client import RESEARCH_TIMEOUT_S, ResearchClient


def worst_case_s(deadline_s: float) -> float:
    pool = PoolSettings()
    # Each httpx timeout bounds one wait (connect, then read): two per call at most.
    verifier = 2 * VERIFIER_TIMEOUT_S
    audit = pool.wait_s + pool.statement_timeout_ms / 1000
    return deadline_s + verifier + audit


def test_the_default_deadline_ends_a_question_before_the_web_gives_up() -> None:
    assert research_settings({}).deadline_s == DEFAULT_DEADLINE_S
    assert worst_case_s(DEFAULT_DEADLINE_S) < RESEARCH_TIMEOUT_S


def test_the_web_waits_for_research_as_long_as_its_constant_says() -> None:
    client = ResearchClient("http://127.0.0.1:1")
    timeout = client._client.timeout
    assert timeout.read == RESEARCH_TIMEOUT_S
    assert timeout.connect == RESEARCH_TIMEOUT_S
