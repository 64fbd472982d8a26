"""Row-level security, checked with direct SQL as the app role: one practice never sees or writes
another's rows, and every tenant table (found from the catalog) is covered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from psycopg import sql

from asat_accounts.migrate import APP_PRIVILEGES
from asat_accounts.role_check import RLS_EXEMPT

from .support import AccountsDatabase, TwoPractices

pytestmark = pytest.mark.postgres

# pg_policy.polcmd: which command a policy covers ('*' all).
_COMMAND_CODES = {"SELECT": "r", "INSERT": "a", "UPDATE": "w", "DELETE": "d"}


def tenant_tables(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """Every table of schema app with a practice_id column, from the catalog."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'practice_id' AND NOT a.attisdropped"
        " WHERE n.nspname = 'app' AND c.relkind IN ('r', 'p') ORDER BY c.relname"
    ).fetchall()
    return [str(name) for (name,) in rows]


def rls_problems(conn: psycopg.Connection[tuple[object, ...]], app_role: str) -> list[str]:
    """What a table of schema app lacks: RLS enabled and forced (every table but the exempt ones);
    for a tenant table, a policy keyed on the practice for every command the app role may run."""
    problems: list[str] = []
    tables = conn.execute(
        "SELECT c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'app' AND c.relkind IN ('r', 'p')"
    ).fetchall()
    tenants = set(tenant_tables(conn))
    for oid, name, enabled, forced in tables:
        if name in RLS_EXEMPT:
            continue
        if not (enabled and forced):
            problems.append(f"app.{name}: row-level security enabled={enabled} forced={forced}")
        if name not in tenants:
            continue
        policies = conn.execute(
            "SELECT polname, polcmd, coalesce(pg_get_expr(polqual, polrelid), '') || ' ' ||"
            " coalesce(pg_get_expr(polwithcheck, polrelid), '') FROM pg_policy WHERE polrelid = %s ORDER BY polname",
            (oid,),
        ).fetchall()
        for command, code in _COMMAND_CODES.items():
            held = conn.execute("SELECT has_table_privilege(%s, %s, %s)", (app_role, oid, command)).fetchone()
            if held == (True,) and not any(cmd in (code, "*") for _, cmd, _ in policies):
                problems.append(f"app.{name}: the app role may {command} but no policy covers it")
        for policy, _, text in policies:
            if "practice_id" not in str(text):
                problems.append(f"app.{name}: policy {policy} is not keyed on practice_id")
            if "app.practice_id" not in str(text) and "current_practice_id" not in str(text):
                problems.append(f"app.{name}: policy {policy} does not read the transaction's practice")
    return problems


@contextmanager
def as_app(db: AccountsDatabase, practice_id: int | None) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """A transaction as the app role, with app.practice_id set (SET LOCAL) when given."""
    with psycopg.connect(db.app_url) as conn, conn.transaction():
        if practice_id is not None:
            conn.execute(sql.SQL("SET LOCAL app.practice_id = {}").format(sql.Literal(str(practice_id))))
        yield conn


def test_every_tenant_table_has_forced_row_level_security_keyed_on_the_practice(
    accounts_db: AccountsDatabase,
) -> None:
    with accounts_db.admin() as admin:
        found = tenant_tables(admin)
        assert {"clients", "memberships", "secrets"} <= set(found)
        assert set(found) <= set(APP_PRIVILEGES)
        assert rls_problems(admin, accounts_db.app_role) == []


def test_a_new_tenant_table_without_a_policy_is_caught(fresh_db: AccountsDatabase) -> None:
    with fresh_db.admin() as admin:
        admin.execute(f'SET ROLE "{fresh_db.owner_role}"')
        admin.execute("CREATE TABLE app.documents (id bigint PRIMARY KEY, practice_id bigint NOT NULL)")
        admin.execute(f'GRANT SELECT, INSERT ON app.documents TO "{fresh_db.app_role}"')
        assert "documents" in tenant_tables(admin)
        assert rls_problems(admin, fresh_db.app_role) == [
            "app.documents: row-level security enabled=False forced=False",
            "app.documents: the app role may SELECT but no policy covers it",
            "app.documents: the app role may INSERT but no policy covers it",
        ]
        admin.execute("ALTER TABLE app.documents ENABLE ROW LEVEL SECURITY")
        admin.execute("ALTER TABLE app.documents FORCE ROW LEVEL SECURITY")
        admin.execute("CREATE POLICY everyone ON app.documents FOR ALL USING (true)")
        assert rls_problems(admin, fresh_db.app_role) == [
            "app.documents: policy everyone is not keyed on practice_id",
            "app.documents: policy everyone does not read the transaction's practice",
        ]
        admin.execute("DROP POLICY everyone ON app.documents")
        admin.execute(
            "CREATE POLICY of_the_practice ON app.documents FOR ALL"
            " USING (practice_id = (SELECT app.current_practice_id()))"
        )
        assert rls_problems(admin, fresh_db.app_role) == []


