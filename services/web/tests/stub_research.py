"""A stub research service: the research API's shapes, with canned data, for the web tests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse, StreamingResponse

ATTRIBUTION = "Based on content from the Federal Register of Legislation at 1 April 2026."
TEXT_2015 = "(1) You are a small business entity if your aggregated turnover is less than $2 million."
TEXT_2026 = "(1) You are a small business entity if your aggregated turnover is less than $10 million."
V2015 = "itaa1997:328-110@C2015C00285"
V2026 = "itaa1997:328-110@C2026C00122"
QUOTE = "your aggregated turnover is less than $2 million"
START = TEXT_2015.index(QUOTE)


def citation(source_id: str = V2015, quote: str = QUOTE, start: int = START, **extra: Any) -> dict[str, Any]:
    return {
        "span_id": f"{source_id}/1#s1",
        "chunk_id": f"{source_id}/1",
        "source_id": source_id,
        "kind": "provision",
        "title": "ITAA 1997 s 328-110 Meaning of small business entity",
        "act": "itaa1997",
        "provision": "328-110",
        "register_ids": [source_id.split("@")[1]],
        "authorised": True,
        "valid_from": "2014-07-01",
        "valid_to": "2016-07-01",
        "quote": quote,
        "start": start,
        "end": start + len(quote),
        "status": None,
    } | extra


def outcome(answered: bool = True, audit_id: int = 1, **extra: Any) -> dict[str, Any]:
    cited = citation()
    body: dict[str, Any] = {
        "request_id": "r1",
        "audit_id": audit_id,
        "decision": "answer" if answered else "abstain_low_relevance",
        "answered": answered,
        "reasons": [] if answered else ["the best passage scored 0.120 on the cosine scale, below the threshold"],
        "scope": {"income_year": 2015, "as_of": None, "source": "parameter", "matched": "income_year=2015"},
        "claims": [{"id": "c1", "text": "Turnover under $2 million.", "citations": [cited], "groundedness": 1.0}]
        if answered
        else [],
        "reading_list": [
            {
                "source_id": V2015,
                "title": cited["title"],
                "register_ids": ["C2015C00285"],
                "valid_from": "2014-07-01",
                "valid_to": "2016-07-01",
                "quotes": [cited],
            }
        ],
        "premise_rejected": False,
        "note": "",
        "provider": "extractive",
        "model": "extractive-v1",
        "seed": None,
        "corpus_generation": "0123456789abcdef0123456789abcdef",
        "latencies_ms": {"resolve": 0.1},
        "dropped_claims": 0,
        "attribution": ATTRIBUTION,
    }
    return body | extra


# Who asked the stub's rows: the owner of the first practice of the tests' accounts store
# (tests/signed_in.py); a user of another practice is shown none of them.
ASKED_BY = {"user_id": 1, "user_email": "owner@practice.test", "practice_id": 1, "client_id": None}


def audit_entry(entry_id: int = 1, quote: str = QUOTE, start: int = START) -> dict[str, Any]:
    cited = {
        "version_id": V2015,
        "register_ids": ["C2015C00285"],
        "quote": quote,
        "start": start,
        "end": start + len(quote),
    }
    known = {"as_known_on": "2015-10-01"} if entry_id == 2 else {}  # row 2 was asked on the known-time axis
    return {
        "id": entry_id,
        "recorded_at": "2026-04-01 10:00:00+00:00",
        "prev_hash": "0" * 64,
        "hash": "a" * 64,
        "record": {
            "request_id": "r1",
            "question": "What aggregated turnover made a business a small business entity?",
            "as_of": None,
            "income_year": 2015,
            "decision": "answer",
            "reasons": [],
            "citations": [cited],
            "verified_quotes": [cited],
            "reading_list": [{"version_id": V2015, "register_ids": ["C2015C00285"], "label": "s 328-110"}],
            "provider": "extractive",
            "model": "extractive-v1",
            "seed": None,
            "corpus_generation": "0123456789abcdef",
            "latencies": [{"stage": "resolve", "ms": 0.1}],
            "asked_by": ASKED_BY,
        }
        | known,
    }


def shown_row(entry_id: int, answered: bool) -> dict[str, Any]:
    """A row that records what was shown (``shown``: the outcome as served, less ``audit_id`` and
    ``latencies_ms``), as rows written since file notes do; rows 1 and 2 predate it."""
    served = outcome(answered, audit_id=entry_id)
    row = audit_entry(entry_id)
    row["record"] |= {
        "decision": served["decision"],
        "reasons": served["reasons"],
        "citations": row["record"]["citations"] if answered else [],
        "corpus_generation": served["corpus_generation"],
        "shown": {k: v for k, v in served.items() if k not in ("audit_id", "latencies_ms")},
    }
    return row


SHOWN_ROWS = {3: shown_row(3, answered=True), 4: shown_row(4, answered=False)}
FY2024_QUESTION = "What was the small business turnover threshold in FY2024?"


def question_row(entry_id: int = 5) -> dict[str, Any]:
    """A row recording what was shown whose period came from the question's words (FY2024)."""
    row = shown_row(entry_id, answered=True)
    row["record"] |= {"question": FY2024_QUESTION, "income_year": 2024}
    row["record"]["shown"]["scope"] = {"income_year": 2024, "as_of": None, "source": "question", "matched": "FY2024"}
    return row


