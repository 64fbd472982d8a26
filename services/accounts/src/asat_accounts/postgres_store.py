"""The Postgres AccountsStore: schema ``app`` over plain psycopg 3, under row-level security.

Every operation is one transaction. One in a practice first runs ``set_config('app.practice_id',
<id>, true)`` (what ``SET LOCAL app.practice_id = <id>`` does, with the id as a parameter), so
the tables' policies return and accept that practice's rows only; the setting ends with the
transaction, and a query with no practice set fails instead of seeing everything. Sign-in sets
``app.sign_in_email``, a signed-in user's own reads ``app.user_id``.

The store refuses to start (``AccountsStartupError``) unless its role is bound by row-level
security (``asat_accounts.role_check``) and the schema is up to date. It holds one connection,
shared by its threads under a lock, and reconnects (checking again) after the connection breaks.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any, LiteralString, Self

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import DictRow, dict_row

from asat_accounts.errors import (
    AccountsConflictError,
    AccountsInputError,
    AccountsNotFoundError,
    AccountsStartupError,
    AccountsStoreError,
)
from asat_accounts.fields import (
    MAX_AUDIT_ID,
    client_address,
    display_name,
    history_entry,
    history_search,
    normalise_email,
    provider_fields,
    secret_name,
)
from asat_accounts.fields import positive_id as _id
from asat_accounts.fields import require_password_hash as _require_hash
from asat_accounts.memberships import last_owner_problem
from asat_accounts.migrate import MIGRATE_COMMAND, load_migrations
from asat_accounts.model import (
    Client,
    ClientFields,
    Member,
    Membership,
    Practice,
    ProviderSettings,
    ResearchHistoryEntry,
    Role,
    SecretInfo,
    SecretValue,
    SignInAttempts,
    SignInCandidate,
    User,
    WebSession,
)
from asat_accounts.role_check import require_safe_app_role
from asat_accounts.secret_box import (
    KEY_ENV,
    KeyRing,
    RandomBytes,
    Sealed,
    SecretKeyError,
    key_ring_from_env,
    mask,
    needs_reseal,
    open_sealed,
    seal,
)
from asat_accounts.sessions import token_digest
from asat_accounts.throttle import ThrottleRule, after_failure

DATABASE_URL_ENV = "ASAT_DATABASE_URL"
CONNECT_TIMEOUT_S = 5
MAX_SECRET_CHARS = 16_384
_USER_COLUMNS = "u.id, u.email, u.created_at, u.disabled_at"
_CLIENT_COLUMNS = "id, practice_id, name, abn, notes, created_at, updated_at, archived_at"
_SECRET_COLUMNS = "name, hint, key_id, created_at, updated_at"
_SESSION_COLUMNS = "id, user_id, practice_id, csrf_token, created_at, last_seen_at, expires_at"
_PROVIDER_COLUMNS = "provider, base_url, model, updated_at"
_HISTORY_COLUMNS = "audit_id, user_id, client_id, question, period, decision, corpus_generation, asked_at"


def connect(url: str) -> psycopg.Connection[DictRow]:
    """An autocommit connection returning dict rows; ``AccountsStartupError`` says why it failed."""
    try:
        return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        raise AccountsStartupError(
            f"cannot connect to the accounts database: {str(exc).strip()}. Check {DATABASE_URL_ENV} and that "
            "Postgres is running"
        ) from exc


class PostgresAccountsStore:
    """``AccountsStore`` over Postgres. ``key_ring`` (``ASAT_SECRET_KEY``) is needed for secrets only."""

    def __init__(self, url: str, key_ring: KeyRing | None = None, random_bytes: RandomBytes = os.urandom) -> None:
        self._url = url
        self._ring = key_ring
        self._random = random_bytes
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[DictRow] | None = None
        with self._lock:
            self._connection()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PostgresAccountsStore:
        """The store ``ASAT_DATABASE_URL`` names, with ``ASAT_SECRET_KEY``'s keys when it is set
        (a malformed value is refused here, at start; an empty one, as a compose file passes an
        unset variable, counts as unset)."""
        url = env.get(DATABASE_URL_ENV, "").strip()
        if not url:
            raise AccountsStartupError(
                f"no database URL: set {DATABASE_URL_ENV} to the app role's (e.g. postgresql://asat_app@127.0.0.1:5432/asat)"
            )
        ring = key_ring_from_env(env) if env.get(KEY_ENV, "").strip() else None
        return cls(url, ring)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- across practices ------------------------------------------------------------------

    def user_count(self) -> int:
        with self._transaction({}) as conn:
            return int(_one(conn, "SELECT app.user_count() AS n", ())["n"])

    def practice_ids(self) -> tuple[int, ...]:
        with self._transaction({}) as conn:
            rows = conn.execute("SELECT id FROM app.practice_ids() AS id").fetchall()
        return tuple(int(row["id"]) for row in rows)

    def create_practice(self, name: str, owner_email: str, owner_password_hash: str) -> tuple[Practice, Member]:
        practice_name = display_name(name, "practice")
        email = normalise_email(owner_email)
        _require_hash(owner_password_hash)
        with self._transaction({}, conflict=f"a user with email {email} already exists") as conn:
            practice_id = int(
                _one(conn, "SELECT nextval(pg_get_serial_sequence('app.practices', 'id')) AS id", ())["id"]
            )
            conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(practice_id),))
            practice = _practice(
                _one(
                    conn,
                    "INSERT INTO app.practices (id, name) VALUES (%s, %s) RETURNING id, name, created_at",
                    (practice_id, practice_name),
                )
            )
            member = _insert_member(conn, practice_id, email, owner_password_hash, Role.OWNER)
        return practice, member

    def find_user_for_sign_in(self, email: str) -> SignInCandidate | None:
        try:
            address = normalise_email(email)
        except AccountsInputError:
            return None
        with self._transaction({"app.sign_in_email": address}) as conn:
            row = conn.execute(
                f"SELECT {_USER_COLUMNS}, u.password_hash FROM app.users u WHERE u.email = %s", (address,)
            ).fetchone()
        return None if row is None else SignInCandidate(_user(row), str(row["password_hash"]))

    def memberships_of(self, user_id: int) -> tuple[Membership, ...]:
        with self._transaction({"app.user_id": _id(user_id, "user")}) as conn:
            rows = conn.execute(
                "SELECT m.practice_id, p.name, m.role FROM app.memberships m"
                " JOIN app.practices p ON p.id = m.practice_id WHERE m.user_id = %s ORDER BY lower(p.name), p.id",
                (user_id,),
            ).fetchall()
        return tuple(Membership(int(r["practice_id"]), str(r["name"]), Role(r["role"])) for r in rows)

    def set_own_password_hash(self, user_id: int, password_hash: str) -> None:
        _require_hash(password_hash)
        with self._transaction({"app.user_id": _id(user_id, "user")}) as conn:
            changed = conn.execute(
                "UPDATE app.users SET password_hash = %s WHERE id = %s", (password_hash, user_id)
            ).rowcount
        if changed != 1:
            raise AccountsNotFoundError(f"no user {user_id}: sign in again")

    # --- sign-in attempts and web sessions ----------------------------------------------------

    def sign_in_attempts(self, address: str) -> SignInAttempts:
        where = client_address(address)
        with self._transaction({"app.sign_in_address": where}) as conn:
            row = conn.execute(
                "SELECT failures, locked_until FROM app.sign_in_attempts WHERE address = %s", (where,)
            ).fetchone()
        return SignInAttempts() if row is None else _attempts(row)

    def record_sign_in_failure(self, address: str, now: datetime, rule: ThrottleRule) -> SignInAttempts:
        where = client_address(address)
        with self._transaction({"app.sign_in_address": where}) as conn:
            # The row first, then locked: two failures at once are both counted.
            conn.execute(
                "INSERT INTO app.sign_in_attempts (address) VALUES (%s) ON CONFLICT (address) DO NOTHING", (where,)
            )
            row = _one(
                conn,
                "SELECT failures, locked_until FROM app.sign_in_attempts WHERE address = %s FOR UPDATE",
                (where,),
            )
            updated = after_failure(_attempts(row), now, rule)
            conn.execute(
                "UPDATE app.sign_in_attempts SET failures = %s::timestamptz[], locked_until = %s, updated_at = now()"
                " WHERE address = %s",
                (list(updated.failures), updated.locked_until, where),
            )
        return updated

    def create_session(
        self,
        user_id: int,
        practice_id: int | None,
        token: str,
        csrf_token: str,
        now: datetime,
        expires_at: datetime,
    ) -> WebSession:
        digest = token_digest(token)
        settings = {"app.session_digest": digest, "app.user_id": _id(user_id, "user")}
        if practice_id is not None:
            settings["app.practice_id"] = _id(practice_id, "practice")
        with self._transaction(settings, conflict="that session token is in use: sign in again") as conn:
            if practice_id is not None:
                _require_membership(conn, user_id, practice_id)
            conn.execute("DELETE FROM app.sessions WHERE user_id = %s AND expires_at <= %s", (user_id, now))
            row = _one(
                conn,
                "INSERT INTO app.sessions (token_digest, user_id, practice_id, csrf_token, created_at, last_seen_at,"
                f" expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_SESSION_COLUMNS}",
                (digest, user_id, practice_id, csrf_token, now, now, expires_at),
            )
            session = _session_of(conn, row)
        if session is None:  # pragma: no cover - the user was just checked
            raise AccountsNotFoundError(f"no user {user_id}: sign in again")
        return session

    def find_session(self, token: str) -> WebSession | None:
        digest = token_digest(token)
        with self._transaction({"app.session_digest": digest}) as conn:
            row = conn.execute(
                f"SELECT {_SESSION_COLUMNS} FROM app.sessions WHERE token_digest = %s", (digest,)
            ).fetchone()
            return None if row is None else _session_of(conn, row)

    def touch_session(self, token: str, now: datetime) -> None:
        digest = token_digest(token)
        with self._transaction({"app.session_digest": digest}) as conn:
            row = conn.execute("SELECT practice_id FROM app.sessions WHERE token_digest = %s", (digest,)).fetchone()
            if row is None:
                return
            if row["practice_id"] is not None:
                conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(row["practice_id"]),))
            conn.execute(
                "UPDATE app.sessions SET last_seen_at = greatest(last_seen_at, %s) WHERE token_digest = %s",
                (now, digest),
            )

    def choose_session_practice(self, token: str, practice_id: int) -> WebSession:
        digest = token_digest(token)
        chosen = _id(practice_id, "practice")
        with self._transaction({"app.session_digest": digest}) as conn:
            row = conn.execute("SELECT user_id FROM app.sessions WHERE token_digest = %s", (digest,)).fetchone()
            if row is None:
                raise AccountsNotFoundError("no such session: sign in again")
            user_id = int(row["user_id"])
            conn.execute("SELECT set_config('app.user_id', %s, true)", (str(user_id),))
            _require_membership(conn, user_id, practice_id)
            conn.execute("SELECT set_config('app.practice_id', %s, true)", (chosen,))
            updated = _one(
                conn,
                f"UPDATE app.sessions SET practice_id = %s WHERE token_digest = %s RETURNING {_SESSION_COLUMNS}",
                (practice_id, digest),
            )
            session = _session_of(conn, updated)
        if session is None:
            raise AccountsNotFoundError("no such session: sign in again")
        return session

    def end_session(self, token: str) -> bool:
        digest = token_digest(token)
        with self._transaction({"app.session_digest": digest}) as conn:
            return conn.execute("DELETE FROM app.sessions WHERE token_digest = %s", (digest,)).rowcount == 1

    def end_other_sessions(self, user_id: int, keep_token: str | None) -> int:
        keep = token_digest(keep_token) if keep_token is not None else ""
        with self._transaction({"app.user_id": _id(user_id, "user")}) as conn:
            return int(
                conn.execute(
                    "DELETE FROM app.sessions WHERE user_id = %s AND token_digest <> %s", (user_id, keep)
                ).rowcount
            )

    # --- in one practice -------------------------------------------------------------------

    def practice(self, practice_id: int) -> Practice | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "SELECT id, name, created_at FROM app.practices WHERE id = %s", (practice_id,)
            ).fetchone()
        return None if row is None else _practice(row)

    def rename_practice(self, practice_id: int, name: str) -> Practice:
        new_name = display_name(name, "practice")
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "UPDATE app.practices SET name = %s WHERE id = %s RETURNING id, name, created_at",
                (new_name, practice_id),
            ).fetchone()
        if row is None:
            raise AccountsNotFoundError(f"no practice {practice_id}")
        return _practice(row)

    def members(self, practice_id: int) -> tuple[Member, ...]:
        with self._in_practice(practice_id) as conn:
            return _members(conn, practice_id)

    def add_member(self, practice_id: int, email: str, password_hash: str, role: Role) -> Member:
        address = normalise_email(email)
        _require_hash(password_hash)
        with self._in_practice(practice_id, conflict=f"a user with email {address} already exists") as conn:
            return _insert_member(conn, practice_id, address, password_hash, Role(role))

    def add_existing_member(self, practice_id: int, email: str, role: Role) -> Member:
        address = normalise_email(email)
        new_role = Role(role)
        with self._in_practice(practice_id, conflict=f"{address} is already a member of this practice") as conn:
            conn.execute("SELECT set_config('app.sign_in_email', %s, true)", (address,))
            row = conn.execute("SELECT id FROM app.users WHERE email = %s", (address,)).fetchone()
            if row is None:
                raise AccountsNotFoundError(f"no user has the email {address}")
            user_id = int(row["id"])
            conn.execute(
                "INSERT INTO app.memberships (practice_id, user_id, role) VALUES (%s, %s, %s)",
                (practice_id, user_id, new_role.value),
            )
            return next(m for m in _members(conn, practice_id) if m.user.id == user_id)

    def set_role(self, practice_id: int, user_id: int, role: Role) -> Member:
        new_role = Role(role)
        with self._in_practice(practice_id) as conn:
            _check_owner_kept(conn, practice_id, user_id, new_role)
            changed = conn.execute(
                "UPDATE app.memberships SET role = %s WHERE practice_id = %s AND user_id = %s",
                (new_role.value, practice_id, user_id),
            ).rowcount
            if changed != 1:
                raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")
            return next(m for m in _members(conn, practice_id) if m.user.id == user_id)

    def remove_member(self, practice_id: int, user_id: int) -> None:
        with self._in_practice(practice_id) as conn:
            _check_owner_kept(conn, practice_id, user_id, None)
            removed = conn.execute(
                "DELETE FROM app.memberships WHERE practice_id = %s AND user_id = %s", (practice_id, user_id)
            ).rowcount
        if removed != 1:
            raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")

    def clients(self, practice_id: int, include_archived: bool = False) -> tuple[Client, ...]:
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(
                f"SELECT {_CLIENT_COLUMNS} FROM app.clients WHERE practice_id = %s"
                " AND (%s OR archived_at IS NULL) ORDER BY lower(name), id",
                (practice_id, include_archived),
            ).fetchall()
        return tuple(_client(r) for r in rows)

    def client(self, practice_id: int, client_id: int) -> Client | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(f"SELECT {_CLIENT_COLUMNS} FROM app.clients WHERE id = %s", (client_id,)).fetchone()
        return None if row is None else _client(row)

    def add_client(self, practice_id: int, fields: ClientFields) -> Client:
        with self._in_practice(practice_id) as conn:
            row = _one(
                conn,
                f"INSERT INTO app.clients (practice_id, name, abn, notes) VALUES (%s, %s, %s, %s) RETURNING {_CLIENT_COLUMNS}",
                (practice_id, fields.name, fields.abn, fields.notes),
            )
        return _client(row)

    def update_client(self, practice_id: int, client_id: int, fields: ClientFields) -> Client:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "UPDATE app.clients SET name = %s, abn = %s, notes = %s, updated_at = now() WHERE id = %s"
                f" RETURNING {_CLIENT_COLUMNS}",
                (fields.name, fields.abn, fields.notes, client_id),
            ).fetchone()
        if row is None:
            raise AccountsNotFoundError(f"no client {client_id} in practice {practice_id}")
        return _client(row)

    def archive_client(self, practice_id: int, client_id: int) -> Client:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "UPDATE app.clients SET archived_at = coalesce(archived_at, now()), updated_at = now() WHERE id = %s"
                f" RETURNING {_CLIENT_COLUMNS}",
                (client_id,),
            ).fetchone()
        if row is None:
            raise AccountsNotFoundError(f"no client {client_id} in practice {practice_id}")
        return _client(row)

    def save_secret(self, practice_id: int, name: str, plaintext: str) -> SecretInfo:
        ring = self._key_ring()
        secret = secret_name(name)
        value = plaintext.strip()
        if not value:
            raise AccountsInputError(f"the value for {secret!r} is empty: paste the key or token itself")
        if len(value) > MAX_SECRET_CHARS:
            raise AccountsInputError(
                f"the value for {secret!r} has {len(value)} characters; at most {MAX_SECRET_CHARS} are stored"
            )
        sealed = seal(ring, practice_id, secret, value, self._random)
        with self._in_practice(practice_id) as conn:
            row = _one(
                conn,
                "INSERT INTO app.secrets (practice_id, name, nonce, ciphertext, key_id, hint)"
                " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (practice_id, name) DO UPDATE SET"
                " nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, key_id = EXCLUDED.key_id,"
                f" hint = EXCLUDED.hint, updated_at = now() RETURNING {_SECRET_COLUMNS}",
                (practice_id, secret, sealed.nonce, sealed.ciphertext, sealed.key_id, mask(value)),
            )
        return _secret_info(row)

    def secrets(self, practice_id: int) -> tuple[SecretInfo, ...]:
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(f"SELECT {_SECRET_COLUMNS} FROM app.secrets ORDER BY name").fetchall()
        return tuple(_secret_info(r) for r in rows)

    def reveal_secret(self, practice_id: int, name: str) -> SecretValue | None:
        ring = self._key_ring()
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "SELECT id, name, nonce, ciphertext, key_id, hint FROM app.secrets WHERE name = %s FOR UPDATE",
                (name,),
            ).fetchone()
            if row is None:
                return None
            value = open_sealed(ring, practice_id, name, _sealed(row))
            if needs_reseal(ring, _sealed(row)):
                _store_sealed(conn, int(row["id"]), seal(ring, practice_id, name, value, self._random))
        return SecretValue(value, str(row["hint"]))

    def delete_secret(self, practice_id: int, name: str) -> bool:
        with self._in_practice(practice_id) as conn:
            return conn.execute("DELETE FROM app.secrets WHERE name = %s", (name,)).rowcount == 1

    def reencrypt_secrets(self, practice_id: int) -> int:
        ring = self._key_ring()
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(
                "SELECT id, name, nonce, ciphertext, key_id FROM app.secrets WHERE key_id <> %s ORDER BY id FOR UPDATE",
                (ring.current.key_id,),
            ).fetchall()
            for row in rows:
                name = str(row["name"])
                value = open_sealed(ring, practice_id, name, _sealed(row))
                _store_sealed(conn, int(row["id"]), seal(ring, practice_id, name, value, self._random))
        return len(rows)

    def provider_settings(self, practice_id: int) -> ProviderSettings | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(f"SELECT {_PROVIDER_COLUMNS} FROM app.provider_settings").fetchone()
        return None if row is None else _provider(row)

    def save_provider_settings(self, practice_id: int, provider: str, base_url: str, model: str) -> ProviderSettings:
        kind, url, name = provider_fields(provider, base_url, model)
        with self._in_practice(practice_id) as conn:
            row = _one(
                conn,
                "INSERT INTO app.provider_settings (practice_id, provider, base_url, model) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (practice_id) DO UPDATE SET provider = EXCLUDED.provider, base_url = EXCLUDED.base_url,"
                f" model = EXCLUDED.model, updated_at = now() RETURNING {_PROVIDER_COLUMNS}",
                (practice_id, kind, url, name),
            )
        return _provider(row)

    def record_research(self, practice_id: int, entry: ResearchHistoryEntry) -> ResearchHistoryEntry:
        checked = history_entry(entry)
        with self._in_practice(practice_id) as conn:
            _require_member_and_client(conn, practice_id, checked.user_id, checked.client_id)
            conn.execute(
                f"INSERT INTO app.research_history (practice_id, {_HISTORY_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (practice_id, audit_id) DO NOTHING",
                (
                    practice_id,
                    checked.audit_id,
                    checked.user_id,
                    checked.client_id,
                    checked.question,
                    checked.period,
                    checked.decision,
                    checked.corpus_generation,
                    checked.asked_at,
                ),
            )
            row = _one(
                conn,
                f"SELECT {_HISTORY_COLUMNS} FROM app.research_history WHERE audit_id = %s",
                (checked.audit_id,),
            )
        return _history(row)

    def research_history(self, practice_id: int, contains: str | None, last: int) -> tuple[ResearchHistoryEntry, ...]:
        text, limit = history_search(contains, last)
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(
                f"SELECT {_HISTORY_COLUMNS} FROM app.research_history"
                " WHERE (%s::text IS NULL OR strpos(lower(question), lower(%s::text)) > 0)"
                " ORDER BY audit_id DESC LIMIT %s",
                (text, text, limit),
            ).fetchall()
        return tuple(_history(r) for r in rows)

    def owns_audit_row(self, practice_id: int, audit_id: int) -> bool:
        if isinstance(audit_id, bool) or not isinstance(audit_id, int) or not 1 <= audit_id <= MAX_AUDIT_ID:
            return False
        with self._in_practice(practice_id) as conn:
            found = conn.execute("SELECT 1 FROM app.research_history WHERE audit_id = %s", (audit_id,)).fetchone()
        return found is not None

    # --- connection and transactions -------------------------------------------------------

    def _key_ring(self) -> KeyRing:
        if self._ring is None:
            raise SecretKeyError(
                f"{KEY_ENV} is not set, so secrets cannot be saved or read: generate one with "
                f"`python -m asat_accounts generate-key` and set it for this service"
            )
        return self._ring

    @contextmanager
    def _in_practice(self, practice_id: int, conflict: str | None = None) -> Iterator[psycopg.Connection[DictRow]]:
        with self._transaction({"app.practice_id": _id(practice_id, "practice")}, conflict) as conn:
            yield conn

    @contextmanager
    def _transaction(
        self, settings: Mapping[str, str], conflict: str | None = None
    ) -> Iterator[psycopg.Connection[DictRow]]:
        """One transaction with ``settings`` set locally; psycopg errors become accounts errors."""
        with self._lock:
            try:
                conn = self._connection()
                with conn.transaction():
                    for name, value in settings.items():
                        conn.execute("SELECT set_config(%s, %s, true)", (name, value))
                    yield conn
            except AccountsStartupError as exc:
                raise AccountsStoreError(f"accounts unavailable: {exc}") from exc
            except pg_errors.UniqueViolation as exc:
                raise AccountsConflictError(conflict or f"already stored: {_detail(exc)}") from exc
            except pg_errors.CheckViolation as exc:
                raise AccountsInputError(f"the database refused a value: {_detail(exc)}") from exc
            except pg_errors.InsufficientPrivilege as exc:
                raise AccountsStoreError(
                    f"refused by row-level security (a row of another practice, or no practice set): {_detail(exc)}"
                ) from exc
            except psycopg.Error as exc:
                self._drop_if_broken()
                raise AccountsStoreError(f"the accounts database failed: {_detail(exc)}") from exc

    def _connection(self) -> psycopg.Connection[DictRow]:
        """The live connection (caller holds ``_lock``), reconnecting and re-checking after a break."""
        if self._conn is None or self._conn.closed or self._conn.broken:
            conn = connect(self._url)
            try:
                _check_ready(conn)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _drop_if_broken(self) -> None:
        if self._conn is not None and (self._conn.closed or self._conn.broken):
            self._conn.close()
            self._conn = None


def _check_ready(conn: psycopg.Connection[DictRow]) -> None:
    require_safe_app_role(conn)
    needed = len(load_migrations())
    row = conn.execute("SELECT coalesce(max(version), 0) AS version FROM app.schema_migrations").fetchone()
    have = int(row["version"]) if row is not None else 0
    if have < needed:
        raise AccountsStartupError(
            f"schema app is at version {have} and this code needs {needed}: run `{MIGRATE_COMMAND}` "
            "with ASAT_ACCOUNTS_MIGRATE_URL set to the owner role"
        )


def _insert_member(
    conn: psycopg.Connection[DictRow], practice_id: int, email: str, password_hash: str, role: Role
) -> Member:
    # The id first, so the row need not be readable before it is a member (no RETURNING).
    user_id = int(_one(conn, "SELECT nextval(pg_get_serial_sequence('app.users', 'id')) AS id", ())["id"])
    conn.execute(
        "INSERT INTO app.users (id, email, password_hash) VALUES (%s, %s, %s)", (user_id, email, password_hash)
    )
    conn.execute(
        "INSERT INTO app.memberships (practice_id, user_id, role) VALUES (%s, %s, %s)",
        (practice_id, user_id, role.value),
    )
    return next(m for m in _members(conn, practice_id) if m.user.id == user_id)


def _members(conn: psycopg.Connection[DictRow], practice_id: int) -> tuple[Member, ...]:
    rows = conn.execute(
        f"SELECT {_USER_COLUMNS}, m.role, m.created_at AS joined_at FROM app.memberships m"
        " JOIN app.users u ON u.id = m.user_id WHERE m.practice_id = %s ORDER BY u.email",
        (practice_id,),
    ).fetchall()
    return tuple(Member(_user(r), practice_id, Role(r["role"]), r["joined_at"]) for r in rows)


def _require_membership(conn: psycopg.Connection[DictRow], user_id: int, practice_id: int) -> None:
    """Refuse a practice the user (``app.user_id`` set) does not belong to, as not found."""
    found = conn.execute(
        "SELECT 1 FROM app.memberships WHERE user_id = %s AND practice_id = %s", (user_id, practice_id)
    ).fetchone()
    if found is None:
        raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")


def _require_member_and_client(
    conn: psycopg.Connection[DictRow], practice_id: int, user_id: int, client_id: int | None
) -> None:
    """Refuse a history row of a user who is not a member, or a client that is not the practice's
    (the transaction acts for the practice, so another practice's rows are not seen), as not found."""
    member = conn.execute(
        "SELECT 1 FROM app.memberships WHERE practice_id = %s AND user_id = %s", (practice_id, user_id)
    ).fetchone()
    if member is None:
        raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")
    if client_id is not None:
        client = conn.execute("SELECT 1 FROM app.clients WHERE id = %s", (client_id,)).fetchone()
        if client is None:
            raise AccountsNotFoundError(f"no client {client_id} in practice {practice_id}")


def _session_of(conn: psycopg.Connection[DictRow], row: Mapping[str, Any]) -> WebSession | None:
    """The session ``row`` with its user and their role now (the transaction sees the session)."""
    user_id = int(row["user_id"])
    conn.execute("SELECT set_config('app.user_id', %s, true)", (str(user_id),))
    user_row = conn.execute(f"SELECT {_USER_COLUMNS} FROM app.users u WHERE u.id = %s", (user_id,)).fetchone()
    if user_row is None or user_row["disabled_at"] is not None:
        return None
    membership = None
    if row["practice_id"] is not None:
        found = conn.execute(
            "SELECT m.practice_id, p.name, m.role FROM app.memberships m JOIN app.practices p ON p.id = m.practice_id"
            " WHERE m.user_id = %s AND m.practice_id = %s",
            (user_id, row["practice_id"]),
        ).fetchone()
        if found is None:  # pragma: no cover - the membership's removal removes its sessions
            return None
        membership = Membership(int(found["practice_id"]), str(found["name"]), Role(found["role"]))
    return WebSession(
        id=int(row["id"]),
        user=_user(user_row),
        practice=membership,
        csrf_token=str(row["csrf_token"]),
        created_at=row["created_at"],
        last_seen_at=row["last_seen_at"],
        expires_at=row["expires_at"],
    )


def _history(row: Mapping[str, Any]) -> ResearchHistoryEntry:
    return ResearchHistoryEntry(
        audit_id=int(row["audit_id"]),
        user_id=int(row["user_id"]),
        client_id=None if row["client_id"] is None else int(row["client_id"]),
        question=str(row["question"]),
        period=str(row["period"]),
        decision=str(row["decision"]),
        corpus_generation=str(row["corpus_generation"]),
        asked_at=row["asked_at"],
    )


def _attempts(row: Mapping[str, Any]) -> SignInAttempts:
    return SignInAttempts(tuple(row["failures"] or ()), row["locked_until"])


def _provider(row: Mapping[str, Any]) -> ProviderSettings:
    return ProviderSettings(str(row["provider"]), str(row["base_url"]), str(row["model"]), row["updated_at"])


def _check_owner_kept(conn: psycopg.Connection[DictRow], practice_id: int, user_id: int, role: Role | None) -> None:
    # Lock the practice's memberships, so two changes cannot each remove "the other" owner.
    conn.execute("SELECT 1 FROM app.memberships WHERE practice_id = %s FOR UPDATE", (practice_id,))
    problem = last_owner_problem(_members(conn, practice_id), user_id, role)
    if problem is not None:
        raise AccountsConflictError(problem)


def _store_sealed(conn: psycopg.Connection[DictRow], secret_id: int, sealed: Sealed) -> None:
    conn.execute(
        "UPDATE app.secrets SET nonce = %s, ciphertext = %s, key_id = %s, updated_at = now() WHERE id = %s",
        (sealed.nonce, sealed.ciphertext, sealed.key_id, secret_id),
    )


def _one(conn: psycopg.Connection[DictRow], query: LiteralString, params: tuple[object, ...]) -> dict[str, Any]:
    row = conn.execute(query, params or None).fetchone()
    if row is None:  # pragma: no cover - every caller's statement returns a row
        raise AccountsStoreError("the database returned no row")
    return row


def _detail(exc: psycopg.Error) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _user(row: Mapping[str, Any]) -> User:
    return User(int(row["id"]), str(row["email"]), row["created_at"], row["disabled_at"])


def _practice(row: Mapping[str, Any]) -> Practice:
    return Practice(int(row["id"]), str(row["name"]), row["created_at"])


def _client(row: Mapping[str, Any]) -> Client:
    return Client(
        id=int(row["id"]),
        practice_id=int(row["practice_id"]),
        name=str(row["name"]),
        abn=None if row["abn"] is None else str(row["abn"]),
        notes=str(row["notes"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        archived_at=row["archived_at"],
    )


def _secret_info(row: Mapping[str, Any]) -> SecretInfo:
    return SecretInfo(str(row["name"]), str(row["hint"]), str(row["key_id"]), row["created_at"], row["updated_at"])


def _sealed(row: Mapping[str, Any]) -> Sealed:
    return Sealed(key_id=str(row["key_id"]), nonce=bytes(row["nonce"]), ciphertext=bytes(row["ciphertext"]))
