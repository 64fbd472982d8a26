"""Rows of ``research.audit_log``: to chain links (for verify) and to entries (strict decoding).

A link is built from the raw column values, not from a decoded record, so that a row altered
into something that is no longer a valid record is still reported as a broken link.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from asat_audit.canonical import Document, JSONValue, format_date, format_timestamp, with_optional_fields
from asat_audit.chain import ChainLink
from asat_audit.record import (
    AskedBy,
    AuditCitation,
    AuditEntry,
    AuditRecord,
    ReadingListItem,
    StageLatency,
    as_decision,
)
from asat_audit.store import AuditReadError

Row = Mapping[str, Any]

COLUMNS = (
    "id, recorded_at, request_id, question, as_of, income_year, decision, reasons, citations,"
    " verified_quotes, reading_list, provider, model, seed, corpus_generation, latencies,"
    " prev_hash, hash, as_known_on, shown, asked_by"
)
INSERT = (
    "INSERT INTO research.audit_log (" + COLUMNS + ") VALUES"
    " (%(id)s, %(recorded_at)s, %(request_id)s, %(question)s, %(as_of)s, %(income_year)s,"
    " %(decision)s, %(reasons)s, %(citations)s, %(verified_quotes)s, %(reading_list)s,"
    " %(provider)s, %(model)s, %(seed)s, %(corpus_generation)s, %(latencies)s,"
    " %(prev_hash)s, %(hash)s, %(as_known_on)s, %(shown)s, %(asked_by)s)"
)
JSON_COLUMNS = ("reasons", "citations", "verified_quotes", "reading_list", "latencies")


def row_link(row: Row) -> ChainLink:
    """The chain link of a stored row; ``document`` is ``None`` (with why) if it cannot be built."""
    entry_id, prev_hash, digest = int(row["id"]), str(row["prev_hash"]), str(row["hash"])
    try:
        document = row_document(row)
    except (TypeError, ValueError) as exc:
        return ChainLink(entry_id, prev_hash, digest, None, problem=f"row cannot be read: {exc}")
    return ChainLink(entry_id, prev_hash, digest, document)


def row_document(row: Row) -> Document:
    """The document the row's hash covers, from the stored column values as they are.

    A NULL ``as_known_on``, ``shown`` or ``asked_by`` leaves the key out, as ``record_document``
    does for ``None``.
    """
    recorded_at = row["recorded_at"]
    as_of = row["as_of"]
    as_known_on = row["as_known_on"]
    shown = row["shown"]
    if shown is not None and not isinstance(shown, str):
        raise TypeError(f"shown is {type(shown).__name__}, not text")
    if not isinstance(recorded_at, datetime):
        raise TypeError(f"recorded_at is {type(recorded_at).__name__}, not a timestamp")
    if as_of is not None and not isinstance(as_of, date):
        raise TypeError(f"as_of is {type(as_of).__name__}, not a date")
    if as_known_on is not None and not isinstance(as_known_on, date):
        raise TypeError(f"as_known_on is {type(as_known_on).__name__}, not a date")
    document: Document = {
        "id": int(row["id"]),
        "recorded_at": format_timestamp(recorded_at),
        "as_of": format_date(as_of),
    }
    for name in ("request_id", "question", "income_year", "decision", "provider", "model", "seed", "corpus_generation"):
        document[name] = _scalar(name, row[name])
    for name in JSON_COLUMNS:
        document[name] = row[name]
    document["latencies"] = _latencies_as_stored(row["latencies"])
    asked_by = row.get("asked_by")
    if asked_by is not None and not isinstance(asked_by, dict):
        raise TypeError(f"asked_by is {type(asked_by).__name__}, not a JSON object")
    return with_optional_fields(document, as_known_on, shown, asked_by)


def row_entry(row: Row) -> AuditEntry:
    """Decode a stored row strictly; ``AuditReadError`` names the row and what is wrong."""
    try:
        record = AuditRecord(
            request_id=_str(row["request_id"]),
            question=_str(row["question"]),
            as_of=row["as_of"],
            income_year=row["income_year"],
            decision=as_decision(row["decision"]),
            reasons=tuple(_str(r) for r in _list(row["reasons"])),
            citations=tuple(_citation(c) for c in _list(row["citations"])),
            verified_quotes=tuple(_citation(c) for c in _list(row["verified_quotes"])),
            reading_list=tuple(_reading_item(i) for i in _list(row["reading_list"])),
            provider=_str(row["provider"]),
            model=_str(row["model"]),
            seed=row["seed"],
            corpus_generation=_str(row["corpus_generation"]),
            latencies=tuple(_latency(x) for x in _list(row["latencies"])),
            as_known_on=row["as_known_on"],
            shown=row["shown"],
            asked_by=None if row.get("asked_by") is None else _asked_by(row["asked_by"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise AuditReadError(
            f"audit row {row.get('id')} is not a valid audit record ({exc}); run "
            "`python -m asat_audit verify` to check the chain"
        ) from exc
    return AuditEntry(
        id=int(row["id"]),
        recorded_at=row["recorded_at"],
        prev_hash=str(row["prev_hash"]),
        hash=str(row["hash"]),
        record=record,
    )


def _scalar(name: str, value: object) -> JSONValue:
    if value is None or isinstance(value, str | int):
        return value
    raise TypeError(f"{name} is {type(value).__name__}, not text or integer")


def _latencies_as_stored(value: object) -> JSONValue:
    """Latency ``ms`` are floats; jsonb prints large ones without an exponent, so read back as int."""
    if not isinstance(value, list):
        raise TypeError(f"latencies is {type(value).__name__}, not a list")
    out: list[JSONValue] = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("ms"), int) and not isinstance(item["ms"], bool):
            item = {**item, "ms": float(item["ms"])}
        out.append(item)
    return out


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a JSON array, got {type(value).__name__}")
    return value


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    return value


def _citation(value: object) -> AuditCitation:
    obj = _dict(value)
    return AuditCitation(
        version_id=_str(obj["version_id"]),
        register_ids=tuple(_str(r) for r in _list(obj["register_ids"])),
        quote=_str(obj["quote"]),
        start=_int(obj["start"]),
        end=_int(obj["end"]),
    )


def _reading_item(value: object) -> ReadingListItem:
    obj = _dict(value)
    return ReadingListItem(
        version_id=_str(obj["version_id"]),
        register_ids=tuple(_str(r) for r in _list(obj["register_ids"])),
        label=_str(obj["label"]),
    )


def _asked_by(value: object) -> AskedBy:
    obj = _dict(value)
    if set(obj) != {"user_id", "user_email", "practice_id", "client_id"}:
        raise ValueError(f"asked_by has keys {sorted(obj)}, not user_id, user_email, practice_id, client_id")
    client = obj["client_id"]
    return AskedBy(
        user_id=_int(obj["user_id"]),
        user_email=_str(obj["user_email"]),
        practice_id=_int(obj["practice_id"]),
        client_id=None if client is None else _int(client),
    )


def _latency(value: object) -> StageLatency:
    obj = _dict(value)
    ms = obj["ms"]
    if isinstance(ms, bool) or not isinstance(ms, int | float):
        raise TypeError(f"latency ms must be a number, got {type(ms).__name__}")
    return StageLatency(stage=_str(obj["stage"]), ms=float(ms))
