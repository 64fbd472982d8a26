"""The store, and so the service, refuses to start as a role row-level security would not bind (the
tables' owner, a member of it, a superuser, a BYPASSRLS role, one holding TRUNCATE), over tables
without their row-level security, or over a schema that is missing or behind the code; each
refusal names its reason."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_accounts.role_check import RoleFacts, TableFacts
from asat_extraction.cli import main
from asat_extraction.composition import ConfigError, config_from_env, create_app
from asat_extraction.store.migrate import APP_PRIVILEGES, grant_app_role, load_migrations, migrate
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.store.role_check import ExtractionStartupError, unsafe
from asat_extraction.testing.postgres import ScratchDatabase, scratch_database

MakeRole = Callable[[str], str]


def _table(name: str, **changes: object) -> TableFacts:
    facts: dict[str, object] = {
        "name": name,
        "owner": "asat_owner",
        "member_of_owner": False,
        "rls_enabled": name != "schema_migrations",
        "rls_forced": name != "schema_migrations",
        "tenant": name != "schema_migrations",
        "policies": 0 if name == "schema_migrations" else 1,
        "privileges": frozenset(APP_PRIVILEGES.get(name, ())),
    }
    facts.update(changes)
    return TableFacts(**facts)  # type: ignore[arg-type]


def _facts(*tables: TableFacts, superuser: bool = False, bypass_rls: bool = False) -> RoleFacts:
    named = {t.name: t for t in tables}
    every = tuple(named.get(name, _table(name)) for name in APP_PRIVILEGES) + tuple(
        t for t in tables if t.name not in APP_PRIVILEGES
    )
    return RoleFacts(role="asat_app", superuser=superuser, bypass_rls=bypass_rls, tables=every, schema="extraction")


# --- pure ---------------------------------------------------------------------------------------


def test_the_app_role_as_granted_is_safe() -> None:
    assert unsafe(_facts()) == ((), ())


def test_each_unsafe_fact_is_named_with_the_schema() -> None:
    role, tables = unsafe(
        _facts(
            _table("documents", member_of_owner=True, rls_forced=False),
            _table("corrections", privileges=frozenset({"SELECT", "TRUNCATE"}), policies=0),
            _table("notes", tenant=False),
            bypass_rls=True,
        )
    )
    assert role == (
        "has BYPASSRLS (row-level security does not apply to it)",
        "owns extraction.documents (or is a member of their owner 'asat_owner'), so it could switch row-level "
        "security off",
        "has TRUNCATE on extraction.corrections",
        "lacks INSERT on extraction.corrections",
    )
    assert tables == (
        "row-level security is not both enabled and forced on extraction.documents",
        "tenant table(s) extraction.corrections have no row-level security policy",
        "table(s) extraction.notes have no practice_id column and are not listed in "
        "asat_extraction.store.migrate.NON_TENANT_TABLES",
    )


# --- against the server ---------------------------------------------------------------------------

pg = pytest.mark.postgres


@pytest.fixture(scope="module")
def database() -> Iterator[ScratchDatabase]:
    with scratch_database() as db:
        yield db


@pytest.fixture
def make_role(database: ScratchDatabase) -> Iterator[MakeRole]:
    """Login roles made for one test (``CREATE ROLE <name> LOGIN <options>``), dropped after it."""
    made: list[str] = []

    def create(options: str) -> str:
        name = f"{database.name}_r{secrets.token_hex(3)}"
        with psycopg.connect(database.admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE ROLE {} LOGIN " + options).format(sql.Identifier(name)))
        made.append(name)
        return name

    yield create
    with psycopg.connect(database.admin_url, autocommit=True) as admin:
        for name in made:
            admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
            admin.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def _url(db: ScratchDatabase, role: str) -> str:
    return make_conninfo(db.admin_url, user=role, password="")


def _grant_as_app(db: ScratchDatabase, role: str) -> None:
    with psycopg.connect(db.owner_url, autocommit=True) as owner, owner.transaction():
        grant_app_role(owner, role)


@pg
def test_the_app_role_starts(database: ScratchDatabase) -> None:
    PostgresStore(database.app_url).check()


@pg
def test_the_owner_is_refused(database: ScratchDatabase) -> None:
    with pytest.raises(ExtractionStartupError) as raised:
        PostgresStore(database.owner_url)
    message = str(raised.value)
    assert message.startswith(f"refusing to serve documents: role {database.owner_role!r} owns extraction.corrections")
    assert "so it could switch row-level security off" in message
    assert "neither the tables' owner nor a superuser nor BYPASSRLS" in message
    assert "python -m asat_extraction migrate --app-role <role>" in message


@pg
def test_a_superuser_is_refused(database: ScratchDatabase) -> None:
    with pytest.raises(ExtractionStartupError, match=r"role 'postgres' is a superuser \(row-level security does not"):
        PostgresStore(database.admin_url)


@pg
def test_a_bypassrls_role_is_refused_even_with_the_app_grants(database: ScratchDatabase, make_role: MakeRole) -> None:
    role = make_role("BYPASSRLS")
    _grant_as_app(database, role)
    with pytest.raises(ExtractionStartupError, match=r"has BYPASSRLS \(row-level security does not apply to it\)"):
        PostgresStore(_url(database, role))


@pg
def test_a_member_of_the_owner_is_refused(database: ScratchDatabase, make_role: MakeRole) -> None:
    role = make_role(f"IN ROLE {database.owner_role}")
    with pytest.raises(ExtractionStartupError, match=r"owns extraction\.corrections, extraction\.documents"):
        PostgresStore(_url(database, role))


@pg
def test_a_role_holding_truncate_is_refused(database: ScratchDatabase, make_role: MakeRole) -> None:
    role = make_role("")
    _grant_as_app(database, role)
    with psycopg.connect(database.owner_url, autocommit=True) as owner:
        owner.execute(sql.SQL("GRANT TRUNCATE ON extraction.documents TO {}").format(sql.Identifier(role)))
    with pytest.raises(ExtractionStartupError, match=r"has TRUNCATE on extraction\.documents"):
        PostgresStore(_url(database, role))


@pg
def test_a_role_without_the_grants_is_refused(database: ScratchDatabase, make_role: MakeRole) -> None:
    role = make_role("")
    with pytest.raises(ExtractionStartupError, match=r"lacks SELECT on extraction\.corrections, INSERT on extraction"):
        PostgresStore(_url(database, role))


@pg
def test_a_table_whose_row_level_security_is_off_is_refused() -> None:
    with scratch_database() as db:
        with psycopg.connect(db.owner_url, autocommit=True) as owner:
            owner.execute("ALTER TABLE extraction.transactions NO FORCE ROW LEVEL SECURITY")
        with pytest.raises(ExtractionStartupError) as raised:
            PostgresStore(db.app_url)
        assert "row-level security is not both enabled and forced on extraction.transactions" in str(raised.value)
        assert "Run `python -m asat_extraction migrate`" in str(raised.value)


@pg
def test_a_missing_or_old_schema_is_refused() -> None:
    with scratch_database(migrated=False) as db:
        with pytest.raises(ExtractionStartupError, match=r"schema extraction has no tables"):
            PostgresStore(db.app_url)
        migrate(db.owner_url, db.app_role, migrations=load_migrations()[:1])
        with pytest.raises(ExtractionStartupError) as raised:
            PostgresStore(db.app_url)
        message = str(raised.value)
        assert "row-level security is not both enabled and forced on extraction.corrections" in message
        assert "schema extraction is at migration 0001 and this code needs 0002" in message
        migrate(db.owner_url, db.app_role)
        PostgresStore(db.app_url).check()


@pg
def test_the_service_refuses_to_start_as_the_owner_naming_the_problem(
    database: ScratchDatabase, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_from_env({"ASAT_EXTRACTION_DATABASE_URL": database.owner_url})
    with pytest.raises(ConfigError, match=r"refusing to serve documents: role .* owns extraction\."):
        create_app(config)
    monkeypatch.setenv("ASAT_SERVICE_TOKEN", "t" * 43)
    monkeypatch.setenv("ASAT_EXTRACTION_DATABASE_URL", database.owner_url)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: refusing to serve documents: role {database.owner_role!r} owns extraction.")
    assert "Traceback" not in err
    create_app(config_from_env({"ASAT_EXTRACTION_DATABASE_URL": database.app_url}))  # the app role starts
