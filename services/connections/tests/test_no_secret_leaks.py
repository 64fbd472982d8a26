"""No token or secret in plain text in the database, the logs or any answer: the whole of both
connections run on Postgres (as the app role), with every log record captured at DEBUG (httpx and
httpcore included), then the database read row by row as the superuser."""

from __future__ import annotations

import dataclasses
import json
import logging

import psycopg
import pytest
from psycopg import sql

from asat_connections import (
    REQUIRED_SCOPES,
    ConnectionsError,
    PushResult,
)

from .conftest import Database
from .support import XERO_CLIENT_ID, XERO_CLIENT_SECRET, World, browse, three_bills

pytestmark = pytest.mark.postgres


def _shown(value: object) -> str:
    """Everything an answer shows: its repr and its fields as JSON."""
    parts = [repr(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts.append(json.dumps(dataclasses.asdict(value), default=str))
    return "\n".join(parts)


def _database_text(database: Database) -> str:
    rows: list[str] = []
    with psycopg.connect(database.admin_url) as admin:
        tables = admin.execute(
            "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')"
        ).fetchall()
        for schema, table in tables:
            query = sql.SQL("SELECT t::text FROM {} t").format(sql.Identifier(str(schema), str(table)))
            rows.extend(str(r[0]) for r in admin.execute(query).fetchall())
    return "\n".join(rows)


def test_no_token_or_secret_in_the_database_the_logs_or_the_answers(
    pg_world: World, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    w = pg_world
    caplog.set_level(logging.DEBUG)
    answers: list[object] = []
    errors: list[str] = []

    # Xero: the app, the dance, a push with a refresh in the middle and a failing bill, a background refresh.
    answers.append(w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET))
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    answers.append(start)
    answers.append(w.connections.xero.finish_authorisation(w.practice.id, browse(start.url)))
    ids = w.add_transactions(three_bills())
    w.xero.misbehave("create_invoice", "expired_token")
    w.xero.misbehave("create_invoice", "server_error", times=None, when=lambda i: i.get("InvoiceNumber") == "B-7")
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert [o.result for o in report.outcomes] == [PushResult.CREATED, PushResult.CREATED, PushResult.FAILED]
    answers.extend([report, *report.outcomes, *w.connections.push.pushed(w.practice.id, ids).values()])
    w.clock.advance(minutes=25)
    answers.extend(w.connections.xero.refresh_due(w.practice.id))
    answers.extend([w.connections.xero.app(w.practice.id), *w.connections.xero.connections(w.practice.id)])

    # HubSpot: a token refused for its scopes, then one accepted, an import.
    narrow = w.hubspot.issue_token(["crm.objects.companies.read"])
    try:
        w.connections.hubspot.connect(w.practice.id, narrow)
    except ConnectionsError as exc:
        errors.append(str(exc))
    token = w.hubspot.issue_token(list(REQUIRED_SCOPES))
    w.hubspot.add_company("Leak Test Pty Ltd")
    answers.append(w.connections.hubspot.connect(w.practice.id, token))
    answers.append(w.connections.hubspot.import_companies(w.practice.id))
    answers.extend(w.accounts.secrets(w.practice.id))

    secrets = {s for s in w.xero.issued if len(s) >= 16} | {XERO_CLIENT_SECRET, narrow, token}
    assert len(secrets) >= 8  # codes, access/refresh/id tokens, a verifier, the app secret, two HubSpot tokens

    stored = _database_text(database)
    for secret in [*secrets, XERO_CLIENT_ID]:
        assert secret not in stored
        assert secret.encode().hex() not in stored  # nor as bytes (bytea prints as hex)

    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "PUT /api.xro/2.0/Invoices" in logged  # the logs were captured
    shown = "\n".join([*(_shown(a) for a in answers), *errors])
    for secret in secrets:
        assert secret not in logged, "a secret reached the logs"
        assert secret not in shown, "a secret reached an answer"

    answers.append(w.connections.xero.disconnect(w.practice.id, w.client.id))
    assert w.connections.hubspot.disconnect(w.practice.id)
    assert {s.name for s in w.accounts.secrets(w.practice.id)} == {
        "connection:xero:app:client-id",
        "connection:xero:app:client-secret",
    }
