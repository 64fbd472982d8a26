"""Judging a model's JSON reply against the schema it was sent (pure).

A reply is accepted only if it is exactly what the schema allows: a JSON object with exactly
the required keys, claims that are non-empty strings, and span keys drawn from the keys that
were offered. Anything else raises :class:`SchemaViolation`; nothing is repaired, because a
provider that ignored the schema may also have ignored the instruction not to quote.

A reply that cites a key that was not offered is rejected as a whole rather than losing the
one claim: the key's ``enum`` was in the schema, so the provider did not enforce it, and none
of that reply's claims can be trusted to have been constrained either.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from asat_research.generation.port import GeneratedClaim, Generation, GenerationError, Selection


class SchemaViolation(GenerationError):
    """The reply does not conform to the JSON schema that was sent with the request."""


def parse_selection(
    payload: str | Mapping[str, Any], offered: Sequence[str], *, provider: str, model: str
) -> Selection:
    reply = _object(payload)
    _exact_fields(reply, {"span_keys"}, "the reply")
    keys = _keys(reply["span_keys"], offered, "span_keys", allow_empty=True)
    return Selection(keys=keys, provider=provider, model=model)


def parse_generation(
    payload: str | Mapping[str, Any], offered: Sequence[str], *, provider: str, model: str, seed: int | None
) -> Generation:
    reply = _object(payload)
    _exact_fields(reply, {"claims", "premise_rejected"}, "the reply")
    premise_rejected = reply["premise_rejected"]
    if not isinstance(premise_rejected, bool):
        raise SchemaViolation(f"premise_rejected must be true or false, got {_show(premise_rejected)}")
    raw_claims = reply["claims"]
    if not isinstance(raw_claims, list):
        raise SchemaViolation(f"claims must be a list, got {_show(raw_claims)}")
    claims = tuple(_claim(raw, offered, f"claims[{i}]") for i, raw in enumerate(raw_claims))
    return Generation(claims=claims, premise_rejected=premise_rejected, provider=provider, model=model, seed=seed)


def _claim(raw: object, offered: Sequence[str], where: str) -> GeneratedClaim:
    if not isinstance(raw, dict):
        raise SchemaViolation(f"{where} must be an object, got {_show(raw)}")
    _exact_fields(raw, {"text", "span_keys"}, where)
    text = raw["text"]
    if not isinstance(text, str) or not text.strip():
        raise SchemaViolation(f"{where}.text must be a non-empty string, got {_show(text)}")
    keys = _keys(raw["span_keys"], offered, f"{where}.span_keys", allow_empty=False)
    return GeneratedClaim(text=text, span_keys=keys)


def _keys(raw: object, offered: Sequence[str], where: str, *, allow_empty: bool) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise SchemaViolation(f"{where} must be a list of span keys, got {_show(raw)}")
    if not raw and not allow_empty:
        raise SchemaViolation(f"{where} is empty: every claim must cite at least one span")
    keys: list[str] = []
    for key in raw:
        if not isinstance(key, str):
            raise SchemaViolation(f"{where} must hold strings, got {_show(key)}")
        if key not in offered:
            raise SchemaViolation(f"{where} cites {key!r}, which was not offered (offered: {', '.join(offered)})")
        if key not in keys:
            keys.append(key)
    return tuple(keys)


def _object(payload: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(payload, str):
        try:
            decoded = json.loads(payload, object_pairs_hook=_no_duplicate_fields)
        except ValueError as exc:
            raise SchemaViolation(f"the reply is not JSON ({exc}); it begins {_show(payload)}") from None
    else:
        decoded = payload
    if not isinstance(decoded, Mapping):
        raise SchemaViolation(f"the reply must be a JSON object, got {_show(decoded)}")
    return decoded


def _no_duplicate_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    fields = [name for name, _ in pairs]
    repeated = sorted({name for name in fields if fields.count(name) > 1})
    if repeated:
        raise ValueError(f"field {', '.join(repeated)} appears more than once")
    return dict(pairs)


def _exact_fields(obj: Mapping[str, Any], required: set[str], where: str) -> None:
    missing = sorted(required - obj.keys())
    extra = sorted(set(obj.keys()) - required)
    if missing:
        raise SchemaViolation(f"{where} lacks {', '.join(missing)}")
    if extra:
        raise SchemaViolation(f"{where} has fields outside the schema: {', '.join(map(str, extra))}")


def _show(value: object, limit: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text[:limit] + ("..." if len(text) > limit else ""))
