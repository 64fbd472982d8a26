"""Two practices in one store: every page that takes an id, read or write, tried by each practice's
user with the other practice's ids gives 404 (or 403 by role, never the other's data), and an
audit row's id is checked against the practice's research history (``app.research_history``)
before research is asked for the row; the lists show a practice its own rows only, read from its
history; every answered or abstained turn writes a history row; and every research request
carries who asked, for which practice and client, which the audit pages show."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_accounts.errors import AccountsStoreError
from asat_accounts.fields import client_fields
from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import ResearchHistoryEntry, Role
from asat_accounts.secret_box import KeyRing

from . import stub_research
from .signed_in import KEY, RESEARCH, Account, add_member, add_practice, new_store, record_stub_rows, signed_in, web_app
from .stub_research import QUOTE, START, V2015, create_stub, outcome
from .test_across_years import plan, year_2015, year_2026

B_ROW = 6  # an audit row asked by practice B (the stub's other rows are practice A's, id 1)
A_ROWS = (3, 4)  # rows of practice A that record what was shown (1 and 2 predate file notes)
A_ALL = (1, 2, 3, 4, 5)  # every row of practice A's history
ASKED_AT = datetime(2026, 4, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def two() -> Iterator[tuple[FastAPI, FastAPI, dict[str, Any]]]:
    stub = create_stub()
    store = new_store()
    a = add_practice(store, "Alpha Tax", "owner@practice.test")  # practice 1, user 1: the stub's rows
    b = add_practice(store, "Beta Accounting", "owner@beta.test")
    a_agent = add_member(a, "agent@practice.test", Role.AGENT)
    b_agent = add_member(b, "agent@beta.test", Role.AGENT)
    a_client = store.add_client(a.practice_id, client_fields("Acme Pty Ltd", "51 824 753 556"))
    b_client = store.add_client(b.practice_id, client_fields("Bravo Pty Ltd"))
    row = stub_research.shown_row(B_ROW, answered=True)
    row["record"]["asked_by"] = {"user_id": b.user_id, "user_email": b.email, "practice_id": b.practice_id}
    row["record"]["question"] = "What was Beta's payroll tax question?"
    stub_research.SHOWN_ROWS[B_ROW] = row
    record_stub_rows(a)  # rows 1 to 5: the web wrote them when research answered A
    record_stub_rows(b, [row])
    try:
        yield (
            web_app(stub, store),
            stub,
            {
                "a": a,
                "b": b,
                "a_agent": a_agent,
                "b_agent": b_agent,
                "a_client": a_client.id,
                "b_client": b_client.id,
                "a_rows": A_ALL,
                "a_own": A_ROWS,
                "b_rows": (B_ROW,),
                "b_own": (B_ROW,),
            },
        )
    finally:
        del stub_research.SHOWN_ROWS[B_ROW]


def _id_pages(members: tuple[int, ...], client: int, rows: tuple[int, ...]) -> list[tuple[str, str, dict[str, str]]]:
    """Every page that takes an id of a practice's own, with ``members``', ``client``'s and ``rows``' ids."""
    pages: list[tuple[str, str, dict[str, str]]] = []
    for row in rows:
        pages += [
            ("GET", f"/audit/{row}", {}),
            ("GET", f"/audit/{row}/file-note.md", {}),
            ("GET", f"/audit/{row}/file-note.pdf", {}),
            ("GET", f"/history/{row}", {}),
            ("POST", f"/history/{row}/again", {}),
        ]
    for user in members:
        pages += [
            ("POST", f"/settings/members/{user}/role", {"role": "reviewer"}),
            ("POST", f"/settings/members/{user}/remove", {}),
        ]
    pages += [
        ("GET", f"/settings/clients/{client}", {}),
        ("POST", f"/settings/clients/{client}", {"name": "Taken over Pty Ltd"}),
        ("POST", f"/settings/clients/{client}/archive", {}),
        ("POST", f"/settings/connections/xero/{client}/connect", {}),
        ("POST", f"/settings/connections/xero/{client}/organisation", {"tenant_id": "t"}),
        ("POST", f"/settings/connections/xero/{client}/disconnect", {}),
        ("POST", "/documents/push", {"client_id": str(client), "transaction_id": "x"}),
    ]
    return pages


# Routes that take an id and are covered here; the Documents pages' ids are extraction's, which
# answers a practice for its own documents only (its tests). A new route taking an id fails the
# next test until it is added to one or the other.
COVERED = {
    "/audit/{entry_id}",
    "/audit/{entry_id}/file-note.md",
    "/audit/{entry_id}/file-note.pdf",
    "/history/{audit_id}",
    "/history/{audit_id}/again",
    "/settings/members/{user_id}/role",
    "/settings/members/{user_id}/remove",
    "/settings/clients/{client_id}",
    "/settings/clients/{client_id}/archive",
    "/settings/connections/xero/{client_id}/connect",
    "/settings/connections/xero/{client_id}/organisation",
    "/settings/connections/xero/{client_id}/disconnect",
    "/source/{source_id:path}",  # ?audit=N: the row is checked (below); the law itself is not a practice's
    "/source/{source_id:path}/text",
    "/documents/{document_id}",
    "/documents/{document_id}/file",
    "/documents/{document_id}/pages/{page}",
    "/documents/{document_id}/corrections",
}


def test_every_route_taking_an_id_is_covered(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    templates = {r.path for r in _all_routes(two[0]) if "{" in getattr(r, "path", "")}
    assert len(templates) >= 10 and templates <= COVERED, templates - COVERED


def _all_routes(app: FastAPI) -> list[Any]:
    found: list[Any] = []
    pending = list(app.routes)
    while pending:
        route = pending.pop(0)
        included = getattr(route, "original_router", None)
        if included is not None:
            pending.extend(included.routes)
        else:
            found.append(route)
    return found


@pytest.mark.parametrize(("who", "other"), [("a", "b"), ("b", "a")])
def test_each_practice_gets_404_for_the_other_s_ids(
    two: tuple[FastAPI, FastAPI, dict[str, Any]], who: str, other: str
) -> None:
    app, stub, ids = two
    me: Account = ids[who]
    them: Account = ids[other]
    client = signed_in(app, me)
    targets = _id_pages((them.user_id, ids[f"{other}_agent"].user_id), ids[f"{other}_client"], ids[f"{other}_rows"])
    asked_before = len(stub.state.requests)
    for method, path, data in targets:
        reply = client.request(method, path, data=data) if method == "POST" else client.get(path)
        assert reply.status_code == 404, (who, method, path, reply.status_code)
        theirs = ("Bravo Pty Ltd" if other == "b" else "Acme Pty Ltd", them.email, ids[f"{other}_agent"].email)
        for secret in theirs:
            assert secret not in _main(reply.text), (who, path, secret)
    assert len(stub.state.requests) == asked_before  # nothing was asked again for another practice's row
    assert stub.state.rows_read == []  # nor was research asked for the row: the history said no first
    store = me.store
    assert {m.role for m in store.members(them.practice_id)} == {Role.OWNER, Role.AGENT}  # unchanged
    assert [c.name for c in store.clients(them.practice_id)] == ["Bravo Pty Ltd" if other == "b" else "Acme Pty Ltd"]
    # Their own ids work.
    mine = _id_pages((ids[f"{who}_agent"].user_id,), ids[f"{who}_client"], ids[f"{who}_own"])
    for method, path, _ in mine:
        if method == "GET" and not path.endswith(".pdf"):
            assert client.get(path).status_code == 200, (who, path)


def _listed(html: str, link: str) -> list[int]:
    return [int(n) for n in re.findall(rf'<a href="/{link}/(\d+)">', html)]


def test_the_lists_show_a_practice_its_own_rows_only(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    app, stub, ids = two
    b = signed_in(app, ids["b"])
    audit = b.get("/audit")
    assert audit.status_code == 200 and _listed(audit.text, "audit") == [B_ROW]
    assert "asked by owner@beta.test (Beta Accounting)" in audit.text and "What aggregated" not in audit.text
    history = b.get("/history").text
    assert _listed(history, "history") == [B_ROW] and "What aggregated" not in history
    assert _listed(b.get("/history", params={"q": "turnover"}).text, "history") == []  # A's questions say turnover
    members = b.get("/settings/members").text
    assert "owner@beta.test" in members and "agent@beta.test" in members and "practice.test" not in _main(members)
    clients = b.get("/settings/clients").text
    assert "Bravo Pty Ltd" in clients and "Acme" not in clients
    a = signed_in(app, ids["a"])
    listed = a.get("/audit").text
    assert _listed(listed, "audit") == [5, 4, 3, 2, 1] and "asked by owner@practice.test (Alpha Tax)" in listed
    assert "Beta" not in _main(listed) and _listed(a.get("/history").text, "history") == [5, 4, 3, 2, 1]
    assert _listed(a.get("/history", params={"q": "payroll"}).text, "history") == []
    assert stub.state.audit_practices == []  # the lists are the practice's history, not research's filter


def test_a_quote_is_checked_only_against_the_practice_s_own_row(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    app, stub, ids = two
    query = f"?audit=1&start={START}&end={START + len(QUOTE)}"
    own = signed_in(app, ids["a"]).get(f"/source/{V2015}{query}")
    assert own.status_code == 200 and 'id="quote"' in own.text
    read = len(stub.state.rows_read)
    foreign = signed_in(app, ids["b"]).get(f"/source/{V2015}{query}")
    assert foreign.status_code == 200 and 'id="quote"' not in foreign.text
    assert "cannot be checked against audit row 1" in foreign.text and "no audit row 1 in this practice" in foreign.text
    assert len(stub.state.rows_read) == read  # research was not asked for another practice's row


def test_a_row_in_the_history_must_also_be_the_practice_s_in_the_audit_log(
    two: tuple[FastAPI, FastAPI, dict[str, Any]],
) -> None:
    """Defence in depth: a history row naming another practice's audit row (a bug, never the web's
    doing) still opens nothing: the audit row itself says whose it is, and both must agree."""
    app, _, ids = two
    b: Account = ids["b"]
    planted = ResearchHistoryEntry(1, b.user_id, None, "Planted?", "income year 2015", "answer", "g", ASKED_AT)
    b.store.record_research(b.practice_id, planted)
    client = signed_in(app, b)
    for path in ("/audit/1", "/audit/1/file-note.md", "/history/1"):
        reply = client.get(path)
        assert reply.status_code == 404 and "owner@practice.test" not in _main(reply.text), path
    query = f"?audit=1&start={START}&end={START + len(QUOTE)}"
    assert 'id="quote"' not in client.get(f"/source/{V2015}{query}").text


# --- who asked -------------------------------------------------------------------------------------


def test_every_research_request_carries_who_asked_and_for_which_client(
    two: tuple[FastAPI, FastAPI, dict[str, Any]],
) -> None:
    app, stub, ids = two
    agent: Account = ids["a_agent"]
    client = signed_in(app, agent)
    who = {"user_id": agent.user_id, "user_email": agent.email, "practice_id": agent.practice_id}
    form = {"question": "Turnover?", "period": "income_year", "income_year": "2015"}
    assert client.post("/research", data=form | {"client_id": str(ids["a_client"])}).status_code == 200
    assert stub.state.asked_by[-1] == who | {"client_id": ids["a_client"]}
    assert client.post("/stream", json={"question": "Turnover?"}).status_code == 200
    assert stub.state.asked_by[-1] == who
    streamed = client.post("/stream", json={"question": "Turnover?", "client_id": ids["a_client"]})
    assert streamed.status_code == 200 and stub.state.asked_by[-1] == who | {"client_id": ids["a_client"]}
    assert client.post("/history/3/again").status_code == 200
    assert stub.state.asked_by[-1] == who  # row 3 had no client
    body = {
        "question": "Turnover?",
        "income_year": 2015,
        "asked_by": {"user_id": 99, "user_email": "x@y.z", "practice_id": 2},
    }
    client.post("/across-years/stream", json=body)  # the body's asked_by is replaced by the session's
    asked = len(stub.state.asked_by)
    client.post("/research", data=form | {"client_id": str(ids["b_client"])})
    refused = client.post("/stream", json={"question": "Turnover?", "client_id": ids["b_client"]})
    assert refused.status_code == 422 and "your practice's current clients" in refused.json()["message"]
    assert len(stub.state.asked_by) == asked  # another practice's client: nothing asked
    agent.store.archive_client(agent.practice_id, ids["a_client"])
    archived = client.post("/research", data=form | {"client_id": str(ids["a_client"])})
    assert archived.status_code == 422 and len(stub.state.asked_by) == asked


def test_a_reviewer_asks_nothing(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    app, stub, ids = two
    reviewer = add_member(ids["a"], "reviewer@practice.test", Role.REVIEWER)
    client = signed_in(app, reviewer)
    assert client.get("/research").status_code == 200
    assert client.post("/research", data={"question": "Turnover?"}).status_code == 403
    assert client.post("/stream", json={"question": "Turnover?"}).status_code == 403
    assert client.post("/history/3/again").status_code == 403
    assert stub.state.asked_by == []


def test_the_audit_pages_say_who_asked(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    app, _, ids = two
    row = signed_in(app, ids["a"]).get("/audit/3")
    assert row.status_code == 200 and "Asked by" in row.text
    assert "asked by owner@practice.test (Alpha Tax)" in row.text
    b_row = signed_in(app, ids["b"]).get(f"/audit/{B_ROW}")
    assert b_row.status_code == 200 and "asked by owner@beta.test (Beta Accounting)" in b_row.text
    history = signed_in(app, ids["a"]).get("/history/3")
    assert "Asked by owner@practice.test (Alpha Tax)." in history.text


def _main(html: str) -> str:
    """The page's main content (the header names the signed-in user)."""
    found = re.search(r"<main[^>]*>(.*)</main>", html, re.S)
    return found.group(1) if found else html


