"""Signed checkpoints against the real database, through ``python -m asat_audit``: an owner who
recomputes the whole chain after editing a row, and one who deletes the tail, are both caught by
``verify`` (exit 1 naming the first bad id); the checkpointer refuses a readable key and a broken
log; the database's copy of the checkpoints is append-only.

(A row inserted by the app role with a wrong hash is refused by the database itself:
``test_postgres_append_only.py::test_an_insert_that_does_not_extend_the_chain_is_refused``.)
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from asat_audit.canonical import chain_hash
from asat_audit.checkpoint_file import load_private_key, read_checkpoints
from asat_audit.checkpointer import CheckpointRefused, Schedule, make_checkpoint, run_checkpointer
from asat_audit.cli import EXIT_BROKEN, EXIT_OK, EXIT_UNAVAILABLE, main
from asat_audit.postgres_rows import JSON_COLUMNS, row_document
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.store import AuditWriteError

pytestmark = pytest.mark.postgres


def _run(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, env=env, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def signed_log(clean_audit_log: Any, make_record: Any, tmp_path: Path) -> dict[str, str]:
    """Five rows and one checkpoint over them; the env that names the key, file and database."""
    env = {
        "ASAT_DATABASE_URL": clean_audit_log.app_url,
        "ASAT_AUDIT_SIGNING_KEY_FILE": str(tmp_path / "keys" / "audit-signing.pem"),
        "ASAT_AUDIT_PUBLIC_KEY_FILE": str(tmp_path / "keys" / "audit-signing.pem.pub"),
        "ASAT_AUDIT_CHECKPOINT_FILE": str(tmp_path / "outside" / "checkpoints.jsonl"),
    }
    assert _run(["keygen"], env)[0] == EXIT_OK
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        for n in range(5):
            store.append(make_record(n))
    code, out, _ = _run(["checkpoint"], env)
    assert (code, out.strip()) == (EXIT_OK, "checkpoint signed: rows 1..5")
    return env


def _verify(env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    code, out, _ = _run(["verify", "--json"], env)
    return code, json.loads(out)


def _recompute_from(admin_url: str, row: int, change: str) -> None:
    """As the owner would: triggers off, edit one row, recompute every hash from it on."""
    with psycopg.connect(admin_url, autocommit=True, row_factory=dict_row) as admin, admin.transaction():
        admin.execute("ALTER TABLE research.audit_log DISABLE TRIGGER USER")
        admin.execute(change)
        rows = admin.execute("SELECT * FROM research.audit_log ORDER BY id").fetchall()
        prev = None
        for stored in rows:
            if stored["id"] >= row:
                fixed = {**stored, "prev_hash": prev if prev is not None else stored["prev_hash"]}
                digest = chain_hash(fixed["prev_hash"], row_document(fixed))
                admin.execute(
                    "UPDATE research.audit_log SET prev_hash = %s, hash = %s WHERE id = %s",
                    (fixed["prev_hash"], digest, stored["id"]),
                )
                prev = digest
            else:
                prev = stored["hash"]
        admin.execute("ALTER TABLE research.audit_log ENABLE TRIGGER USER")


def test_an_intact_signed_log_verifies_and_says_how_far_it_is_anchored(signed_log: dict[str, str]) -> None:
    code, report = _verify(signed_log)
    assert code == EXIT_OK and report["ok"]
    assert report["anchors"]["anchored_id"] == 5 and report["unanchored_rows"] == 0
    _, text, _ = _run(["verify"], signed_log)
    assert "1 signed checkpoints anchor rows 1..5" in text


def test_an_owner_who_recomputes_the_chain_after_editing_a_row_is_caught(
    signed_log: dict[str, str], clean_audit_log: Any
) -> None:
    _recompute_from(clean_audit_log.admin_url, 2, "UPDATE research.audit_log SET question = 'never asked' WHERE id = 2")
    code, report = _verify(signed_log)
    assert report["broken"] is None  # the chain alone is fooled
    assert code == EXIT_BROKEN and not report["ok"]
    assert (report["first_bad_id"], report["anchors"]["problem"]) == (2, "rewritten")
    _, text, _ = _run(["verify"], signed_log)
    assert "first bad row: 2" in text


def test_an_owner_who_deletes_the_tail_is_caught(signed_log: dict[str, str], clean_audit_log: Any) -> None:
    with psycopg.connect(clean_audit_log.admin_url, autocommit=True) as admin, admin.transaction():
        admin.execute("ALTER TABLE research.audit_log DISABLE TRIGGER USER")
        admin.execute("DELETE FROM research.audit_log WHERE id >= 4")
        admin.execute("ALTER TABLE research.audit_log ENABLE TRIGGER USER")
    code, report = _verify(signed_log)
    assert report["broken"] is None  # rows 1..3 are still a valid chain
    assert code == EXIT_BROKEN
    assert (report["first_bad_id"], report["anchors"]["problem"]) == (4, "truncated")


def test_a_forged_row_is_named(signed_log: dict[str, str], clean_audit_log: Any, make_record: Any) -> None:
    with psycopg.connect(clean_audit_log.admin_url, autocommit=True) as admin, admin.transaction():
        admin.execute("ALTER TABLE research.audit_log DISABLE TRIGGER USER")
        admin.execute("UPDATE research.audit_log SET reasons = %s WHERE id = 3", (Jsonb(["forged"]),))
        admin.execute("ALTER TABLE research.audit_log ENABLE TRIGGER USER")
    code, report = _verify(signed_log)
    assert code == EXIT_BROKEN and report["first_bad_id"] == 3 and report["broken"]["kind"] == "hash_mismatch"
    assert "reasons" in JSON_COLUMNS


def test_later_rows_wait_for_the_next_checkpoint_and_are_said_to(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
    code, report = _verify(signed_log)
    assert code == EXIT_OK and report["unanchored_rows"] == 1
    assert _run(["checkpoint"], signed_log)[1].strip() == "checkpoint signed: rows 6..6"
    assert _run(["checkpoint"], signed_log)[1].strip() == "no new rows since the last checkpoint"
    file_copy = read_checkpoints(Path(signed_log["ASAT_AUDIT_CHECKPOINT_FILE"]))
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        assert store.checkpoints() == file_copy
    assert [(c.first_id, c.last_id) for c in file_copy] == [(1, 5), (6, 6)]


def test_the_checkpointer_refuses_to_sign_a_broken_log(signed_log: dict[str, str], clean_audit_log: Any) -> None:
    _recompute_from(clean_audit_log.admin_url, 3, "UPDATE research.audit_log SET question = 'x' WHERE id = 3")
    code, _, err = _run(["checkpoint"], signed_log)
    assert code == EXIT_BROKEN and "does not verify (first bad row 3)" in err


def test_the_checkpointer_refuses_a_key_others_can_read(signed_log: dict[str, str]) -> None:
    key = Path(signed_log["ASAT_AUDIT_SIGNING_KEY_FILE"])
    key.chmod(0o644)
    code, _, err = _run(["checkpoint"], signed_log)
    assert code == EXIT_UNAVAILABLE and f"chmod 600 {key}" in err


def test_keygen_never_overwrites_a_key(signed_log: dict[str, str]) -> None:
    code, _, err = _run(["keygen"], signed_log)
    assert code == EXIT_UNAVAILABLE and "refusing to overwrite" in err


def test_checking_needs_both_the_file_and_the_public_key(signed_log: dict[str, str]) -> None:
    env = {k: v for k, v in signed_log.items() if k != "ASAT_AUDIT_PUBLIC_KEY_FILE"}
    code, _, err = _run(["verify"], env)
    assert code == EXIT_UNAVAILABLE and "only one is set" in err


@pytest.mark.parametrize(
    "statement", ["UPDATE research.audit_checkpoints SET body = 'x'", "DELETE FROM research.audit_checkpoints"]
)
def test_the_databases_checkpoints_are_append_only(
    signed_log: dict[str, str], clean_audit_log: Any, statement: str
) -> None:
    for url in (clean_audit_log.app_url, clean_audit_log.owner_url):
        with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)  # type: ignore[arg-type]


def _file_and_key(env: dict[str, str]) -> tuple[Path, Ed25519PrivateKey]:
    """The signed log's checkpoint file and signing key, as the checkpointer reads them."""
    return Path(env["ASAT_AUDIT_CHECKPOINT_FILE"]), load_private_key(Path(env["ASAT_AUDIT_SIGNING_KEY_FILE"]))