RETRO_ACT = "Act No. 41, 2017"  # assented 2017-05-19, commencing on 1 July 2016 or 1 July 2017
RETRO_ASSENT = "2017-05-19"
CANDIDATES = ["2016-07-01", "2017-07-01"]


def bound(day: str | None, widest: str | None = None) -> dict[str, Any]:
    """One end of an interval as research sends it; with ``widest``, uncertain (Act No. 41, 2017)."""
    uncertain = widest is not None
    return {
        "day": day,
        "widest": widest,
        "uncertain": uncertain,
        "candidates": CANDIDATES if uncertain else [],
        "acts": [RETRO_ACT] if uncertain else [],
        "method": "commencement_uncertain_shrunk" if uncertain else "compilation_date",
        "detail": "",
        "retrospective": uncertain,
    }


# Research's timeline of s 328-110: the earlier text is not held; the 2015 text; a year in which the
# text is one of the two held texts (Act No. 41, 2017 commenced on 1 July 2016 or 1 July 2017, the
# first before its assent: retrospective); the 2026 text. On the books, the 2015 text until the
# Act's assent (possibly until 1 July 2017); the 2026 text from its compilation.
TIMELINE: list[dict[str, Any]] = [
    {
        "type": "gap",
        "valid_from": "2012-07-01",
        "valid_to": "2014-07-01",
        "acts": ["Act No. 37, 2012"],
        "reason": "no compilation held",
        "held": "not_held",
        "between": None,
        "candidates": [],
        "retrospective": False,
    },
    {
        "type": "version",
        "id": V2015,
        "valid_from": "2014-07-01",
        "valid_to": "2016-07-01",
        "register_ids": ["C2015C00285"],
        "valid_from_bound": bound("2014-07-01"),
        "valid_to_bound": bound("2016-07-01", "2017-07-01"),
        "known_from": "2015-06-22",
        "known_to": RETRO_ASSENT,
        "known_from_bound": bound("2015-06-22"),
        "known_to_bound": bound(RETRO_ASSENT, "2017-07-01"),
        "compilation_dates": ["2015-06-22"],
        "authorised": True,
    },
    {
        "type": "gap",
        "valid_from": "2016-07-01",
        "valid_to": "2017-07-01",
        "acts": [RETRO_ACT],
        "reason": "commencement of the amending Act uncertain; the text on these days is not certain",
        "held": "one_of_two",
        "between": [V2015, V2026],
        "candidates": CANDIDATES,
        "retrospective": True,
    },
    {
        "type": "retrospective",
        "act": RETRO_ACT,
        "assent": RETRO_ASSENT,
        "commencement": "2016-07-01",
        "candidates": ["2016-07-01"],
        "valid_from": "2016-07-01",
        "valid_to": RETRO_ASSENT,
    },
    {
        "type": "version",
        "id": V2026,
        "valid_from": "2017-07-01",
        "valid_to": None,
        "register_ids": ["C2026C00122"],
        "valid_from_bound": bound("2017-07-01", "2016-07-01"),
        "valid_to_bound": bound(None),
        "known_from": "2026-04-01",
        "known_to": None,
        "known_from_bound": bound("2026-04-01"),
        "known_to_bound": bound(None),
        "compilation_dates": ["2026-04-01"],
        "authorised": False,
    },
]


