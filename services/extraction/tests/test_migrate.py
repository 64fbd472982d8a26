"""``python -m asat_extraction migrate``: as the owner role, granting the app role; rows stored
before documents belonged to a practice stop 0002 with a message, or go to the practice named."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from asat_extraction.cli import main
from asat_extraction.store.migrate import MigrationError, load_migrations, migrate
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.store.records import ReviewStatus, TransactionFilter
from asat_extraction.testing.postgres import ScratchDatabase, scratch_database

pytestmark = pytest.mark.postgres

FIRST_ONLY = load_migrations()[:1]


def version(db: ScratchDatabase) -> int:
    with psycopg.connect(db.admin_url) as conn:
        row = conn.execute("SELECT max(version) FROM extraction.schema_migrations").fetchone()
    return int(row[0]) if row is not None else 0


def store_a_document_before_practices(db: ScratchDatabase) -> None:
    """A document, its transaction and a correction as 0001 stored them (no practice)."""
    with psycopg.connect(db.owner_url) as conn:
        conn.execute(
            "INSERT INTO extraction.documents (id, filename, media_type, sha256, size, content) VALUES "
            "('00000000-0000-0000-0000-0000000000d1', 'old.txt', 'text/plain', repeat('c', 64), 3, 'old')"
        )
        values = Jsonb({"kind": "receipt", "total_amount": "3.00"})
        conn.execute(
            'INSERT INTO extraction.transactions (id, document_id, extractor, "values", original, extraction) VALUES '
            "('00000000-0000-0000-0000-0000000000a1', '00000000-0000-0000-0000-0000000000d1', 'deterministic',"
            " %s, %s, %s)",
            (values, values, Jsonb({"warnings": []})),
        )
        conn.execute(
            "INSERT INTO extraction.corrections (transaction_id, who, changes, before) VALUES "
            "('00000000-0000-0000-0000-0000000000a1', 'sam', '{}', '{}')"
        )


def test_rows_from_before_practices_stop_the_migration_saying_what_to_do() -> None:
    with scratch_database(migrated=False) as db:
        assert migrate(db.owner_url, db.app_role, migrations=FIRST_ONLY) == 1
        store_a_document_before_practices(db)
        with pytest.raises(MigrationError) as refused:
            migrate(db.owner_url, db.app_role)
        message = str(refused.value)
        assert "0002_practices failed and was rolled back" in message
        assert "holds 1 document(s), 1 transaction(s) and 1 correction(s) stored before documents belonged" in message
        assert "python -m asat_extraction migrate --existing-rows-practice <practice id>" in message
        assert version(db) == 1  # nothing of 0002 stays


def test_rows_from_before_practices_go_to_the_practice_named() -> None:
    with scratch_database(migrated=False) as db:
        migrate(db.owner_url, db.app_role, migrations=FIRST_ONLY)
        store_a_document_before_practices(db)
        assert migrate(db.owner_url, db.app_role, existing_rows_practice=7) == 1
        store = PostgresStore(db.app_url)
        (transaction,) = store.transactions(7, TransactionFilter())
        assert transaction.values["total_amount"] == "3.00" and len(transaction.corrections) == 1
        assert store.transactions(8, TransactionFilter()) == []
        corrected = store.correct(7, transaction.id, "sam", {"total_amount": "3.30"}, ReviewStatus.CORRECTED, None)
        assert len(corrected.corrections) == 2


def test_an_empty_schema_needs_no_practice_and_a_bad_one_is_refused() -> None:
    with scratch_database(migrated=False) as db:
        with pytest.raises(MigrationError, match="a practice id is a whole number from 1"):
            migrate(db.owner_url, db.app_role, existing_rows_practice=0)
        assert migrate(db.owner_url, db.app_role) == 2


def test_the_app_role_must_be_another_role_that_exists() -> None:
    with scratch_database() as db:
        with pytest.raises(MigrationError, match="is the role running migrations"):
            migrate(db.owner_url, db.owner_role)
        with pytest.raises(MigrationError, match="the app role 'nobody_here' does not exist"):
            migrate(db.owner_url, "nobody_here")


def test_the_cli_migrates_as_the_owner_and_grants_the_app_role(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("ASAT_EXTRACTION_APP_ROLE", "ASAT_AUDIT_APP_ROLE", "ASAT_AUDIT_MIGRATE_URL", "ASAT_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with scratch_database(migrated=False) as db:
        monkeypatch.delenv("ASAT_EXTRACTION_MIGRATE_URL", raising=False)
        assert main(["migrate", "--app-role", db.app_role]) == 2
        assert "no owner-role URL: set ASAT_EXTRACTION_MIGRATE_URL" in capsys.readouterr().err
        monkeypatch.setenv("ASAT_EXTRACTION_MIGRATE_URL", db.owner_url)
        assert main(["migrate"]) == 2
        assert "no app role to grant: pass --app-role" in capsys.readouterr().err
        # The app role defaults to the user of the service's URL.
        monkeypatch.setenv("ASAT_EXTRACTION_DATABASE_URL", db.app_url)
        assert main(["migrate"]) == 0
        said = capsys.readouterr().out
        assert f"schema extraction: 2 migration(s) applied, now at 0002; app role {db.app_role} granted" in said
        assert main(["migrate", "--app-role", db.app_role]) == 0
        assert "0 migration(s) applied" in capsys.readouterr().out
        PostgresStore(db.app_url).check()


def test_the_cli_refuses_rows_without_a_practice_and_takes_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with scratch_database(migrated=False) as db:
        migrate(db.owner_url, db.app_role, migrations=FIRST_ONLY)
        store_a_document_before_practices(db)
        monkeypatch.setenv("ASAT_EXTRACTION_MIGRATE_URL", db.owner_url)
        assert main(["migrate", "--app-role", db.app_role]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: extraction migration 0002_practices failed") and "Traceback" not in err
        assert main(["migrate", "--app-role", db.app_role, "--existing-rows-practice", "3"]) == 0
        assert PostgresStore(db.app_url).transactions(3, TransactionFilter())[0].values["kind"] == "receipt"
        monkeypatch.setenv("ASAT_EXTRACTION_MIGRATE_URL", "postgresql://nobody@127.0.0.1:1/none")
        assert main(["migrate", "--app-role", db.app_role]) == 2
        assert "ASAT_EXTRACTION_MIGRATE_URL: cannot use the database" in capsys.readouterr().err


def test_extract_needs_no_database_and_no_practice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``extract`` reads files and stores nothing: no database URL, no practice, still exit 0."""
    out = tmp_path / "out"
    source = tmp_path / "r.txt"
    source.write_bytes(b"Acme Pty Ltd\nABN 51 824 753 556\nTotal $22.00\nGST $2.00\n")
    for name in ("ASAT_EXTRACTION_DATABASE_URL", "ASAT_DATABASE_URL", "ASAT_EXTRACTION_MIGRATE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert main(["extract", str(source), "--out", str(out)]) == 0
    assert json.loads((out / "r.json").read_text())["status"] == "ok"


def test_the_practice_for_old_rows_can_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE`` (what ``make up`` passes through) does what the flag does."""
    with scratch_database(migrated=False) as db:
        migrate(db.owner_url, db.app_role, migrations=FIRST_ONLY)
        store_a_document_before_practices(db)
        monkeypatch.setenv("ASAT_EXTRACTION_MIGRATE_URL", db.owner_url)
        monkeypatch.setenv("ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE", "4")
        assert main(["migrate", "--app-role", db.app_role]) == 0, capsys.readouterr().err
        assert [t.values["kind"] for t in PostgresStore(db.app_url).transactions(4, TransactionFilter())] == ["receipt"]
        monkeypatch.setenv("ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE", "0")
        assert main(["migrate", "--app-role", db.app_role]) == 2
        assert "ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE" in capsys.readouterr().err