class _DownAtCheckpoint:
    """The store, with the database gone just as a checkpoint is to be stored (the chaos run's crash)."""

    def __init__(self, store: PostgresAuditStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def add_checkpoint(self, checkpoint: Any) -> None:
        raise AuditWriteError("checkpoint not stored: no connection to the audit database within 5 s")


def test_a_checkpoint_the_database_lost_in_an_outage_is_stored_again_before_the_next(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    # Found by scripts/chaos.py: Postgres killed between the file's write and the database's left
    # the database one checkpoint short, and every later checkpoint "differed" from the file's.
    file, key = _file_and_key(signed_log)
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
        with pytest.raises(AuditWriteError):
            make_checkpoint(_DownAtCheckpoint(store), file, key, datetime.now(UTC))  # type: ignore[arg-type]
        assert len(read_checkpoints(file)) == 2 and len(store.checkpoints()) == 1
        store.append(make_record(6))
        made = make_checkpoint(store, file, key, datetime.now(UTC))
        assert made is not None and (made.first_id, made.last_id) == (7, 7)
        assert store.checkpoints() == read_checkpoints(file)
    code, report = _verify(signed_log)
    assert code == EXIT_OK and report["ok"] and report["unanchored_rows"] == 0


def test_the_checkpointer_keeps_running_through_an_outage(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    file, key = _file_and_key(signed_log)
    outages: list[Exception] = []
    rounds = iter([True, True, False])
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
        down = _DownAtCheckpoint(store)
        run_checkpointer(
            down,  # type: ignore[arg-type]
            file,
            key,
            Schedule(every_rows=1, every_seconds=60),
            lambda: datetime.now(UTC),
            lambda _: None,
            lambda: next(rounds),
            on_outage=outages.append,
        )
        assert len(outages) == 2  # both rounds failed, neither ended the loop
        run_checkpointer(
            store,
            file,
            key,
            Schedule(every_rows=1, every_seconds=60),
            lambda: datetime.now(UTC),
            lambda _: None,
            iter([True, False]).__next__,
        )
        assert store.checkpoints() == read_checkpoints(file)
    assert _verify(signed_log)[1]["ok"]


class _CountingReads:
    """The store, with the rows each read of the links started after."""

    def __init__(self, store: PostgresAuditStore) -> None:
        self._store = store
        self.reads_after: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def iter_links(self, after_id: int = 0) -> Any:
        self.reads_after.append(after_id)
        return self._store.iter_links(after_id)


def test_a_later_checkpoint_reads_only_the_rows_since_the_last(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    file, key = _file_and_key(signed_log)
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
        counting = _CountingReads(store)
        made = make_checkpoint(counting, file, key, datetime.now(UTC), whole_log=False)  # type: ignore[arg-type]
        assert made is not None and (made.first_id, made.last_id) == (6, 6)
        assert counting.reads_after == [4]  # from the last checkpoint's last row (5) on
    assert _verify(signed_log)[1]["ok"]


def test_a_rewrite_carried_forward_is_caught_by_a_later_checkpoint_too(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    file, key = _file_and_key(signed_log)
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
    _recompute_from(clean_audit_log.admin_url, 3, "UPDATE research.audit_log SET question = 'x' WHERE id = 3")
    with (
        PostgresAuditStore(clean_audit_log.app_url) as store,
        pytest.raises(CheckpointRefused, match="first bad row 5"),
    ):
        make_checkpoint(store, file, key, datetime.now(UTC), whole_log=False)


def test_a_new_row_that_does_not_verify_is_not_signed_by_a_later_checkpoint(
    signed_log: dict[str, str], clean_audit_log: Any, make_record: Any
) -> None:
    file, key = _file_and_key(signed_log)
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(5))
        store.append(make_record(6))
    with psycopg.connect(clean_audit_log.admin_url, autocommit=True) as admin, admin.transaction():
        admin.execute("ALTER TABLE research.audit_log DISABLE TRIGGER USER")
        admin.execute("UPDATE research.audit_log SET question = 'x' WHERE id = 7")
        admin.execute("ALTER TABLE research.audit_log ENABLE TRIGGER USER")
    with (
        PostgresAuditStore(clean_audit_log.app_url) as store,
        pytest.raises(CheckpointRefused, match="first bad row 7"),
    ):
        make_checkpoint(store, file, key, datetime.now(UTC), whole_log=False)