def source(source_id: str, text: str, valid_from: str, valid_to: str | None, authorised: bool = True) -> dict[str, Any]:
    return {
        "id": source_id,
        "kind": "provision",
        "text": text,
        "title": "ITAA 1997 s 328-110 Meaning of small business entity",
        "act": "itaa1997",
        "provision": "328-110",
        "register_ids": [source_id.split("@")[1]],
        "authorised": authorised,
        "valid_from": valid_from,
        "valid_to": valid_to,
        "income_years": [],
        "status": None,
        "timeline": TIMELINE,
    }


SOURCES = {
    V2015: source(V2015, TEXT_2015, "2014-07-01", "2016-07-01"),
    V2026: source(V2026, TEXT_2026, "2017-07-01", None, authorised=False),
}


CURRENT_YEAR = 2027  # the stub's "today" is in income year 2027
_FY = re.compile(r"\bFY\s?(\d{4})\b", re.IGNORECASE)


def _span(year: int) -> dict[str, str]:
    return {"start": f"{year - 1}-07-01", "end": f"{year}-06-30"}


def read_period(body: dict[str, Any]) -> dict[str, Any]:
    """Research's ``POST /v1/period`` for questions naming the year as FYnnnn (the stub's reading)."""
    question, year = str(body.get("question", "")), body.get("income_year")
    named = _FY.search(question)
    conflict = None
    if named and year is not None and int(named.group(1)) != year:
        asked = int(named.group(1))
        conflict = {
            "question": {"income_year": asked, "matched": named.group(0)} | _span(asked),
            "parameter": {"income_year": year, "name": f"income_year={year}"} | _span(year),
            "reason": f"the question names income year {asked} ({named.group(0)!r}: 1 July {asked - 1} to 30 June "
            f"{asked}) but income_year={year} was given (income year {year}: 1 July {year - 1} to 30 June {year}): "
            "ask again with one of them",
        }
    if year is not None:
        scope = {"income_year": year, "source": "parameter", "matched": f"income_year={year}"}
    elif named:
        scope = {"income_year": int(named.group(1)), "source": "question", "matched": named.group(0)}
    else:
        scope = {"income_year": CURRENT_YEAR, "source": "default (current income year)", "matched": "today"}
    return scope | {"as_of": None, "conflict": conflict} | _span(int(scope["income_year"]))


def period_outcome(body: dict[str, Any]) -> dict[str, Any]:
    """The outcome for ``body`` as research decides it on the period: ``period_conflict`` where the
    question's FYnnnn and income_year disagree, else the canned answer for the year read."""
    read = read_period(body)
    scope = {k: read[k] for k in ("income_year", "as_of", "source", "matched")}
    conflict = read["conflict"]
    if conflict is None:
        return outcome(scope=scope)
    return outcome(
        answered=False,
        decision="period_conflict",
        reasons=[conflict["reason"]],
        reading_list=[],
        scope=scope,
        period_conflict=conflict,
        model="none (refused before retrieval)",
    )


def _period_events(body: dict[str, Any]) -> Iterator[str]:
    """The stream for ``period_outcome``: a conflict goes from resolve to the gate."""
    reply = period_outcome(body)
    read = read_period(body)
    resolve = {k: read[k] for k in ("income_year", "as_of", "source", "matched")}
    if read["conflict"] is not None:
        resolve["period_conflict"] = read["conflict"]["reason"]
    yield _event("stage", {"stage": "resolve", "ms": 0.2} | resolve)
    if read["conflict"] is None:
        yield _event("stage", {"stage": "retrieve", "ms": 12.5, "hits": 7, "gap_markers": 1})
    yield _event("stage", {"stage": "gate", "ms": 0.1, "claims": 0})  # the decision only with the result
    yield _event("stage", {"stage": "audit", "ms": 0.3, "audit_id": reply["audit_id"]})
    yield _event("result", reply)


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


READY: dict[str, Any] = {"state": "ready", "message": "ready: 42,768 points, generation 0123456789ab", "build": None}