def test_clients_of_the_form_are_the_practice_s(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    app, _, ids = two
    page: TestClient = signed_in(app, ids["b"])
    html = page.get("/research").text
    assert "Bravo Pty Ltd" in html and "Acme Pty Ltd" not in html


# --- the history is written as research answers ------------------------------------------------


class Numbered(httpx.AsyncBaseTransport):
    """Research answering each question with a new audit row (odd rows answered, even abstained),
    across years two rows a request; anything else is the stub's."""

    def __init__(self, stub: FastAPI) -> None:
        self.stub = httpx.ASGITransport(app=stub)
        self.rows = itertools.count(101)
        self.given: list[int] = []

    def _outcome(self) -> dict[str, Any]:
        row = next(self.rows)
        self.given.append(row)
        return outcome(answered=row % 2 == 1, audit_id=row)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v1/research":
            return httpx.Response(200, json=self._outcome())
        if path == "/v1/research/stream":
            return _events([("result", self._outcome())])
        if path == "/v1/research/across-years":
            early, late = year_2015(), year_2026()
            for year in (early, late):
                year["outcome"]["audit_id"] = next(self.rows)
                self.given.append(year["outcome"]["audit_id"])
            return _events([("plan", plan()), ("year", early), ("year", late), ("done", {})])
        return await self.stub.handle_async_request(request)


def _events(events: list[tuple[str, dict[str, Any]]]) -> httpx.Response:
    text = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
    return httpx.Response(200, text=text, headers={"content-type": "text/event-stream"})


def test_every_answered_or_abstained_turn_writes_a_history_row(two: tuple[FastAPI, FastAPI, dict[str, Any]]) -> None:
    _, stub, ids = two
    agent: Account = ids["a_agent"]
    research = Numbered(stub)
    app = web_app(httpx.AsyncClient(transport=research, base_url=RESEARCH), agent.store)
    client = signed_in(app, agent)
    form = {"question": "Turnover?", "period": "income_year", "income_year": "2015"}
    assert client.post("/research", data=form | {"client_id": str(ids["a_client"])}).status_code == 200  # 101
    assert "event: result" in client.post("/stream", json={"question": "Payroll?"}).text  # 102, abstained
    chat = client.post("/stream", json={"question": "Chat?", "mode": "chat", "client_id": ids["a_client"]})
    assert "event: result" in chat.text  # 103
    assert client.post("/history/3/again").status_code == 200  # 104
    assert "event: done" in client.post("/across-years/stream", json={"question": "Turnover?"}).text  # 105, 106
    full = client.get("/across-years", params={"question": "Turnover?", "income_year": 2026, "full": 1})
    assert full.status_code == 200  # 107, 108
    assert research.given == list(range(101, 109))
    history = {e.audit_id: e for e in agent.store.research_history(agent.practice_id, None, 500)}
    assert set(history) == set(range(101, 109)) | set(A_ALL)
    for row in range(101, 109):
        assert history[row].user_id == agent.user_id and history[row].period.startswith("income year ")
    assert [history[r].question for r in (101, 102, 103, 104)] == [
        "Turnover?",
        "Payroll?",
        "Chat?",
        "What aggregated turnover made a business a small business entity?",
    ]
    assert [history[r].client_id for r in (101, 102, 103, 104, 105)] == [
        ids["a_client"],
        None,
        ids["a_client"],
        None,
        None,
    ]
    assert [history[r].decision for r in (101, 102)] == ["answer", "abstain_low_relevance"]
    assert [history[r].period for r in (105, 106)] == ["income year 2015", "income year 2026"]
    listed = _listed(client.get("/history").text, "history")
    assert listed[:8] == list(range(108, 100, -1))
    b: Account = ids["b"]
    assert [e.audit_id for e in b.store.research_history(b.practice_id, None, 500)] == [B_ROW]
    theirs = signed_in(app, b)
    for row in range(101, 109):
        assert theirs.get(f"/audit/{row}").status_code == 404
        assert theirs.get(f"/history/{row}").status_code == 404


class HistoryDown(InMemoryAccountsStore):
    """An accounts store whose research history cannot be written (the database failed)."""

    def record_research(self, practice_id: int, entry: ResearchHistoryEntry) -> ResearchHistoryEntry:
        raise AccountsStoreError("the accounts database failed: connection lost")


def test_an_answer_that_cannot_be_kept_in_the_history_is_not_shown() -> None:
    store = HistoryDown(KeyRing((KEY,)))
    owner = add_practice(store)
    client = signed_in(web_app(create_stub(), store), owner)
    streamed = client.post("/stream", json={"question": "Turnover?", "income_year": 2015})
    assert "event: result" not in streamed.text and "event: error" in streamed.text
    assert "could not be kept in your practice&#39;s research history" in streamed.text
    assert QUOTE not in streamed.text.replace("<mark>", "").replace("</mark>", "")
    form = client.post("/research", data={"question": "Turnover?", "period": "income_year", "income_year": "2015"})
    assert form.status_code == 503 and "research answered (audit row 1)" in form.text.lower()
    assert 'class="claims"' not in form.text