def test_the_app_role_reads_no_row_of_another_practice(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    a, b = two_practices.a, two_practices.b
    with accounts_db.admin() as admin:
        tables = tenant_tables(admin)
        a_members = {
            str(e)
            for (e,) in admin.execute(
                "SELECT u.email FROM app.users u JOIN app.memberships m ON m.user_id = u.id WHERE m.practice_id = %s",
                (a.id,),
            ).fetchall()
        }
    for practice, other in ((a, b), (b, a)):
        with as_app(accounts_db, practice.id) as conn:
            for table in tables:
                query = sql.SQL("SELECT count(*) FILTER (WHERE practice_id = %s), count(*) FROM {}").format(
                    sql.Identifier("app", table)
                )
                counts = conn.execute(query, (practice.id,)).fetchone()
                own, total = (int(str(n)) for n in counts) if counts is not None else (0, 0)
                assert own == total, f"app.{table} shows {total - own} row(s) of another practice"
                assert own > 0, f"app.{table} shows none of practice {practice.id}'s own rows"
                foreign = conn.execute(
                    sql.SQL("SELECT count(*) FROM {} WHERE practice_id = %s").format(sql.Identifier("app", table)),
                    (other.id,),
                ).fetchone()
                assert foreign == (0,)
            assert conn.execute("SELECT array_agg(id) FROM app.practices").fetchone() == ([practice.id],)
            if practice is a:
                emails = {str(e) for (e,) in conn.execute("SELECT email FROM app.users").fetchall()}
                assert emails == a_members


def test_tenant_tables_refuse_a_query_with_no_practice_set(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    for table in ("clients", "secrets"):
        with (
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set for this transaction"),
            as_app(accounts_db, None) as conn,
        ):
            conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier("app", table)))
    with as_app(accounts_db, None) as conn:
        for table in ("practices", "users", "memberships"):
            count = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier("app", table))).fetchone()
            assert count == (0,), f"app.{table} shows rows with no practice or user set"


def test_the_owner_role_is_bound_too(accounts_db: AccountsDatabase, two_practices: TwoPractices) -> None:
    with psycopg.connect(accounts_db.owner_url) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set"):
            conn.execute("SELECT count(*) FROM app.clients")
        conn.rollback()
        conn.execute(sql.SQL("SET app.practice_id = {}").format(sql.Literal(str(two_practices.a.id))))
        assert conn.execute(
            "SELECT count(*) FROM app.clients WHERE practice_id <> %s", (two_practices.a.id,)
        ).fetchone() == (0,)


@pytest.mark.parametrize(
    ("statement", "refusal"),
    [
        ("INSERT INTO app.clients (practice_id, name) VALUES (%(b)s, 'Planted')", "row-level security"),
        ("UPDATE app.clients SET practice_id = %(b)s WHERE practice_id = %(a)s", "row-level security"),
        (
            "INSERT INTO app.secrets (practice_id, name, nonce, ciphertext, key_id, hint)"
            " VALUES (%(b)s, 'planted', '\\x000000000000000000000000', '\\x00000000000000000000000000000000ff', 'k1', '…')",
            "row-level security",
        ),
        (
            "INSERT INTO app.memberships (practice_id, user_id, role) VALUES (%(b)s, %(a_owner)s, 'owner')",
            "row-level security",
        ),
        ("INSERT INTO app.practices (id, name) VALUES (%(b)s + 1000, 'Other')", "row-level security"),
        (
            "INSERT INTO app.research_history (practice_id, audit_id, user_id, question, period, decision, asked_at)"
            " VALUES (%(b)s, 424242, %(a_owner)s, 'Planted?', 'income year 2015', 'answer', now())",
            "row-level security",
        ),
    ],
)
def test_a_write_for_another_practice_is_refused(
    accounts_db: AccountsDatabase, two_practices: TwoPractices, statement: str, refusal: str
) -> None:
    params = {"a": two_practices.a.id, "b": two_practices.b.id, "a_owner": two_practices.a_owner.user.id}
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege, match=refusal),
        as_app(accounts_db, two_practices.a.id) as conn,
    ):
        conn.execute(statement, params)


