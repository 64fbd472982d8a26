"""The build caches' SQLite table: rows by key, replaced by key, and only plain names in its SQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_ingest.keyed_table import KeyedTable, cache_key


def test_rows_are_read_by_key_and_replaced_by_key(tmp_path: Path) -> None:
    table = KeyedTable(tmp_path / "t.sqlite3", "things", (("size", "INTEGER NOT NULL"), ("data", "BLOB NOT NULL")))
    a, b, c = (cache_key("id", text) for text in ("a", "b", "c"))
    table.put([(a, 1, b"x"), (b, 2, b"yy")])
    table.put([(a, 3, b"zzz")])
    assert table.rows([a, b, c]) == {a: (3, b"zzz"), b: (2, b"yy")} and len(table) == 2
    table.close()
    assert KeyedTable(tmp_path / "t.sqlite3", "things", (("size", "INTEGER"), ("data", "BLOB"))).rows([b]) == {
        b: (2, b"yy")
    }


def test_the_key_names_its_identity() -> None:
    assert cache_key("embedder-a", "text") != cache_key("embedder-b", "text")


@pytest.mark.parametrize("table, column", [("things; DROP TABLE x", "size"), ("things", "Size"), ("things", "a b")])
def test_only_plain_names_reach_the_sql(tmp_path: Path, table: str, column: str) -> None:
    with pytest.raises(ValueError, match="lower-case words"):
        KeyedTable(tmp_path / "t.sqlite3", table, ((column, "INTEGER"),))
