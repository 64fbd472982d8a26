"""Canonical serialisation of an audit row and the hash chain over it (pure).

The document of a row is a JSON object holding the id, the timestamp and every record field,
except that ``as_known_on`` (added by migration 0002), ``shown`` (0003) and ``asked_by`` (0005)
are present only when set: a record without them has exactly the document, and so the hash, it
had before the fields existed, and rows stored then still verify. ``asked_by`` enters as an
object with all four keys (``client_id`` null when none). ``shown`` enters as the stored JSON text (a string),
so the hash covers the exact bytes kept.
Its canonical form is JSON with sorted keys, no whitespace, ``ensure_ascii=False``, UTF-8;
dates are ISO 8601 and timestamps are UTC with microseconds (``2024-07-01T03:04:05.000006Z``).
``hash = sha256(prev_hash (64 lowercase hex chars, ASCII) + canonical bytes)``.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime
from typing import TypeAlias

from asat_audit.record import AskedBy, AuditCitation, AuditRecord, ReadingListItem, StageLatency

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
Document: TypeAlias = "dict[str, JSONValue]"

GENESIS_HASH = "0" * 64
HASH_HEX_LENGTH = 64


def format_timestamp(moment: datetime) -> str:
    """``moment`` in UTC as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always six fraction digits)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"audit timestamps must be timezone-aware, got naive {moment.isoformat()}")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def format_date(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def citation_document(citation: AuditCitation) -> Document:
    return {
        "version_id": citation.version_id,
        "register_ids": list(citation.register_ids),
        "quote": citation.quote,
        "start": citation.start,
        "end": citation.end,
    }


def reading_item_document(item: ReadingListItem) -> Document:
    return {"version_id": item.version_id, "register_ids": list(item.register_ids), "label": item.label}


def asked_by_document(asked_by: AskedBy) -> Document:
    return {
        "user_id": asked_by.user_id,
        "user_email": asked_by.user_email,
        "practice_id": asked_by.practice_id,
        "client_id": asked_by.client_id,
    }


def latency_document(latency: StageLatency) -> Document:
    return {"stage": latency.stage, "ms": float(latency.ms)}


def record_document(entry_id: int, recorded_at: datetime, record: AuditRecord) -> Document:
    """The JSON document the hash covers: the row's id and timestamp plus every record field.

    ``as_known_on``, ``shown`` and ``asked_by`` are left out when ``None`` (see the module docstring).
    """
    document: Document = {
        "id": entry_id,
        "recorded_at": format_timestamp(recorded_at),
        "request_id": record.request_id,
        "question": record.question,
        "as_of": format_date(record.as_of),
        "income_year": record.income_year,
        "decision": record.decision.value,
        "reasons": list(record.reasons),
        "citations": [citation_document(c) for c in record.citations],
        "verified_quotes": [citation_document(c) for c in record.verified_quotes],
        "reading_list": [reading_item_document(i) for i in record.reading_list],
        "provider": record.provider,
        "model": record.model,
        "seed": record.seed,
        "corpus_generation": record.corpus_generation,
        "latencies": [latency_document(latency) for latency in record.latencies],
    }
    asked_by = asked_by_document(record.asked_by) if record.asked_by is not None else None
    return with_optional_fields(document, record.as_known_on, record.shown, asked_by)


def with_optional_fields(
    document: Document, as_known_on: date | None, shown: str | None, asked_by: Document | None = None
) -> Document:
    """``document`` with ``as_known_on``, ``shown`` and ``asked_by`` added when set (unchanged when ``None``)."""
    if as_known_on is not None:
        document["as_known_on"] = format_date(as_known_on)
    if shown is not None:
        document["shown"] = shown
    if asked_by is not None:
        document["asked_by"] = asked_by
    return document


def canonical_bytes(document: Document) -> bytes:
    """Sorted keys, no whitespace, non-ASCII kept as UTF-8; NaN and infinities are refused."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8")


def chain_hash(prev_hash: str, document: Document) -> str:
    """``sha256(prev_hash + canonical(document))`` as 64 lowercase hex characters."""
    if not is_hash(prev_hash):
        raise ValueError(f"prev_hash must be 64 lowercase hex characters, got {prev_hash!r}")
    digest = hashlib.sha256(prev_hash.encode("ascii"))
    digest.update(canonical_bytes(document))
    return digest.hexdigest()


def is_hash(value: str) -> bool:
    return len(value) == HASH_HEX_LENGTH and all(c in "0123456789abcdef" for c in value)