def test_another_practices_rows_cannot_be_changed_or_removed(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    a, b = two_practices.a.id, two_practices.b.id
    with accounts_db.admin() as admin:
        before = admin.execute(
            "SELECT id, name, notes FROM app.clients WHERE practice_id = %s ORDER BY id", (b,)
        ).fetchall()
    with as_app(accounts_db, a) as conn:
        assert conn.execute("UPDATE app.clients SET notes = 'changed' WHERE practice_id = %s", (b,)).rowcount == 0
        assert conn.execute("DELETE FROM app.clients WHERE practice_id = %s", (b,)).rowcount == 0
        assert conn.execute("DELETE FROM app.secrets WHERE practice_id = %s", (b,)).rowcount == 0
        assert conn.execute("DELETE FROM app.memberships WHERE practice_id = %s", (b,)).rowcount == 0
        assert conn.execute("UPDATE app.practices SET name = 'taken' WHERE id = %s", (b,)).rowcount == 0
        assert (
            conn.execute(
                "UPDATE app.users SET password_hash = '$argon2id$x' WHERE id = %s", (two_practices.b_owner.user.id,)
            ).rowcount
            == 0
        )
    with accounts_db.admin() as admin:
        after = admin.execute(
            "SELECT id, name, notes FROM app.clients WHERE practice_id = %s ORDER BY id", (b,)
        ).fetchall()
    assert after == before


def test_research_history_is_append_only_and_each_practice_sees_its_own(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    """The app role reads and adds its practice's history rows only, and changes or removes none, not
    even its own: the audit rows they point to are the practice's record of what it was told."""
    a, b = two_practices.a.id, two_practices.b.id
    with accounts_db.admin() as admin:
        theirs = admin.execute("SELECT audit_id FROM app.research_history WHERE practice_id = %s", (b,)).fetchall()
    assert theirs
    with as_app(accounts_db, a) as conn:
        for (audit_id,) in theirs:
            assert conn.execute(
                "SELECT count(*) FROM app.research_history WHERE audit_id = %s", (audit_id,)
            ).fetchone() == (0,)
        conn.execute(
            "INSERT INTO app.research_history (practice_id, audit_id, user_id, question, period, decision, asked_at)"
            " VALUES (%s, 737373, %s, 'Mine?', 'income year 2016', 'answer', now())",
            (a, two_practices.a_owner.user.id),
        )
        assert conn.execute("SELECT practice_id FROM app.research_history WHERE audit_id = 737373").fetchone() == (a,)
    for statement in (
        "UPDATE app.research_history SET question = 'changed' WHERE practice_id = %s",
        "DELETE FROM app.research_history WHERE practice_id = %s",
    ):
        with (
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"),
            as_app(accounts_db, a) as conn,
        ):
            conn.execute(statement, (a,))
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set for this transaction"),
        as_app(accounts_db, None) as conn,
    ):
        conn.execute("SELECT count(*) FROM app.research_history")


def test_truncate_is_not_granted(accounts_db: AccountsDatabase) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"), as_app(accounts_db, 1) as conn:
        conn.execute("TRUNCATE app.clients")


def test_sessions_and_sign_in_attempts_need_their_setting(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    """A session is seen by its token's digest (or as its practice's or user's); attempts by address."""
    with as_app(accounts_db, None) as conn:
        assert conn.execute("SELECT count(*) FROM app.sessions").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM app.sign_in_attempts").fetchone() == (0,)
    with accounts_db.admin() as admin:
        admin.execute("INSERT INTO app.sign_in_attempts (address) VALUES ('198.51.100.7') ON CONFLICT DO NOTHING")
        digest = admin.execute(
            "SELECT token_digest FROM app.sessions WHERE practice_id = %s LIMIT 1", (two_practices.b.id,)
        ).fetchone()
    assert digest is not None
    with as_app(accounts_db, None) as conn:
        conn.execute("SELECT set_config('app.sign_in_address', '203.0.113.9', true)")
        assert conn.execute("SELECT count(*) FROM app.sign_in_attempts").fetchone() == (0,)
        conn.execute("SELECT set_config('app.session_digest', %s, true)", (str(digest[0]),))
        rows = conn.execute("SELECT practice_id FROM app.sessions").fetchall()
        assert rows == [(two_practices.b.id,)]


def test_a_session_cannot_be_made_for_another_practice_or_user(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    a, b = two_practices.a.id, two_practices.b.id
    b_owner = two_practices.b_owner.user.id
    insert = (
        "INSERT INTO app.sessions (token_digest, user_id, practice_id, csrf_token, created_at, last_seen_at,"
        " expires_at) VALUES (%s, %s, %s, %s, now(), now(), now() + interval '1 hour')"
    )
    digest, csrf = "ab" * 32, "c" * 43
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"),
        as_app(accounts_db, a) as conn,
    ):
        conn.execute("SELECT set_config('app.session_digest', %s, true)", (digest,))
        conn.execute("SELECT set_config('app.user_id', %s, true)", (str(two_practices.a_owner.user.id),))
        conn.execute(insert, (digest, two_practices.a_owner.user.id, b, csrf))
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"),
        as_app(accounts_db, b) as conn,
    ):
        conn.execute("SELECT set_config('app.session_digest', %s, true)", (digest,))
        conn.execute("SELECT set_config('app.user_id', %s, true)", (str(two_practices.a_owner.user.id),))
        conn.execute(insert, (digest, b_owner, b, csrf))
    with pytest.raises(psycopg.errors.ForeignKeyViolation), as_app(accounts_db, b) as conn:
        # Even with every setting agreeing, the user must be a member of the practice.
        conn.execute("SELECT set_config('app.session_digest', %s, true)", (digest,))
        conn.execute("SELECT set_config('app.user_id', %s, true)", (str(two_practices.a_owner.user.id),))
        conn.execute(insert, (digest, two_practices.a_owner.user.id, b, csrf))
