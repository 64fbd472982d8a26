"""The store refuses to start as a role row-level security would not bind, or over unguarded tables."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_accounts.errors import AccountsStartupError
from asat_accounts.migrate import APP_PRIVILEGES, grant_app_role, load_migrations, migrate
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.role_check import RoleFacts, TableFacts, unsafe_reasons

from .support import AccountsDatabase

MakeRole = Callable[[str], str]


def _table(name: str, **changes: object) -> TableFacts:
    facts: dict[str, object] = {
        "name": name,
        "owner": "asat_owner",
        "member_of_owner": False,
        "rls_enabled": True,
        "rls_forced": True,
        "tenant": name in ("clients", "secrets", "memberships"),
        "policies": 1,
        "privileges": frozenset(APP_PRIVILEGES[name]) if name in APP_PRIVILEGES else frozenset(),
    }
    facts.update(changes)
    return TableFacts(**facts)  # type: ignore[arg-type]


def _facts(*tables: TableFacts, superuser: bool = False, bypass_rls: bool = False) -> RoleFacts:
    named = {t.name: t for t in tables}
    every = tuple(named.get(name, _table(name)) for name in APP_PRIVILEGES) + tuple(
        t for t in tables if t.name not in APP_PRIVILEGES
    )
    return RoleFacts(role="asat_app", superuser=superuser, bypass_rls=bypass_rls, tables=every)


# --- pure ---------------------------------------------------------------------------------------


def test_the_app_role_as_granted_is_safe() -> None:
    assert unsafe_reasons(_facts()) == ((), ())


def test_each_unsafe_fact_is_named() -> None:
    role, tables = unsafe_reasons(
        _facts(
            _table("clients", member_of_owner=True, rls_forced=False),
            _table("secrets", privileges=frozenset({"SELECT", "TRUNCATE"}), policies=0),
            bypass_rls=True,
        )
    )
    assert role == (
        "has BYPASSRLS (row-level security does not apply to it)",
        "owns app.clients (or is a member of their owner 'asat_owner'), so it could switch row-level security off",
        "has TRUNCATE on app.secrets",
        "lacks INSERT on app.secrets, UPDATE on app.secrets, DELETE on app.secrets",
    )
    assert tables == (
        "row-level security is not both enabled and forced on app.clients",
        "tenant table(s) app.secrets have no row-level security policy",
    )


def test_a_superuser_is_named_as_such() -> None:
    role, _ = unsafe_reasons(_facts(superuser=True))
    assert role == ("is a superuser (row-level security does not apply to it)",)


def test_schema_migrations_needs_no_row_level_security_but_any_other_table_does() -> None:
    exempt = _table("schema_migrations", rls_enabled=False, rls_forced=False, tenant=False, policies=0)
    assert unsafe_reasons(_facts(exempt)) == ((), ())
    extra = _table("notes", rls_enabled=False, rls_forced=False, tenant=False, policies=0)
    assert unsafe_reasons(_facts(extra))[1] == ("row-level security is not both enabled and forced on app.notes",)


# --- against the server ---------------------------------------------------------------------------

pg = pytest.mark.postgres


@pytest.fixture
def make_role(accounts_db: AccountsDatabase, pg_server_url: str) -> Iterator[MakeRole]:
    """Login roles made for one test (``CREATE ROLE <name> LOGIN <options>``), dropped after it."""
    made: list[str] = []

    def create(options: str) -> str:
        name = f"{accounts_db.name}_r{secrets.token_hex(3)}"
        with accounts_db.admin() as admin:
            admin.execute(sql.SQL("CREATE ROLE {} LOGIN " + options).format(sql.Identifier(name)))
        made.append(name)
        return name

    yield create
    with accounts_db.admin() as admin:
        for name in made:
            admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
            admin.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def _url(db: AccountsDatabase, role: str) -> str:
    return make_conninfo(db.admin_url, user=role, password="")


def _grant_as_app(db: AccountsDatabase, role: str) -> None:
    with psycopg.connect(db.owner_url, autocommit=True) as owner, owner.transaction():
        grant_app_role(owner, role)


@pg
def test_the_app_role_starts(accounts_db: AccountsDatabase) -> None:
    with PostgresAccountsStore(accounts_db.app_url) as store:
        assert store.user_count() >= 0


@pg
def test_the_owner_is_refused(accounts_db: AccountsDatabase) -> None:
    with pytest.raises(AccountsStartupError) as raised:
        PostgresAccountsStore(accounts_db.owner_url)
    message = str(raised.value)
    assert f"refusing to serve accounts: role {accounts_db.owner_role!r} owns app.clients" in message
    assert "so it could switch row-level security off" in message
    assert "neither the tables' owner nor a superuser nor BYPASSRLS" in message


@pg
def test_a_superuser_is_refused(accounts_db: AccountsDatabase) -> None:
    with pytest.raises(
        AccountsStartupError, match=r"role 'postgres' is a superuser \(row-level security does not apply"
    ):
        PostgresAccountsStore(accounts_db.admin_url)


@pg
def test_a_bypassrls_role_is_refused_even_with_the_app_grants(
    accounts_db: AccountsDatabase, make_role: MakeRole
) -> None:
    role = make_role("BYPASSRLS")
    _grant_as_app(accounts_db, role)
    with pytest.raises(AccountsStartupError, match=r"has BYPASSRLS \(row-level security does not apply to it\)"):
        PostgresAccountsStore(_url(accounts_db, role))


@pg
def test_a_member_of_the_owner_role_is_refused(accounts_db: AccountsDatabase, make_role: MakeRole) -> None:
    role = make_role(f"IN ROLE {accounts_db.owner_role}")
    with pytest.raises(AccountsStartupError, match=f"or is a member of their owner '{accounts_db.owner_role}'"):
        PostgresAccountsStore(_url(accounts_db, role))


@pg
def test_a_role_with_truncate_is_refused(accounts_db: AccountsDatabase, make_role: MakeRole) -> None:
    role = make_role("")
    _grant_as_app(accounts_db, role)
    with psycopg.connect(accounts_db.owner_url, autocommit=True) as owner:
        owner.execute(sql.SQL("GRANT TRUNCATE ON app.clients TO {}").format(sql.Identifier(role)))
    with pytest.raises(AccountsStartupError, match=r"has TRUNCATE on app\.clients"):
        PostgresAccountsStore(_url(accounts_db, role))


@pg
def test_a_role_never_granted_is_told_to_run_migrate(accounts_db: AccountsDatabase, make_role: MakeRole) -> None:
    role = make_role("")
    with pytest.raises(AccountsStartupError, match=r"lacks SELECT on app\.clients.*python -m asat_accounts migrate"):
        PostgresAccountsStore(_url(accounts_db, role))


@pg
def test_a_table_whose_row_level_security_is_off_is_named(fresh_db: AccountsDatabase) -> None:
    with psycopg.connect(fresh_db.owner_url, autocommit=True) as owner:
        owner.execute("ALTER TABLE app.clients NO FORCE ROW LEVEL SECURITY")
        owner.execute("CREATE TABLE app.documents (id bigint PRIMARY KEY, practice_id bigint NOT NULL)")
    with pytest.raises(AccountsStartupError) as raised:
        PostgresAccountsStore(fresh_db.app_url)
    message = str(raised.value)
    assert "row-level security is not both enabled and forced on app.clients, app.documents" in message
    assert "tenant table(s) app.documents have no row-level security policy" in message
    with psycopg.connect(fresh_db.owner_url, autocommit=True) as owner:
        owner.execute("DROP TABLE app.documents")
        owner.execute("ALTER TABLE app.clients FORCE ROW LEVEL SECURITY")
    PostgresAccountsStore(fresh_db.app_url).close()


@pg
def test_a_database_never_migrated_says_to_migrate(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    with pytest.raises(AccountsStartupError, match=r"schema app has no tables.*python -m asat_accounts migrate"):
        PostgresAccountsStore(db.app_url)


@pg
def test_a_schema_behind_the_code_says_to_migrate(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    migrate(db.owner_url, db.app_role, ())
    needed = len(load_migrations())
    with pytest.raises(AccountsStartupError, match=rf"schema app is at version 0 and this code needs {needed}: run"):
        PostgresAccountsStore(db.app_url)


@pg
def test_an_unreachable_server_is_a_startup_error() -> None:
    with pytest.raises(AccountsStartupError, match="cannot connect to the accounts database"):
        PostgresAccountsStore("postgresql://nobody@127.0.0.1:1/none")
