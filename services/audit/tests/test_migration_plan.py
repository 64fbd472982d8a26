from __future__ import annotations

import pytest

from asat_audit.migration_runner import (
    AppliedMigration,
    MigrationError,
    load_migrations,
    parse_migrations,
    plan_migrations,
)

FILES = [("0002_more.sql", "SELECT 2;"), ("0001_first.sql", "SELECT 1;")]


def _applied(version: int, name: str, checksum: str) -> AppliedMigration:
    return AppliedMigration(version, name, checksum)


def test_files_are_ordered_by_version() -> None:
    migrations = parse_migrations(FILES)
    assert [(m.version, m.name) for m in migrations] == [(1, "first"), (2, "more")]
    assert len(migrations[0].checksum) == 64


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([("1_first.sql", "")], "NNNN_lowercase_name"),
        ([("0001_First.sql", "")], "NNNN_lowercase_name"),
        ([("0001_a.sql", ""), ("0001_b.sql", "")], "two migration files have version 1"),
        ([("0001_a.sql", ""), ("0003_c.sql", "")], "expected 0002"),
        ([("0002_b.sql", "")], "expected 0001"),
    ],
)
def test_badly_named_or_numbered_files_are_refused(files: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(MigrationError, match=message):
        parse_migrations(files)


def test_a_fresh_database_gets_every_migration() -> None:
    migrations = parse_migrations(FILES)
    assert plan_migrations(migrations, []) == migrations


def test_only_the_missing_migrations_are_planned() -> None:
    first, second = parse_migrations(FILES)
    assert plan_migrations([first, second], [_applied(1, "first", first.checksum)]) == (second,)
    assert (
        plan_migrations([first, second], [_applied(1, "first", first.checksum), _applied(2, "more", second.checksum)])
        == ()
    )


def test_a_changed_applied_migration_is_refused() -> None:
    first, second = parse_migrations(FILES)
    with pytest.raises(MigrationError, match="0001_first was changed after it was applied"):
        plan_migrations([first, second], [_applied(1, "first", "0" * 64)])


def test_a_migration_unknown_to_this_code_is_refused() -> None:
    first, second = parse_migrations(FILES)
    applied = [_applied(1, "first", first.checksum), _applied(2, "more", second.checksum), _applied(3, "x", "a" * 64)]
    with pytest.raises(MigrationError, match="newer release"):
        plan_migrations([first, second], applied)


def test_a_hole_in_the_applied_migrations_is_refused() -> None:
    first, second = parse_migrations(FILES)
    with pytest.raises(MigrationError, match="records migration 0002 but not 0001"):
        plan_migrations([first, second], [_applied(2, "more", second.checksum)])


def test_the_packaged_migrations_load() -> None:
    migrations = load_migrations()
    assert migrations[0].version == 1
    assert "CREATE TABLE research.audit_log" in migrations[0].sql
