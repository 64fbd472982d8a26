"""Audit rows with what they showed, for the file note tests: an answer and an abstention over
realistic provision text (its own line breaks, asterisks, underscores, (1), ’ — ≤ §)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from asat_corpus.contracts.audit_log import AuditEntryOut
from asat_corpus.contracts.research import ResearchOutcome
from asat_web.file_note import FileNote, build_file_note

from .stub_research import ATTRIBUTION

GENERATED = datetime(2026, 4, 2, 9, 15, tzinfo=UTC)
V2015 = "itaa1997:328-110@C2015C00285"
V2026 = "itaa1997:328-110@C2026C00122"
RULING = "tr2019/1"
SOURCE_2015 = (
    "328-110  Meaning of small business entity\n"
    "General rule\n"
    "(1) You are a small business entity for an income year (the current year) if:\n"
    "(a) you carry on a business in the current year; and\n"
    "(b) one or both of the following applies:\n"
    "(i) you carried on a business in the income year (the previous year) before the current year and your "
    "aggregated turnover for the previous year was less than $2 million;\n"
    "(ii) your aggregated turnover for the current year is likely to be less than $2 million.\n"
    "Note: *aggregated turnover* is defined in s 328-115 \u2014 see also \u00a7 328-120 (turnover \u2264 $2m)."
)
SOURCE_2026 = (
    "(1) You are a small business entity if your aggregated turnover is less than $10 million.\n"
    "#heading_like_text ** not emphasis ** and a business\u2019s turnover_total."
)


def cite(source_id: str, text: str, quote: str, authorised: bool = True, **extra: Any) -> dict[str, Any]:
    start = text.index(quote)
    valid = {V2015: ("2014-07-01", "2016-07-01"), V2026: ("2017-07-01", None)}.get(source_id, ("2019-01-01", None))
    return {
        "span_id": f"{source_id}/1#s{start}",
        "chunk_id": f"{source_id}/1",
        "source_id": source_id,
        "kind": "provision",
        "title": "ITAA 1997 s 328-110 Meaning of small business entity",
        "act": "itaa1997",
        "provision": "328-110",
        "register_ids": [source_id.split("@")[1]] if "@" in source_id else [],
        "authorised": authorised,
        "valid_from": valid[0],
        "valid_to": valid[1],
        "quote": quote,
        "start": start,
        "end": start + len(quote),
        "status": None,
    } | extra


QUOTE_RULE = SOURCE_2015[SOURCE_2015.index("(1) You are") : SOURCE_2015.index("(ii)")]
QUOTE_NOTE = SOURCE_2015[SOURCE_2015.index("Note:") :]
QUOTE_2026 = SOURCE_2026
CITES = {
    "rule": cite(V2015, SOURCE_2015, QUOTE_RULE),
    "note": cite(V2015, SOURCE_2015, QUOTE_NOTE),
    "2026": cite(V2026, SOURCE_2026, QUOTE_2026, authorised=False),
}


def outcome_body(answered: bool = True, **extra: Any) -> dict[str, Any]:
    """A research outcome as served (with ``audit_id`` and ``latencies_ms``)."""
    rule, note, later = CITES["rule"], CITES["note"], CITES["2026"]
    body: dict[str, Any] = {
        "request_id": "req-7f3a",
        "audit_id": 42,
        "decision": "answer" if answered else "abstain_low_relevance",
        "answered": answered,
        "reasons": (
            ["The text quoted was in force for the whole income year."]
            if answered
            else ["the best passage scored 0.120 on the cosine scale, below the threshold of 0.300"]
        ),
        "scope": {"income_year": 2015, "as_of": None, "source": "question", "matched": "FY2015"},
        "claims": (
            [
                {
                    "id": "c1",
                    "text": "A business with turnover under $2 million was a small business entity.",
                    "citations": [rule],
                    "groundedness": 0.97,
                },
                {
                    "id": "c2",
                    "text": "Aggregated turnover is defined in s 328-115.",
                    "citations": [note, later],
                    "groundedness": 0.9,
                },
            ]
            if answered
            else []
        ),
        "reading_list": [
            {
                "source_id": V2015,
                "title": rule["title"],
                "register_ids": ["C2015C00285"],
                "valid_from": "2014-07-01",
                "valid_to": "2016-07-01",
                "quotes": [rule, note],
            },
            {
                "source_id": V2026,
                "title": later["title"],
                "register_ids": ["C2026C00122"],
                "valid_from": "2017-07-01",
                "valid_to": None,
                "quotes": [later],
            },
        ],
        "premise_rejected": False,
        "note": "Read s 328-115 for how aggregated turnover is worked out." if answered else "",
        "provider": "extractive",
        "model": "extractive-v1",
        "seed": None,
        "corpus_generation": "0471aa7becde557e9063853a" + "9" * 40,
        "latencies_ms": {"resolve": 0.4, "retrieve": 12.5},
        "dropped_claims": 1 if answered else 0,
        "attribution": ATTRIBUTION,
    }
    return body | extra


def audit_row(
    body: dict[str, Any],
    question: str = "What turnover made a business a small business entity in FY2015?",
    shown: bool = True,
) -> dict[str, Any]:
    """The audit row that recorded ``body`` as shown (``GET /v1/audit/{id}``)."""

    def row_quote(c: dict[str, Any]) -> dict[str, Any]:
        return {k: c[k] for k in ("quote", "start", "end", "register_ids")} | {"version_id": c["source_id"]}

    cited = [row_quote(c) for claim in body["claims"] for c in claim["citations"]]
    verified = [row_quote(q) for item in body["reading_list"] for q in item["quotes"]]
    record: dict[str, Any] = {
        "request_id": body["request_id"],
        "question": question,
        "as_of": None,
        "income_year": None,
        "decision": body["decision"],
        "reasons": body["reasons"],
        "citations": cited,
        "verified_quotes": verified,
        "reading_list": [],
        "provider": body["provider"],
        "model": body["model"],
        "seed": body["seed"],
        "corpus_generation": body["corpus_generation"],
        "latencies": [{"stage": k, "ms": v} for k, v in body["latencies_ms"].items()],
    }
    if shown:
        record["shown"] = {k: v for k, v in body.items() if k not in ("audit_id", "latencies_ms")}
    return {
        "id": body["audit_id"],
        "recorded_at": "2026-04-01T10:00:00+00:00",
        "prev_hash": "3f" * 32,
        "hash": "c0ffee" + "0123456789" * 5 + "abcdef12",
        "record": record,
    }


def entry_and_outcome(body: dict[str, Any], **row: Any) -> tuple[AuditEntryOut, ResearchOutcome]:
    entry = AuditEntryOut.model_validate(audit_row(body, **row))
    return entry, ResearchOutcome.model_validate(body)


def note_quoting(
    *quotes: str, question: str = "What turnover made a business a small business entity?", answered: bool = True
) -> FileNote:
    """A note whose claims (or, for an abstention, reading list) quote ``quotes``, each from a
    version whose text is the quote itself."""
    cited = [cite(V2015, quote, quote) for quote in quotes]
    claims = [
        {"id": f"c{n}", "text": f"Claim {n}.", "citations": [c], "groundedness": 1.0} for n, c in enumerate(cited, 1)
    ]
    reading = [
        {
            "source_id": V2015,
            "title": "ITAA 1997 s 328-110",
            "register_ids": ["C2015C00285"],
            "valid_from": "2014-07-01",
            "valid_to": "2016-07-01",
            "quotes": cited,
        }
    ]
    body = outcome_body(answered, claims=claims if answered else [], reading_list=reading)
    entry, outcome = entry_and_outcome(body, question=question)
    return build_file_note(entry, outcome, GENERATED)
