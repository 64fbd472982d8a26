"""The pipeline's outcome on the wire: the reply of ``POST /v1/research`` and what the audit row
records as shown (pure).

``shown_text`` is the outcome as served, less ``audit_id`` and ``latencies_ms`` (the audit row's
id and latencies hold those), as compact JSON with sorted keys: the text the row keeps and hashes.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

from asat_corpus.contracts import research as wire
from asat_corpus.contracts.decisions import is_answered

if TYPE_CHECKING:  # the pipeline imports this module to record what it shows
    from asat_research.pipeline import ResearchOutcome

NOT_SHOWN = frozenset({"audit_id", "latencies_ms"})


def outcome_reply(outcome: ResearchOutcome) -> wire.ResearchOutcome:
    """The pipeline's outcome as the wire model (validated: answered agrees with the decision)."""
    body = dataclasses.asdict(outcome)
    body["scope"] = dataclasses.asdict(outcome.scope)
    body["answered"] = is_answered(outcome.decision)
    return wire.ResearchOutcome.model_validate(body)


def outcome_json(outcome: ResearchOutcome) -> dict[str, Any]:
    """The JSON body of ``POST /v1/research`` for ``outcome``."""
    return outcome_reply(outcome).model_dump(mode="json")


def shown_text(outcome: ResearchOutcome) -> str:
    """What the user is shown of ``outcome``, as the JSON text the audit row records."""
    body = outcome_reply(outcome).model_dump(mode="json", exclude=set(NOT_SHOWN))
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
