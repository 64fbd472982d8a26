"""The research service's outcome JSON, read into plain values for the pages.

Only what the outcome carries is shown: the research service puts verified quotes only in
``claims[*].citations`` and ``reading_list[*].quotes``. A reply of the wrong shape raises
:class:`OutcomeShapeError` naming the field, never a half-rendered answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from asat_corpus.contracts.decisions import is_answered


class OutcomeShapeError(ValueError):
    """The research reply is not an outcome this page understands."""


@dataclass(frozen=True)
class CitationView:
    source_id: str
    title: str
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: str | None
    valid_to: str | None
    quote: str
    start: int
    end: int
    status: str | None = None


@dataclass(frozen=True)
class ClaimView:
    text: str
    citations: tuple[CitationView, ...]


@dataclass(frozen=True)
class ReadingView:
    source_id: str
    title: str
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None
    quotes: tuple[CitationView, ...]


@dataclass(frozen=True)
class Footer:
    provider: str
    model: str
    corpus_generation: str
    audit_id: int
    attribution: str


@dataclass(frozen=True)
class OutcomeView:
    answered: bool
    decision: str
    reasons: tuple[str, ...]
    income_year: int | None
    as_of: str | None
    claims: tuple[ClaimView, ...]
    reading_list: tuple[ReadingView, ...]
    premise_rejected: bool
    note: str
    footer: Footer
    as_known_on: str | None = None  # the law as it then stood: the text on the books that day


def parse_outcome(body: Mapping[str, Any]) -> OutcomeView:
    decision = _str(body, "decision")
    answered = _bool(body, "answered")
    if answered != is_answered(decision):
        raise OutcomeShapeError(f"the outcome says answered={answered} but decision={decision!r}: they must agree")
    scope = body.get("scope") or {}
    if not isinstance(scope, Mapping):
        raise OutcomeShapeError("outcome field 'scope' must be an object")
    claims = tuple(
        ClaimView(_str(c, "text", "claims[*]"), tuple(_citation(q) for q in _list(c, "citations", "claims[*]")))
        for c in _list(body, "claims")
    )
    if not answered and claims:
        raise OutcomeShapeError("an abstention carries claims: refusing to show them")
    reading = tuple(
        ReadingView(
            source_id=_str(r, "source_id", "reading_list[*]"),
            title=_str(r, "title", "reading_list[*]"),
            register_ids=_strs(r, "register_ids", "reading_list[*]"),
            valid_from=_opt_str(r, "valid_from", "reading_list[*]"),
            valid_to=_opt_str(r, "valid_to", "reading_list[*]"),
            quotes=tuple(_citation(q) for q in _list(r, "quotes", "reading_list[*]")),
        )
        for r in _list(body, "reading_list")
    )
    year = scope.get("income_year")
    return OutcomeView(
        answered=answered,
        decision=decision,
        reasons=_strs(body, "reasons"),
        income_year=year if isinstance(year, int) else None,
        as_of=_opt_str(scope, "as_of", "scope"),
        as_known_on=_opt_str(scope, "as_known_on", "scope"),
        claims=claims,
        reading_list=reading,
        premise_rejected=bool(body.get("premise_rejected", False)),
        note=str(body.get("note") or ""),
        footer=Footer(
            provider=_str(body, "provider"),
            model=_str(body, "model"),
            corpus_generation=_str(body, "corpus_generation"),
            audit_id=_int(body, "audit_id"),
            attribution=_str(body, "attribution"),
        ),
    )


def _citation(value: Any) -> CitationView:
    where = "citation"
    if not isinstance(value, Mapping):
        raise OutcomeShapeError(f"a {where} must be an object, got {type(value).__name__}")
    start, end = _int(value, "start", where), _int(value, "end", where)
    quote = _str(value, "quote", where)
    if not 0 <= start <= end or end - start != len(quote):
        raise OutcomeShapeError(
            f"citation of {value.get('source_id')!r} has range [{start}, {end}) that cannot hold its "
            f"{len(quote)}-character quote"
        )
    return CitationView(
        source_id=_str(value, "source_id", where),
        title=_str(value, "title", where),
        register_ids=_strs(value, "register_ids", where),
        authorised=_bool(value, "authorised", where),
        valid_from=_opt_str(value, "valid_from", where),
        valid_to=_opt_str(value, "valid_to", where),
        quote=quote,
        start=start,
        end=end,
        status=_opt_str(value, "status", where),
    )


def _field(body: Any, name: str, where: str) -> Any:
    if not isinstance(body, Mapping):
        raise OutcomeShapeError(f"{where} must be an object, got {type(body).__name__}")
    if name not in body:
        raise OutcomeShapeError(f"{where} lacks the field {name!r}")
    return body[name]


def _str(body: Any, name: str, where: str = "outcome") -> str:
    value = _field(body, name, where)
    if not isinstance(value, str):
        raise OutcomeShapeError(f"{where} field {name!r} must be a string, got {type(value).__name__}")
    return value


def _opt_str(body: Any, name: str, where: str = "outcome") -> str | None:
    value = body.get(name) if isinstance(body, Mapping) else None
    if value is not None and not isinstance(value, str):
        raise OutcomeShapeError(f"{where} field {name!r} must be a string or null, got {type(value).__name__}")
    return value


def _int(body: Any, name: str, where: str = "outcome") -> int:
    value = _field(body, name, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutcomeShapeError(f"{where} field {name!r} must be an integer, got {value!r}")
    return value


def _bool(body: Any, name: str, where: str = "outcome") -> bool:
    value = _field(body, name, where)
    if not isinstance(value, bool):
        raise OutcomeShapeError(f"{where} field {name!r} must be true or false, got {value!r}")
    return value


def _list(body: Any, name: str, where: str = "outcome") -> list[Any]:
    value = _field(body, name, where)
    if not isinstance(value, list):
        raise OutcomeShapeError(f"{where} field {name!r} must be a list, got {type(value).__name__}")
    return value


def _strs(body: Any, name: str, where: str = "outcome") -> tuple[str, ...]:
    values = _list(body, name, where)
    if not all(isinstance(v, str) for v in values):
        raise OutcomeShapeError(f"{where} field {name!r} must be a list of strings")
    return tuple(values)
