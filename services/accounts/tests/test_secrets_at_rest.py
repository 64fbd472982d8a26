"""A saved key is found nowhere in the database in plain text, nor in the logs, nor in any answer."""

from __future__ import annotations

import logging
import secrets

import psycopg
import pytest
from psycopg import sql

from asat_accounts.fields import client_fields
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing

from .support import KEY_1, KEY_2, AccountsDatabase, cheap_hash

pytestmark = pytest.mark.postgres

# Column types that can hold text or bytes (domains and arrays of them are read through ::text).
_SEARCHED_TYPES = ("text", "character varying", "character", "bytea", "json", "jsonb", "name", "ARRAY", "USER-DEFINED")


def _columns(admin: psycopg.Connection[tuple[object, ...]]) -> list[tuple[str, str, str, str]]:
    rows = admin.execute(
        "SELECT c.table_schema, c.table_name, c.column_name, c.data_type FROM information_schema.columns c"
        " JOIN information_schema.tables t ON (t.table_schema, t.table_name) = (c.table_schema, c.table_name)"
        " WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')"
        " AND c.table_schema NOT LIKE 'pg_toast%%' AND c.data_type = ANY(%s)"
        " ORDER BY 1, 2, 3",
        (list(_SEARCHED_TYPES),),
    ).fetchall()
    return [(str(s), str(t), str(c), str(d)) for s, t, c, d in rows]


def _places_holding(db: AccountsDatabase, needle: str) -> list[str]:
    """Every column (of every table in every schema, read as the superuser) whose value contains
    ``needle`` as text, or its UTF-8 bytes in a bytea column."""
    found: list[str] = []
    with db.admin() as admin:
        columns = _columns(admin)
        assert ("app", "secrets", "ciphertext", "bytea") in columns
        assert ("app", "secrets", "hint", "text") in columns
        for schema, table, column, data_type in columns:
            target = sql.Identifier(schema, table)
            field = sql.Identifier(column)
            if data_type == "bytea":
                query = sql.SQL("SELECT count(*) FROM {} WHERE position(convert_to(%s, 'UTF8') IN {}) > 0").format(
                    target, field
                )
            else:
                query = sql.SQL("SELECT count(*) FROM {} WHERE strpos({}::text, %s) > 0").format(target, field)
            row = admin.execute(query, (needle,)).fetchone()
            if row is not None and row[0]:
                found.append(f"{schema}.{table}.{column}")
    return found


def test_a_saved_key_is_not_in_the_database_in_plain_text(
    accounts_db: AccountsDatabase, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    key = "sk-proj-" + secrets.token_urlsafe(32)
    token = "xero-refresh-" + secrets.token_hex(24)
    with PostgresAccountsStore(accounts_db.app_url, KeyRing((KEY_1,))) as store:
        practice, _ = store.create_practice("At rest", f"rest-{secrets.token_hex(4)}@example.com.au", cheap_hash())
        saved = store.save_secret(practice.id, "provider.openai", key)
        store.save_secret(practice.id, "connection:xero:1", token)
        answers = [saved, store.secrets(practice.id)]
    with PostgresAccountsStore(accounts_db.app_url, KeyRing((KEY_2, KEY_1))) as rotated:
        revealed = rotated.reveal_secret(practice.id, "provider.openai")  # re-sealed under k2 as read
        assert revealed is not None and revealed.reveal() == key
        answers.append(rotated.secrets(practice.id))
    for value in (key, token):
        assert _places_holding(accounts_db, value) == []
        assert _places_holding(accounts_db, value[8:30]) == []  # nor a long piece of it
        assert value not in caplog.text
        assert all(value not in repr(answer) for answer in answers)
    # The check finds what is there: the hint's last four, and a key pasted into a client's notes.
    assert "app.secrets.hint" in _places_holding(accounts_db, key[-4:])
    with PostgresAccountsStore(accounts_db.app_url) as store:
        store.add_client(practice.id, client_fields("Careless", None, f"their key is {key}"))
    assert _places_holding(accounts_db, key) == ["app.clients.notes"]