def index_build(percent: float = 42.0, state: str = "running", **changes: Any) -> dict[str, Any]:
    """The ingest service's build as research passes it on (``IndexBuild``): embedding, 42% done."""
    total = 29_000
    done = round(total * percent / 90) if state == "running" else total
    rate, left = 8.1, (total - done) / 8.1
    message = (
        f"index building, {int(percent)}% done (embedding texts: {done:,} of {total:,}; 8.1 texts/s; "
        f"about {round(left / 60)} min left)"
    )
    build = {
        "id": "b1",
        "state": state,
        "phase": "embed",
        "done": done,
        "total": total,
        "percent": percent,
        "rate": rate,
        "seconds_left": left,
        "started": 1_775_000_000.0,
        "finished": None,
        "error": None,
        "message": message,
    }
    return build | changes


def building(percent: float = 42.0) -> dict[str, Any]:
    """Research's ``GET /v1/index/status`` while the index is being built."""
    build = index_build(percent)
    return {"state": "building", "message": build["message"], "build": build}


FAILED_BUILD = index_build(
    12.0,
    state="failed",
    error="EmbedderError: the embedding server stopped answering\nTraceback ...",
    message="the index build failed: EmbedderError: the embedding server stopped answering",
)
FAILED: dict[str, Any] = {
    "state": "failed",
    "message": f"{FAILED_BUILD['message']}: the ingest service's log says why; restarting it (`make up`) builds "
    "the index again",
    "build": FAILED_BUILD,
}


def index_refusal(index: dict[str, Any]) -> JSONResponse | None:
    """Research's 503 for a question while the index is being built or its build failed."""
    if index["state"] == "building":
        message = f"{index['message']}: questions are answered only from the whole index, never a partial one; ask again when the build is done"
        body = {"error": "index_building", "message": message, "dependency": "index", "build": index["build"]}
        return JSONResponse(body, status_code=503, headers={"retry-after": "300"})
    if index["state"] == "failed":
        message = f"no question can be answered: {index['message']}"
        body = {"error": "index_build_failed", "message": message, "dependency": "index", "build": index["build"]}
        return JSONResponse(body, status_code=503)
    return None


