"""An in-memory AccountsStore for tests and demos: the Postgres store's behaviour, without a database.

It passes the same contract suite as ``PostgresAccountsStore`` (``services/accounts/tests/
store_contract.py``): every operation in a practice touches that practice's rows only and reports
another practice's as not found; secrets are sealed with the same ``secret_box`` under the same
key ring (and need it); emails are one user each; the last owner stays; a session acts only for a
practice its user belongs to and goes when the membership goes. Nothing is persisted. The clock
stands in for the database's ``now()``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from asat_accounts.errors import AccountsConflictError, AccountsInputError, AccountsNotFoundError
from asat_accounts.fields import (
    MAX_AUDIT_ID,
    client_address,
    display_name,
    history_entry,
    history_search,
    normalise_email,
    positive_id,
    provider_fields,
    require_password_hash,
    secret_name,
)
from asat_accounts.memberships import last_owner_problem
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
from asat_accounts.postgres_store import MAX_SECRET_CHARS
from asat_accounts.secret_box import (
    KEY_ENV,
    KeyRing,
    RandomBytes,
    Sealed,
    SecretKeyError,
    mask,
    needs_reseal,
    open_sealed,
    seal,
)
from asat_accounts.sessions import token_digest
from asat_accounts.throttle import ThrottleRule, after_failure


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class _StoredSecret:
    sealed: Sealed
    info: SecretInfo


@dataclass(frozen=True)
class _StoredSession:
    id: int
    user_id: int
    practice_id: int | None
    csrf_token: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime


class InMemoryAccountsStore:
    """``AccountsStore`` in dictionaries under one lock. ``key_ring`` is needed for secrets only."""

    def __init__(
        self,
        key_ring: KeyRing | None = None,
        random_bytes: RandomBytes = os.urandom,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._ring = key_ring
        self._random = random_bytes
        self._clock = clock
        self._lock = threading.RLock()
        self._next_id: dict[str, int] = {}
        self._practices: dict[int, Practice] = {}
        self._users: dict[int, User] = {}
        self._hashes: dict[int, str] = {}
        self._memberships: dict[tuple[int, int], tuple[Role, datetime]] = {}
        self._clients: dict[int, Client] = {}
        self._secrets: dict[tuple[int, str], _StoredSecret] = {}
        self._sessions: dict[str, _StoredSession] = {}
        self._attempts: dict[str, SignInAttempts] = {}
        self._providers: dict[int, ProviderSettings] = {}
        self._history: dict[tuple[int, int], ResearchHistoryEntry] = {}

    # --- across practices ------------------------------------------------------------------

    def user_count(self) -> int:
        with self._lock:
            return len(self._users)

    def practice_ids(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(sorted(self._practices))

    def create_practice(self, name: str, owner_email: str, owner_password_hash: str) -> tuple[Practice, Member]:
        practice_name = display_name(name, "practice")
        email = normalise_email(owner_email)
        require_password_hash(owner_password_hash)
        with self._lock:
            self._require_free(email)
            practice = Practice(self._new_id("practice"), practice_name, self._clock())
            self._practices[practice.id] = practice
            return practice, self._insert_member(practice.id, email, owner_password_hash, Role.OWNER)

    def find_user_for_sign_in(self, email: str) -> SignInCandidate | None:
        try:
            address = normalise_email(email)
        except AccountsInputError:
            return None
        with self._lock:
            user = next((u for u in self._users.values() if u.email == address), None)
            return None if user is None else SignInCandidate(user, self._hashes[user.id])

    def memberships_of(self, user_id: int) -> tuple[Membership, ...]:
        positive_id(user_id, "user")
        with self._lock:
            found = [
                Membership(pid, self._practices[pid].name, role)
                for (pid, uid), (role, _) in self._memberships.items()
                if uid == user_id
            ]
        return tuple(sorted(found, key=lambda m: (m.practice_name.lower(), m.practice_id)))

    def set_own_password_hash(self, user_id: int, password_hash: str) -> None:
        require_password_hash(password_hash)
        positive_id(user_id, "user")
        with self._lock:
            if user_id not in self._users:
                raise AccountsNotFoundError(f"no user {user_id}: sign in again")
            self._hashes[user_id] = password_hash

    # --- sign-in attempts and web sessions ----------------------------------------------------

    def sign_in_attempts(self, address: str) -> SignInAttempts:
        where = client_address(address)
        with self._lock:
            return self._attempts.get(where, SignInAttempts())

    def record_sign_in_failure(self, address: str, now: datetime, rule: ThrottleRule) -> SignInAttempts:
        where = client_address(address)
        with self._lock:
            updated = after_failure(self._attempts.get(where, SignInAttempts()), now, rule)
            self._attempts[where] = updated
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
        positive_id(user_id, "user")
        if practice_id is not None:
            positive_id(practice_id, "practice")
        if not 32 <= len(csrf_token) <= 128 or expires_at <= now:
            raise AccountsInputError("the database refused a value: a session needs a CSRF token and a later end")
        digest = token_digest(token)
        with self._lock:
            if user_id not in self._users:
                raise AccountsNotFoundError(f"no user {user_id}: sign in again")
            if practice_id is not None:
                self._require_membership(user_id, practice_id)
            for old, stored in list(self._sessions.items()):
                if stored.user_id == user_id and stored.expires_at <= now:
                    del self._sessions[old]
            if digest in self._sessions:
                raise AccountsConflictError("that session token is in use: sign in again")
            stored = _StoredSession(self._new_id("session"), user_id, practice_id, csrf_token, now, now, expires_at)
            self._sessions[digest] = stored
            session = self._session(stored)
        if session is None:
            raise AccountsNotFoundError(f"no user {user_id}: sign in again")
        return session

    def find_session(self, token: str) -> WebSession | None:
        with self._lock:
            stored = self._sessions.get(token_digest(token))
            return None if stored is None else self._session(stored)

    def touch_session(self, token: str, now: datetime) -> None:
        digest = token_digest(token)
        with self._lock:
            stored = self._sessions.get(digest)
            if stored is not None:
                self._sessions[digest] = replace(stored, last_seen_at=max(stored.last_seen_at, now))

    def choose_session_practice(self, token: str, practice_id: int) -> WebSession:
        positive_id(practice_id, "practice")
        digest = token_digest(token)
        with self._lock:
            stored = self._sessions.get(digest)
            if stored is None:
                raise AccountsNotFoundError("no such session: sign in again")
            self._require_membership(stored.user_id, practice_id)
            chosen = replace(stored, practice_id=practice_id)
            self._sessions[digest] = chosen
            session = self._session(chosen)
        if session is None:
            raise AccountsNotFoundError("no such session: sign in again")
        return session

    def end_session(self, token: str) -> bool:
        with self._lock:
            return self._sessions.pop(token_digest(token), None) is not None

    def end_other_sessions(self, user_id: int, keep_token: str | None) -> int:
        positive_id(user_id, "user")
        keep = token_digest(keep_token) if keep_token is not None else ""
        with self._lock:
            ended = [d for d, s in self._sessions.items() if s.user_id == user_id and d != keep]
            for digest in ended:
                del self._sessions[digest]
        return len(ended)

    # --- in one practice -------------------------------------------------------------------

    def practice(self, practice_id: int) -> Practice | None:
        positive_id(practice_id, "practice")
        with self._lock:
            return self._practices.get(practice_id)

    def rename_practice(self, practice_id: int, name: str) -> Practice:
        new_name = display_name(name, "practice")
        positive_id(practice_id, "practice")
        with self._lock:
            if practice_id not in self._practices:
                raise AccountsNotFoundError(f"no practice {practice_id}")
            renamed = replace(self._practices[practice_id], name=new_name)
            self._practices[practice_id] = renamed
            return renamed

    def members(self, practice_id: int) -> tuple[Member, ...]:
        positive_id(practice_id, "practice")
        with self._lock:
            return self._members(practice_id)

    def add_member(self, practice_id: int, email: str, password_hash: str, role: Role) -> Member:
        address = normalise_email(email)
        require_password_hash(password_hash)
        positive_id(practice_id, "practice")
        with self._lock:
            self._require_free(address)
            return self._insert_member(practice_id, address, password_hash, Role(role))

    def add_existing_member(self, practice_id: int, email: str, role: Role) -> Member:
        address = normalise_email(email)
        new_role = Role(role)
        positive_id(practice_id, "practice")
        with self._lock:
            user = next((u for u in self._users.values() if u.email == address), None)
            if user is None:
                raise AccountsNotFoundError(f"no user has the email {address}")
            if (practice_id, user.id) in self._memberships:
                raise AccountsConflictError(f"{address} is already a member of this practice")
            if practice_id not in self._practices:
                raise AccountsNotFoundError(f"no practice {practice_id}")
            self._memberships[(practice_id, user.id)] = (new_role, self._clock())
            return next(m for m in self._members(practice_id) if m.user.id == user.id)

    def set_role(self, practice_id: int, user_id: int, role: Role) -> Member:
        new_role = Role(role)
        positive_id(practice_id, "practice")
        with self._lock:
            self._check_owner_kept(practice_id, user_id, new_role)
            key = (practice_id, user_id)
            if key not in self._memberships:
                raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")
            self._memberships[key] = (new_role, self._memberships[key][1])
            return next(m for m in self._members(practice_id) if m.user.id == user_id)

    def remove_member(self, practice_id: int, user_id: int) -> None:
        positive_id(practice_id, "practice")
        with self._lock:
            self._check_owner_kept(practice_id, user_id, None)
            if self._memberships.pop((practice_id, user_id), None) is None:
                raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")
            # As the database's cascade: the membership's sessions go with it.
            for digest, stored in list(self._sessions.items()):
                if (stored.practice_id, stored.user_id) == (practice_id, user_id):
                    del self._sessions[digest]

    def clients(self, practice_id: int, include_archived: bool = False) -> tuple[Client, ...]:
        positive_id(practice_id, "practice")
        with self._lock:
            found = [
                c
                for c in self._clients.values()
                if c.practice_id == practice_id and (include_archived or c.archived_at is None)
            ]
        return tuple(sorted(found, key=lambda c: (c.name.lower(), c.id)))

    def client(self, practice_id: int, client_id: int) -> Client | None:
        positive_id(practice_id, "practice")
        with self._lock:
            found = self._clients.get(client_id)
        return found if found is not None and found.practice_id == practice_id else None

    def add_client(self, practice_id: int, fields: ClientFields) -> Client:
        positive_id(practice_id, "practice")
        with self._lock:
            if practice_id not in self._practices:
                raise AccountsNotFoundError(f"no practice {practice_id}")
            now = self._clock()
            client = Client(self._new_id("client"), practice_id, fields.name, fields.abn, fields.notes, now, now, None)
            self._clients[client.id] = client
            return client

    def update_client(self, practice_id: int, client_id: int, fields: ClientFields) -> Client:
        with self._lock:
            found = self.client(practice_id, client_id)
            if found is None:
                raise AccountsNotFoundError(f"no client {client_id} in practice {practice_id}")
            changed = replace(found, name=fields.name, abn=fields.abn, notes=fields.notes, updated_at=self._clock())
            self._clients[client_id] = changed
            return changed

    def archive_client(self, practice_id: int, client_id: int) -> Client:
        with self._lock:
            found = self.client(practice_id, client_id)
            if found is None:
                raise AccountsNotFoundError(f"no client {client_id} in practice {practice_id}")
            now = self._clock()
            archived = replace(found, archived_at=found.archived_at or now, updated_at=now)
            self._clients[client_id] = archived
            return archived

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
        positive_id(practice_id, "practice")
        sealed = seal(ring, practice_id, secret, value, self._random)
        with self._lock:
            now = self._clock()
            before = self._secrets.get((practice_id, secret))
            created = before.info.created_at if before is not None else now
            info = SecretInfo(secret, mask(value), sealed.key_id, created, now)
            self._secrets[(practice_id, secret)] = _StoredSecret(sealed, info)
            return info

    def secrets(self, practice_id: int) -> tuple[SecretInfo, ...]:
        positive_id(practice_id, "practice")
        with self._lock:
            found = [s.info for (pid, _), s in self._secrets.items() if pid == practice_id]
        return tuple(sorted(found, key=lambda info: info.name))

    def reveal_secret(self, practice_id: int, name: str) -> SecretValue | None:
        ring = self._key_ring()
        positive_id(practice_id, "practice")
        with self._lock:
            stored = self._secrets.get((practice_id, name))
            if stored is None:
                return None
            value = open_sealed(ring, practice_id, name, stored.sealed)
            if needs_reseal(ring, stored.sealed):
                self._reseal(practice_id, name, value, stored)
            return SecretValue(value, stored.info.hint)

    def delete_secret(self, practice_id: int, name: str) -> bool:
        positive_id(practice_id, "practice")
        with self._lock:
            return self._secrets.pop((practice_id, name), None) is not None

    def reencrypt_secrets(self, practice_id: int) -> int:
        ring = self._key_ring()
        positive_id(practice_id, "practice")
        with self._lock:
            older = [
                (name, s)
                for (pid, name), s in sorted(self._secrets.items())
                if pid == practice_id and s.sealed.key_id != ring.current.key_id
            ]
            for name, stored in older:
                self._reseal(practice_id, name, open_sealed(ring, practice_id, name, stored.sealed), stored)
        return len(older)

    def provider_settings(self, practice_id: int) -> ProviderSettings | None:
        positive_id(practice_id, "practice")
        with self._lock:
            return self._providers.get(practice_id)

    def save_provider_settings(self, practice_id: int, provider: str, base_url: str, model: str) -> ProviderSettings:
        kind, url, name = provider_fields(provider, base_url, model)
        positive_id(practice_id, "practice")
        with self._lock:
            if practice_id not in self._practices:
                raise AccountsNotFoundError(f"no practice {practice_id}")
            saved = ProviderSettings(kind, url, name, self._clock())
            self._providers[practice_id] = saved
            return saved

    def record_research(self, practice_id: int, entry: ResearchHistoryEntry) -> ResearchHistoryEntry:
        checked = history_entry(entry)
        positive_id(practice_id, "practice")
        with self._lock:
            self._require_membership(checked.user_id, practice_id)
            if checked.client_id is not None and self.client(practice_id, checked.client_id) is None:
                raise AccountsNotFoundError(f"no client {checked.client_id} in practice {practice_id}")
            return self._history.setdefault((practice_id, checked.audit_id), checked)

    def research_history(self, practice_id: int, contains: str | None, last: int) -> tuple[ResearchHistoryEntry, ...]:
        text, limit = history_search(contains, last)
        positive_id(practice_id, "practice")
        with self._lock:
            found = [
                e
                for (pid, _), e in self._history.items()
                if pid == practice_id and (text is None or text.lower() in e.question.lower())
            ]
        return tuple(sorted(found, key=lambda e: e.audit_id, reverse=True)[:limit])

    def owns_audit_row(self, practice_id: int, audit_id: int) -> bool:
        positive_id(practice_id, "practice")
        if isinstance(audit_id, bool) or not isinstance(audit_id, int) or not 1 <= audit_id <= MAX_AUDIT_ID:
            return False
        with self._lock:
            return (practice_id, audit_id) in self._history

    # --- helpers (the caller holds the lock) ---------------------------------------------------

    def _new_id(self, kind: str) -> int:
        self._next_id[kind] = self._next_id.get(kind, 0) + 1
        return self._next_id[kind]

    def _require_free(self, email: str) -> None:
        if any(u.email == email for u in self._users.values()):
            raise AccountsConflictError(f"a user with email {email} already exists")

    def _insert_member(self, practice_id: int, email: str, password_hash: str, role: Role) -> Member:
        if practice_id not in self._practices:
            raise AccountsNotFoundError(f"no practice {practice_id}")
        user = User(self._new_id("user"), email, self._clock(), None)
        self._users[user.id] = user
        self._hashes[user.id] = password_hash
        self._memberships[(practice_id, user.id)] = (role, self._clock())
        return next(m for m in self._members(practice_id) if m.user.id == user.id)

    def _members(self, practice_id: int) -> tuple[Member, ...]:
        found = [
            Member(self._users[uid], pid, role, joined)
            for (pid, uid), (role, joined) in self._memberships.items()
            if pid == practice_id
        ]
        return tuple(sorted(found, key=lambda m: m.user.email))

    def _check_owner_kept(self, practice_id: int, user_id: int, role: Role | None) -> None:
        problem = last_owner_problem(self._members(practice_id), user_id, role)
        if problem is not None:
            raise AccountsConflictError(problem)

    def _require_membership(self, user_id: int, practice_id: int) -> None:
        if (practice_id, user_id) not in self._memberships:
            raise AccountsNotFoundError(f"user {user_id} is not a member of practice {practice_id}")

    def _session(self, stored: _StoredSession) -> WebSession | None:
        user = self._users.get(stored.user_id)
        if user is None or user.disabled:
            return None
        membership = None
        if stored.practice_id is not None:
            held = self._memberships.get((stored.practice_id, stored.user_id))
            if held is None:
                return None
            membership = Membership(stored.practice_id, self._practices[stored.practice_id].name, held[0])
        return WebSession(
            id=stored.id,
            user=user,
            practice=membership,
            csrf_token=stored.csrf_token,
            created_at=stored.created_at,
            last_seen_at=stored.last_seen_at,
            expires_at=stored.expires_at,
        )

    def _reseal(self, practice_id: int, name: str, value: str, stored: _StoredSecret) -> None:
        sealed = seal(self._key_ring(), practice_id, name, value, self._random)
        info = replace(stored.info, key_id=sealed.key_id, updated_at=self._clock())
        self._secrets[(practice_id, name)] = _StoredSecret(sealed, info)

    def _key_ring(self) -> KeyRing:
        if self._ring is None:
            raise SecretKeyError(
                f"{KEY_ENV} is not set, so secrets cannot be saved or read: generate one with "
                f"`python -m asat_accounts generate-key` and set it for this service"
            )
        return self._ring

    def disable_user(self, user_id: int) -> None:
        """Mark a user disabled (what an operator does in the database; for tests)."""
        with self._lock:
            self._users[user_id] = replace(self._users[user_id], disabled_at=self._clock())
