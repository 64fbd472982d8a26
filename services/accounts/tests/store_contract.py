"""The AccountsStore contract: what every adapter does, run against each (``test_store_contract.py``).

A subclass provides ``make_store``: a callable that returns a store for a key ring (or none).
Stores made by one test's ``make_store`` share their data (the Postgres adapter: one database;
the in-memory adapter: one instance whose key ring the call chooses), so each test makes its own
practices and emails. The web's unit tests use the in-memory adapter because it passes this suite.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from asat_accounts.errors import AccountsConflictError, AccountsInputError, AccountsNotFoundError
from asat_accounts.fields import client_fields
from asat_accounts.model import Practice, ResearchHistoryEntry, Role, SecretValue
from asat_accounts.secret_box import KeyRing, SecretKeyError
from asat_accounts.sessions import new_token
from asat_accounts.sign_in import check_credentials
from asat_accounts.store import AccountsStore
from asat_accounts.throttle import ThrottleRule

from .support import CHEAP, KEY_1, cheap_hash

MakeStore = Callable[[KeyRing | None], AccountsStore]
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def asked(
    audit_id: int, user_id: int, question: str = "What was the turnover threshold?", **changes: object
) -> ResearchHistoryEntry:
    """A research history row of ``audit_id`` asked by ``user_id``."""
    entry = ResearchHistoryEntry(
        audit_id=audit_id,
        user_id=user_id,
        client_id=None,
        question=question,
        period="income year 2015",
        decision="answer",
        corpus_generation="0123456789abcdef",
        asked_at=T0,
    )
    return replace(entry, **changes)  # type: ignore[arg-type]


def email(label: str) -> str:
    return f"{label}-{secrets.token_hex(4)}@example.com.au"


class AccountsStoreContract:
    """Subclasses provide the ``make_store`` fixture."""

    @pytest.fixture
    def store(self, make_store: MakeStore) -> AccountsStore:
        return make_store(KeyRing((KEY_1,)))

    def _practice(self, store: AccountsStore, name: str = "Practice") -> tuple[Practice, int]:
        practice, owner = store.create_practice(f"{name} {secrets.token_hex(3)}", email("owner"), cheap_hash())
        return practice, owner.user.id

    # --- practices, users, members --------------------------------------------------------------

    def test_a_practice_is_created_with_its_owner(self, store: AccountsStore) -> None:
        address = email("Owner").upper()
        practice, owner = store.create_practice("  Smith  & Co  ", address, cheap_hash())
        assert practice.name == "Smith & Co"
        assert (owner.user.email, owner.role, owner.practice_id) == (address.lower(), Role.OWNER, practice.id)
        assert store.practice(practice.id) == practice
        assert store.members(practice.id) == (owner,)
        assert store.user_count() >= 1
        assert practice.id in store.practice_ids()
        assert store.rename_practice(practice.id, " Smith & Co  Tax ").name == "Smith & Co Tax"

    def test_an_email_is_one_user(self, store: AccountsStore) -> None:
        taken = email("taken")
        store.create_practice("One", taken, cheap_hash())
        other, _ = self._practice(store)
        with pytest.raises(AccountsConflictError, match=f"a user with email {taken} already exists"):
            store.create_practice("Another", taken.upper(), cheap_hash())
        with pytest.raises(AccountsConflictError, match="already exists"):
            store.add_member(other.id, taken, cheap_hash(), Role.AGENT)

    def test_a_password_is_never_taken_for_a_hash(self, store: AccountsStore) -> None:
        with pytest.raises(AccountsInputError, match="expected an Argon2id password hash"):
            store.create_practice("P", email("p"), "correct horse battery staple")
        practice, owner_id = self._practice(store)
        with pytest.raises(AccountsInputError, match="expected an Argon2id password hash"):
            store.add_member(practice.id, email("m"), "correct horse battery staple", Role.AGENT)
        with pytest.raises(AccountsInputError, match="expected an Argon2id password hash"):
            store.set_own_password_hash(owner_id, "correct horse battery staple")

    def test_members_roles_and_the_last_owner(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        agent = store.add_member(practice.id, email("agent"), cheap_hash(), Role.AGENT)
        assert {m.user.id for m in store.members(practice.id)} == {owner_id, agent.user.id}
        with pytest.raises(AccountsConflictError, match="only owner"):
            store.set_role(practice.id, owner_id, Role.REVIEWER)
        with pytest.raises(AccountsConflictError, match="only owner"):
            store.remove_member(practice.id, owner_id)
        assert store.set_role(practice.id, agent.user.id, Role.OWNER).role is Role.OWNER
        assert store.set_role(practice.id, owner_id, Role.REVIEWER).role is Role.REVIEWER
        store.remove_member(practice.id, owner_id)
        assert [m.user.id for m in store.members(practice.id)] == [agent.user.id]
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.remove_member(practice.id, owner_id)
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.set_role(practice.id, owner_id, Role.AGENT)

    def test_members_are_listed_by_email(self, store: AccountsStore) -> None:
        practice, _ = self._practice(store)
        tag = secrets.token_hex(3)
        for name in ("zed", "amy", "kim"):
            store.add_member(practice.id, f"{name}-{tag}@example.com.au", cheap_hash(), Role.AGENT)
        listed = [m.user.email for m in store.members(practice.id)]
        assert listed == sorted(listed)

    def test_a_bad_practice_id_is_refused(self, store: AccountsStore) -> None:
        for bad in (0, -1, True):
            with pytest.raises(AccountsInputError, match="practice id must be a positive integer"):
                store.clients(bad)
            with pytest.raises(AccountsInputError, match="practice id must be a positive integer"):
                store.members(bad)

    # --- clients ---------------------------------------------------------------------------------

    def test_clients_are_added_listed_updated_and_archived(self, store: AccountsStore) -> None:
        practice, _ = self._practice(store)
        zed = store.add_client(practice.id, client_fields("zed trust"))
        acme = store.add_client(practice.id, client_fields("Acme Pty Ltd", "51 824 753 556", "FY2024 return"))
        assert (acme.abn, acme.notes, acme.practice_id, acme.archived) == (
            "51824753556",
            "FY2024 return",
            practice.id,
            False,
        )
        assert [c.name for c in store.clients(practice.id)] == ["Acme Pty Ltd", "zed trust"]
        changed = store.update_client(practice.id, zed.id, client_fields("Zed Family Trust", None, "trustee changed"))
        assert (changed.name, changed.notes, changed.updated_at >= zed.updated_at) == (
            "Zed Family Trust",
            "trustee changed",
            True,
        )
        archived = store.archive_client(practice.id, zed.id)
        assert archived.archived
        assert store.archive_client(practice.id, zed.id).archived_at == archived.archived_at
        assert [c.id for c in store.clients(practice.id)] == [acme.id]
        assert [c.id for c in store.clients(practice.id, include_archived=True)] == [acme.id, zed.id]
        assert store.client(practice.id, acme.id) == acme

    def test_another_practices_rows_are_not_found(self, store: AccountsStore) -> None:
        a, _ = self._practice(store, "Alpha")
        b, b_owner = self._practice(store, "Beta")
        b_client = store.add_client(b.id, client_fields("Bravo Pty Ltd"))
        b_agent = store.add_member(b.id, email("b-agent"), cheap_hash(), Role.AGENT)
        assert store.client(a.id, b_client.id) is None
        with pytest.raises(AccountsNotFoundError, match=f"no client {b_client.id} in practice {a.id}"):
            store.update_client(a.id, b_client.id, client_fields("Taken over"))
        with pytest.raises(AccountsNotFoundError):
            store.archive_client(a.id, b_client.id)
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.set_role(a.id, b_agent.user.id, Role.OWNER)
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.remove_member(a.id, b_owner)
        assert store.client(b.id, b_client.id) == b_client
        assert all(c.practice_id == a.id for c in store.clients(a.id, include_archived=True))
        assert {m.user.id for m in store.members(b.id)} == {b_owner, b_agent.user.id}

    # --- secrets ---------------------------------------------------------------------------------

    def test_a_saved_secret_comes_back_as_a_hint_only(self, store: AccountsStore) -> None:
        practice, _ = self._practice(store)
        value = "sk-proj-" + secrets.token_hex(20)
        info = store.save_secret(practice.id, "provider.openai", f"  {value}\n")
        assert (info.name, info.hint, info.key_id) == ("provider.openai", f"sk-…{value[-4:]}", "k1")
        assert value not in repr(info) and value not in repr(store.secrets(practice.id))
        assert store.secrets(practice.id) == (info,)
        revealed = store.reveal_secret(practice.id, "provider.openai")
        assert isinstance(revealed, SecretValue)
        assert revealed.reveal() == value
        assert value not in repr(revealed) and value not in str(revealed)
        assert store.reveal_secret(practice.id, "provider.none") is None

    def test_saving_again_replaces_the_value(self, store: AccountsStore) -> None:
        practice, _ = self._practice(store)
        first = store.save_secret(practice.id, "provider.anthropic", "sk-ant-first-0123456789")
        second = store.save_secret(practice.id, "provider.anthropic", "sk-ant-second-0123456789")
        assert (second.created_at, second.hint) == (first.created_at, "sk-…6789")
        revealed = store.reveal_secret(practice.id, "provider.anthropic")
        assert revealed is not None and revealed.reveal() == "sk-ant-second-0123456789"
        assert store.delete_secret(practice.id, "provider.anthropic") is True
        assert store.delete_secret(practice.id, "provider.anthropic") is False
        assert store.secrets(practice.id) == ()

    @pytest.mark.parametrize(
        ("name", "value", "message"),
        [
            ("Provider", "x", "is not a secret name"),
            ("provider.x", "   ", "is empty: paste the key or token itself"),
            ("provider.x", "x" * 16_385, "at most 16384 are stored"),
        ],
    )
    def test_a_bad_secret_is_refused(self, store: AccountsStore, name: str, value: str, message: str) -> None:
        practice, _ = self._practice(store)
        with pytest.raises(AccountsInputError, match=message):
            store.save_secret(practice.id, name, value)

    def test_a_practice_opens_only_its_own_secret(self, store: AccountsStore) -> None:
        a, _ = self._practice(store, "Alpha")
        b, _ = self._practice(store, "Beta")
        store.save_secret(a.id, "provider.api_key", "sk-alpha-0123456789abcdef")
        assert store.reveal_secret(b.id, "provider.api_key") is None
        assert store.secrets(b.id) == ()
        assert store.delete_secret(b.id, "provider.api_key") is False
        revealed = store.reveal_secret(a.id, "provider.api_key")
        assert revealed is not None and revealed.reveal() == "sk-alpha-0123456789abcdef"

    def test_secrets_need_the_key(self, make_store: MakeStore) -> None:
        keyless = make_store(None)
        practice, _ = self._practice(keyless)
        with pytest.raises(SecretKeyError, match="ASAT_SECRET_KEY is not set, so secrets cannot be saved or read"):
            keyless.save_secret(practice.id, "provider.x", "value")
        with pytest.raises(SecretKeyError):
            keyless.reveal_secret(practice.id, "provider.x")

    # --- sign-in ---------------------------------------------------------------------------------

    def test_sign_in_finds_the_user_and_their_practices(self, store: AccountsStore) -> None:
        address = email("jo")
        first, owner = store.create_practice("Jo's practice", address, cheap_hash("jo's long password"))
        candidate = store.find_user_for_sign_in(f" {address.upper()} ")
        assert candidate is not None and candidate.user == owner.user
        assert store.find_user_for_sign_in(email("nobody")) is None
        assert store.find_user_for_sign_in("not an email") is None
        signed_in = check_credentials(store, address, "jo's long password", CHEAP)
        assert signed_in is not None
        assert [(m.practice_id, m.role) for m in signed_in.memberships] == [(first.id, Role.OWNER)]
        assert check_credentials(store, address, "wrong password", CHEAP) is None

    def test_a_new_password_hash_replaces_the_old(self, store: AccountsStore) -> None:
        address = email("pw")
        _, owner = store.create_practice("Passwords", address, cheap_hash("the first long password"))
        store.set_own_password_hash(owner.user.id, cheap_hash("the second long password"))
        assert check_credentials(store, address, "the first long password", CHEAP) is None
        assert check_credentials(store, address, "the second long password", CHEAP) is not None

    def test_memberships_of_a_member_of_several_practices(self, store: AccountsStore) -> None:
        b, _ = self._practice(store, "Beta")
        a, owner_id = self._practice(store, "Alpha")
        assert [m.practice_id for m in store.memberships_of(owner_id)] == [a.id]
        shared = store.add_member(b.id, email("shared"), cheap_hash(), Role.REVIEWER)
        assert [m.practice_id for m in store.memberships_of(shared.user.id)] == [b.id]

    # --- sign-in attempts ----------------------------------------------------------------------

    def test_failures_are_counted_per_address_and_lock_it(self, store: AccountsStore) -> None:
        rule = ThrottleRule(max_failures=3, window=timedelta(minutes=1), lockout=timedelta(minutes=5))
        here, there = f"203.0.113.{secrets.randbelow(250)}", f"2001:db8::{secrets.token_hex(2)}"
        assert store.sign_in_attempts(here).failures == ()
        store.record_sign_in_failure(here, T0, rule)
        second = store.record_sign_in_failure(here, T0 + timedelta(seconds=10), rule)
        assert second.failures == (T0, T0 + timedelta(seconds=10)) and second.locked_until is None
        assert store.sign_in_attempts(here) == second
        assert store.sign_in_attempts(there).failures == ()
        third = store.record_sign_in_failure(here, T0 + timedelta(seconds=20), rule)
        assert third.locked_until == T0 + timedelta(seconds=20, minutes=5)
        assert store.sign_in_attempts(here).locked_until == third.locked_until
        assert store.sign_in_attempts(there).locked_until is None
        with pytest.raises(AccountsInputError, match="not a client address"):
            store.sign_in_attempts(" ")

    # --- sessions --------------------------------------------------------------------------------

    def test_a_session_is_found_by_its_token_with_the_role_now(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        agent = store.add_member(practice.id, email("agent"), cheap_hash(), Role.AGENT)
        token, csrf = new_token(), new_token()
        made = store.create_session(agent.user.id, practice.id, token, csrf, T0, T0 + 12 * HOUR)
        assert made.user == agent.user and made.csrf_token == csrf
        assert made.practice is not None
        assert (made.practice.practice_id, made.practice.practice_name, made.practice.role) == (
            practice.id,
            practice.name,
            Role.AGENT,
        )
        assert (made.created_at, made.last_seen_at, made.expires_at) == (T0, T0, T0 + 12 * HOUR)
        assert csrf not in repr(made) and token not in repr(made)
        assert store.find_session(token) == made
        assert store.find_session(new_token()) is None
        store.set_role(practice.id, agent.user.id, Role.REVIEWER)
        found = store.find_session(token)
        assert found is not None and found.practice is not None and found.practice.role is Role.REVIEWER
        store.touch_session(token, T0 + HOUR)
        touched = store.find_session(token)
        assert touched is not None and touched.last_seen_at == T0 + HOUR
        store.touch_session(token, T0)  # never back in time
        again = store.find_session(token)
        assert again is not None and again.last_seen_at == T0 + HOUR
        assert store.end_session(token) is True
        assert store.end_session(token) is False
        assert store.find_session(token) is None
        assert owner_id != agent.user.id

    def test_a_session_acts_only_for_a_practice_of_its_user(self, store: AccountsStore) -> None:
        a, a_owner = self._practice(store, "Alpha")
        b, _ = self._practice(store, "Beta")
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.create_session(a_owner, b.id, new_token(), new_token(), T0, T0 + HOUR)
        token = new_token()
        unchosen = store.create_session(a_owner, None, token, new_token(), T0, T0 + HOUR)
        assert unchosen.practice is None
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.choose_session_practice(token, b.id)
        chosen = store.choose_session_practice(token, a.id)
        assert chosen.practice is not None and chosen.practice.practice_id == a.id
        found = store.find_session(token)
        assert found is not None and found.practice == chosen.practice
        with pytest.raises(AccountsNotFoundError, match="no such session"):
            store.choose_session_practice(new_token(), a.id)

    def test_a_member_of_two_practices_chooses_between_them(self, store: AccountsStore) -> None:
        a, _ = self._practice(store, "Alpha")
        b, _ = self._practice(store, "Beta")
        shared = store.add_member(a.id, email("shared"), cheap_hash(), Role.AGENT)
        also = store.add_existing_member(b.id, shared.user.email.upper(), Role.REVIEWER)
        assert (also.user, also.practice_id, also.role) == (shared.user, b.id, Role.REVIEWER)
        assert {m.practice_id for m in store.memberships_of(shared.user.id)} == {a.id, b.id}
        with pytest.raises(AccountsConflictError, match="already a member"):
            store.add_existing_member(b.id, shared.user.email, Role.AGENT)
        with pytest.raises(AccountsNotFoundError, match="no user"):
            store.add_existing_member(b.id, email("nobody"), Role.AGENT)
        token = new_token()
        store.create_session(shared.user.id, None, token, new_token(), T0, T0 + HOUR)
        chosen = store.choose_session_practice(token, b.id)
        assert chosen.practice is not None and (chosen.practice.practice_id, chosen.practice.role) == (
            b.id,
            Role.REVIEWER,
        )
        store.remove_member(b.id, shared.user.id)
        assert store.find_session(token) is None
        assert [m.practice_id for m in store.memberships_of(shared.user.id)] == [a.id]

    def test_removing_a_member_ends_their_sessions_there(self, store: AccountsStore) -> None:
        practice, _ = self._practice(store)
        agent = store.add_member(practice.id, email("leaving"), cheap_hash(), Role.AGENT)
        token = new_token()
        store.create_session(agent.user.id, practice.id, token, new_token(), T0, T0 + HOUR)
        store.remove_member(practice.id, agent.user.id)
        assert store.find_session(token) is None

    def test_other_sessions_end_after_a_password_change(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        kept, other, third = new_token(), new_token(), new_token()
        for token in (kept, other, third):
            store.create_session(owner_id, practice.id, token, new_token(), T0, T0 + HOUR)
        assert store.end_other_sessions(owner_id, kept) == 2
        assert store.find_session(kept) is not None
        assert store.find_session(other) is None and store.find_session(third) is None
        assert store.end_other_sessions(owner_id, None) == 1
        assert store.find_session(kept) is None

    def test_ended_sessions_are_removed_at_the_next_sign_in(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        old = new_token()
        store.create_session(owner_id, practice.id, old, new_token(), T0, T0 + HOUR)
        assert store.find_session(old) is not None
        store.create_session(owner_id, practice.id, new_token(), new_token(), T0 + 2 * HOUR, T0 + 3 * HOUR)
        assert store.find_session(old) is None

    # --- provider settings -----------------------------------------------------------------------

    def test_provider_settings_are_saved_per_practice(self, store: AccountsStore) -> None:
        a, _ = self._practice(store, "Alpha")
        b, _ = self._practice(store, "Beta")
        assert store.provider_settings(a.id) is None
        saved = store.save_provider_settings(a.id, " openai_compatible ", " http://127.0.0.1:8000/v1 ", " qwen ")
        assert (saved.provider, saved.base_url, saved.model) == (
            "openai_compatible",
            "http://127.0.0.1:8000/v1",
            "qwen",
        )
        assert store.provider_settings(a.id) == saved
        assert store.provider_settings(b.id) is None
        changed = store.save_provider_settings(a.id, "anthropic", "", "claude-sonnet-4-5")
        assert (changed.provider, changed.base_url) == ("anthropic", "")
        with pytest.raises(AccountsInputError, match="is not a generation provider"):
            store.save_provider_settings(a.id, "gpt", "", "")
        with pytest.raises(AccountsInputError, match="is not an http"):
            store.save_provider_settings(a.id, "ollama", "ftp://example.com", "llama3")

    # --- research history ------------------------------------------------------------------------

    def _audit_ids(self, count: int) -> list[int]:
        """Audit row ids no other test uses (the Postgres adapter's tests share one database)."""
        first = secrets.randbelow(10**12) * 100 + 1
        return [first + n for n in range(count)]

    def test_research_history_is_recorded_and_listed_newest_first(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        client = store.add_client(practice.id, client_fields("Acme Pty Ltd"))
        one, two, three = self._audit_ids(3)
        first = store.record_research(practice.id, asked(one, owner_id, "Turnover threshold in FY2015?"))
        assert first == asked(one, owner_id, "Turnover threshold in FY2015?")
        store.record_research(practice.id, asked(three, owner_id, "Payroll tax?", decision="abstain_low_relevance"))
        store.record_research(practice.id, asked(two, owner_id, "What is the TURNOVER test?", client_id=client.id))
        listed = store.research_history(practice.id, None, 20)
        assert [e.audit_id for e in listed] == [three, two, one]
        assert listed[1].client_id == client.id and listed[0].decision == "abstain_low_relevance"
        assert listed[2].asked_at == T0
        assert [e.audit_id for e in store.research_history(practice.id, None, 2)] == [three, two]
        assert [e.audit_id for e in store.research_history(practice.id, " turnover ", 20)] == [two, one]
        assert [e.audit_id for e in store.research_history(practice.id, "100%_", 20)] == []  # taken literally
        assert store.owns_audit_row(practice.id, two) is True
        assert store.owns_audit_row(practice.id, three + 1) is False
        assert store.owns_audit_row(practice.id, 0) is False
        assert store.owns_audit_row(practice.id, 2**63) is False  # beyond a bigint: no row, not an error

    def test_research_history_is_append_only(self, store: AccountsStore) -> None:
        practice, owner_id = self._practice(store)
        (row,) = self._audit_ids(1)
        first = store.record_research(practice.id, asked(row, owner_id, "First?"))
        again = store.record_research(practice.id, asked(row, owner_id, "Second?", decision="abstain_low_relevance"))
        assert again == first
        assert [e.question for e in store.research_history(practice.id, None, 20)] == ["First?"]

    def test_another_practices_research_history_is_not_seen(self, store: AccountsStore) -> None:
        a, a_owner = self._practice(store, "Alpha")
        b, b_owner = self._practice(store, "Beta")
        b_client = store.add_client(b.id, client_fields("Bravo Pty Ltd"))
        mine, theirs = self._audit_ids(2)
        store.record_research(a.id, asked(mine, a_owner))
        store.record_research(b.id, asked(theirs, b_owner, client_id=b_client.id))
        assert [e.audit_id for e in store.research_history(a.id, None, 500)] == [mine]
        assert [e.audit_id for e in store.research_history(b.id, None, 500)] == [theirs]
        assert store.owns_audit_row(a.id, theirs) is False and store.owns_audit_row(b.id, mine) is False
        assert store.owns_audit_row(a.id, mine) is True
        with pytest.raises(AccountsNotFoundError, match="is not a member"):
            store.record_research(a.id, asked(theirs + 1, b_owner))
        with pytest.raises(AccountsNotFoundError, match=f"no client {b_client.id} in practice {a.id}"):
            store.record_research(a.id, asked(theirs + 1, a_owner, client_id=b_client.id))
        assert not store.owns_audit_row(a.id, theirs + 1)

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"audit_id": 0}, "audit row id must be a positive integer"),
            ({"question": "  "}, "must be 1 to 4000 characters"),
            ({"question": "x" * 4001}, "must be 1 to 4000 characters"),
            ({"period": ""}, "is empty: say it in words"),
            ({"decision": "Answer!"}, "is not a research decision"),
            ({"asked_at": datetime(2026, 3, 2, 9, 0)}, "needs its time zone"),
        ],
    )
    def test_a_bad_history_row_is_refused(self, store: AccountsStore, changes: dict[str, object], message: str) -> None:
        practice, owner_id = self._practice(store)
        (row,) = self._audit_ids(1)
        with pytest.raises(AccountsInputError, match=message):
            store.record_research(practice.id, replace(asked(row, owner_id), **changes))  # type: ignore[arg-type]
        with pytest.raises(AccountsInputError, match="ask for 1 to 500 history rows"):
            store.research_history(practice.id, None, 0)
        with pytest.raises(AccountsInputError, match="search for at most 200 characters"):
            store.research_history(practice.id, "x" * 201, 20)