def create_stub(
    result: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    periods: bool = False,
    index: dict[str, Any] | None = None,
) -> FastAPI:
    """The stub; ``result`` is the outcome streamed, ``error`` an error event sent instead; with
    ``periods``, the outcome follows the period asked (``period_outcome``). ``index`` is what
    ``GET /v1/index/status`` says (``READY``; ``building()``, ``FAILED``), kept in
    ``app.state.index`` for a test to change: while it is not ready, questions are refused as
    research refuses them (503 ``index_building`` or ``index_build_failed``)."""
    app = FastAPI()
    app.state.index = index if index is not None else READY
    app.state.requests = []  # each research request's body, less its asked_by
    app.state.asked_by = []  # each research request's asked_by (who asked; None when absent)
    app.state.audit_practices = []  # the practice_id of each GET /v1/audit
    app.state.provider_checks = []  # each POST /v1/provider/check body
    app.state.rows_read = []  # the id of each GET /v1/audit/{id}

    def record(body: dict[str, Any]) -> None:
        app.state.asked_by.append(body.get("asked_by"))
        app.state.requests.append({k: v for k, v in body.items() if k != "asked_by"})

    def reply_for(body: dict[str, Any]) -> dict[str, Any]:
        if result is not None:
            return result
        return period_outcome(body) if periods else outcome()

    @app.post("/v1/period")
    def period(body: dict[str, Any]) -> JSONResponse:
        app.state.period_requests = [*getattr(app.state, "period_requests", []), body]
        if len(_FY.findall(str(body.get("question", "")))) > 1 and body.get("income_year") is None:
            message = "the question names more than one income year; ask about one year at a time, or set income_year"
            return JSONResponse({"error": "invalid_request", "message": message}, status_code=422)
        return JSONResponse(read_period(body))

    @app.get("/v1/index/status")
    def index_status() -> JSONResponse:
        return JSONResponse(app.state.index)

    @app.post("/v1/research/stream", response_model=None)
    def stream(body: dict[str, Any]) -> StreamingResponse | JSONResponse:
        record(body)
        if not str(body.get("question", "")).strip():
            return JSONResponse({"error": "invalid_request", "message": "the question is empty"}, status_code=422)
        refused = index_refusal(app.state.index)
        if refused is not None:
            return refused

        def events() -> Iterator[str]:
            if periods and result is None and error is None:
                yield from _period_events(body)
                return
            yield _event(
                "stage", {"stage": "resolve", "ms": 0.2, "income_year": 2015, "as_of": None, "source": "parameter"}
            )
            yield _event("stage", {"stage": "retrieve", "ms": 12.5, "hits": 7, "gap_markers": 1})
            if error is not None:
                yield _event("error", error)
                return
            yield _event("stage", {"stage": "gate", "ms": 0.1, "claims": 1})
            yield _event("result", reply_for(body))

        return StreamingResponse(events(), media_type="text/event-stream")

    @app.post("/v1/research")
    def research(body: dict[str, Any]) -> JSONResponse:
        record(body)
        return index_refusal(app.state.index) or JSONResponse(reply_for(body))

    @app.get("/v1/sources/{source_id:path}")
    def get_source(source_id: str) -> JSONResponse:
        if source_id not in SOURCES:
            raise HTTPException(status_code=404, detail=f"no source {source_id!r}")
        return JSONResponse(SOURCES[source_id])

    @app.get("/v1/audit")
    def recent(last: int = 20, contains: str | None = None, practice_id: int | None = None) -> JSONResponse:
        """Newest first; ``contains`` keeps the rows whose question contains it (any case, literally);
        ``practice_id`` the rows asked for that practice (every row here is practice 1's)."""
        app.state.audit_practices.append(practice_id)
        rows = [question_row(), SHOWN_ROWS[4], SHOWN_ROWS[3], audit_entry(2), audit_entry(1)]
        found = [r for r in rows if (contains or "").casefold() in r["record"]["question"].casefold()]
        found = [r for r in found if practice_id is None or r["record"]["asked_by"]["practice_id"] == practice_id]
        return JSONResponse({"entries": found[:last]})

    @app.post("/v1/provider/check")
    def provider_check(body: dict[str, Any]) -> JSONResponse:
        """The probe's report, as research sends it; the settings (and key) sent are kept."""
        app.state.provider_checks.append(body)
        checks = [{"name": "reachable", "status": "pass", "detail": f"{body.get('base_url') or 'default'} answered"}]
        report = {
            "provider": body["provider"],
            "endpoint": body.get("base_url", ""),
            "model": body.get("model", ""),
            "timeout_s": body.get("timeout_s", 30),
            "verdict": "ok",
            "exit_code": 0,
            "summary": "every check passed (exit 0).",
            "checks": checks,
        }
        return JSONResponse(report)

    @app.get("/v1/audit/verify")
    def verify() -> JSONResponse:
        checkpoint = {
            "first_id": 1,
            "last_id": 1,
            "last_hash": "a" * 64,
            "signed_at": "2026-12-03T09:30:00Z",
            "key_id": "0123456789abcdef",
        }
        anchors = {
            "ok": True,
            "checkpoints": 1,
            "anchored_id": 1,
            "last_checkpoint": checkpoint,
            "problem": None,
            "first_bad_id": None,
            "detail": "",
        }
        return JSONResponse(
            {
                "checked": 2,
                "last_id": 2,
                "last_hash": "a" * 64,
                "broken": None,
                "ok": True,
                "rows": 2,
                "first_bad_id": None,
                "anchors": anchors,
                "unanchored_rows": 1,
            }
        )

    @app.get("/v1/audit/{entry_id}")
    def entry(entry_id: int) -> JSONResponse:
        app.state.rows_read.append(entry_id)
        if entry_id == 99:
            bad = audit_entry(99, quote="a quote that is not in the text", start=0)
            return JSONResponse(bad)
        if entry_id in SHOWN_ROWS:
            return JSONResponse(SHOWN_ROWS[entry_id])
        if entry_id == 5:
            return JSONResponse(question_row())
        if entry_id > 2:
            raise HTTPException(status_code=404, detail=f"no audit row {entry_id}")
        return JSONResponse(audit_entry(entry_id))

    return app
