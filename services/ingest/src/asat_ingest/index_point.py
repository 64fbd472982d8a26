"""What the vector index stores (``IndexPoint``) and what a search returns (``ScoredHit``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asat_corpus.income_year import MAX_INCOME_YEAR, MIN_INCOME_YEAR
from asat_ingest.sparse_vector import SparseVector

# Fixed namespace: the same point id maps to the same Qdrant UUID in every index, forever.
POINT_NAMESPACE = uuid.UUID("5b0f7f0e-3c55-4a0e-9a1c-6b1f2a7d9e21")

# Payload key under which the adapters keep the caller's string id (Qdrant ids are UUIDs).
POINT_ID_KEY = "point_id"
REQUIRED_PAYLOAD_KEYS = ("income_years", "act", "provision", "kind")
# The two time axes a search runs on, and the payload keys that hold each axis's income years:
# "in_force" (the law as it now stands): the years a point is in force (``income_years``) and,
# optionally, those in which it is served as the text then stood where the law as it now stands
# is not held (``then_stood_years``); "on_the_books" (known time): the years the text was shown by
# the latest held compilation (``known_years``, optional).
IN_FORCE = "in_force"
ON_THE_BOOKS = "on_the_books"
AXIS_YEAR_KEYS: dict[str, tuple[str, ...]] = {
    IN_FORCE: ("income_years", "then_stood_years"),
    ON_THE_BOOKS: ("known_years",),
}
YEAR_KEYS = ("income_years", "then_stood_years", "known_years")


def point_uuid(point_id: str) -> str:
    """The Qdrant id of ``point_id``: a UUID5 in :data:`POINT_NAMESPACE`, as a string."""
    return str(uuid.uuid5(POINT_NAMESPACE, point_id))


def _check_payload(point_id: str, payload: Mapping[str, Any]) -> None:
    missing = [key for key in REQUIRED_PAYLOAD_KEYS if key not in payload]
    if missing:
        raise ValueError(
            f"point {point_id!r}: payload lacks {', '.join(missing)}; every point needs "
            f"{', '.join(REQUIRED_PAYLOAD_KEYS)}"
        )
    for key in YEAR_KEYS:
        if key not in payload:
            continue
        years = payload[key]
        if not isinstance(years, list) or not all(type(y) is int for y in years):
            raise ValueError(f"point {point_id!r}: {key} must be a list of int, got {years!r}")
        for year in years:
            if not MIN_INCOME_YEAR <= year <= MAX_INCOME_YEAR:
                raise ValueError(
                    f"point {point_id!r}: {key} holds {year}, outside {MIN_INCOME_YEAR}..{MAX_INCOME_YEAR}"
                )
    kind = payload["kind"]
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"point {point_id!r}: kind must be a non-empty string, got {kind!r}")
    for key in ("act", "provision"):
        value = payload[key]
        if value is not None and not isinstance(value, str):
            raise ValueError(f"point {point_id!r}: {key} must be a string or None, got {value!r}")
    if POINT_ID_KEY in payload and payload[POINT_ID_KEY] != point_id:
        raise ValueError(f"point {point_id!r}: payload key {POINT_ID_KEY!r} is reserved for the point id")


@dataclass(frozen=True)
class IndexPoint:
    """One chunk as stored: a stable string ``id``, its dense and sparse vectors, and a payload.

    ``payload`` holds at least ``income_years`` (list of int), ``act``, ``provision`` (str or
    None) and ``kind`` (str), optionally ``then_stood_years`` (list of int), plus anything else
    JSON-able.
    """

    id: str
    dense: Sequence[float]
    sparse: SparseVector
    payload: Mapping[str, Any]

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("index point id must be a non-empty string")
        if len(self.dense) == 0:
            raise ValueError(f"point {self.id!r}: dense vector is empty")
        _check_payload(self.id, self.payload)

    @property
    def uuid(self) -> str:
        return point_uuid(self.id)

    def stored_payload(self) -> dict[str, Any]:
        """The payload as written to Qdrant: the caller's payload plus the string id."""
        return {**self.payload, POINT_ID_KEY: self.id}


@dataclass(frozen=True)
class ScoredHit:
    """One search result: the point's string id, its fused score and its payload."""

    id: str
    score: float
    payload: Mapping[str, Any]
