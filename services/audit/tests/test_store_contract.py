"""One contract, two adapters: the in-memory store and the Postgres store behave the same."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.checkpoint import sign
from asat_audit.memory_store import InMemoryAuditStore
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.reconnecting import ReconnectingAuditStore
from asat_audit.record import AskedBy, AuditCitation, StageLatency
from asat_audit.store import AuditStore, AuditWriteError


class StoreContract:
    """Subclasses provide the ``store`` fixture (an empty log)."""

    def test_appends_get_ids_from_one_and_link_to_genesis(self, store: AuditStore, make_record: Any) -> None:
        first = store.append(make_record(0))
        second = store.append(make_record(1))
        assert (first.id, second.id) == (1, 2)
        assert first.prev_hash == GENESIS_HASH
        assert second.prev_hash == first.hash

    def test_the_hash_covers_id_timestamp_and_record(self, store: AuditStore, make_record: Any) -> None:
        entry = store.append(make_record(0))
        assert entry.recorded_at.tzinfo is not None
        assert entry.hash == chain_hash(entry.prev_hash, record_document(entry.id, entry.recorded_at, entry.record))

    def test_get_returns_what_was_appended(self, store: AuditStore, make_record: Any) -> None:
        appended = [store.append(make_record(n)) for n in range(3)]
        assert store.get(2) == appended[1]
        assert store.get(0) is None
        assert store.get(4) is None

    def test_awkward_values_round_trip(self, store: AuditStore, make_record: Any) -> None:
        record = make_record(
            question="Deductible? «é» 税 🧾 \\ \" '; DROP TABLE x; --",
            as_of=None,
            income_year=None,
            seed=-(2**63),
            reasons=(),
            citations=(AuditCitation("v", (), "", 0, 0),),
            latencies=(
                StageLatency("a", 1e20),
                StageLatency("b", 1.5e-7),
                StageLatency("c", 0.1),
                StageLatency("d", 0),
            ),
        )
        entry = store.append(record)
        assert store.get(entry.id) == entry
        assert store.verify().ok

    def test_as_known_on_round_trips_and_is_chained(self, store: AuditStore, make_record: Any) -> None:
        known = store.append(make_record(0, as_known_on=date(2015, 10, 31)))
        unknown = store.append(make_record(1))
        also_known = store.append(make_record(2, as_of=None, as_known_on=date(2000, 2, 29)))
        assert store.get(known.id) == known
        assert known.record.as_known_on == date(2015, 10, 31)
        assert store.get(unknown.id) == unknown
        assert unknown.record.as_known_on is None
        assert store.get(also_known.id) == also_known
        assert list(store.iter_entries()) == [known, unknown, also_known]
        assert known.hash == chain_hash(known.prev_hash, record_document(known.id, known.recorded_at, known.record))
        assert "as_known_on" not in record_document(unknown.id, unknown.recorded_at, unknown.record)
        report = store.verify()
        assert report.ok
        assert (report.checked, report.last_hash) == (3, also_known.hash)

    def test_shown_round_trips_exactly_and_is_chained(self, store: AuditStore, make_record: Any) -> None:
        # Key order, spacing and non-ASCII are kept as written: the hash covers the stored text.
        text = '{"z":1,"note":"café — s 8-1 (1)","claims":[{"quote":"a \\"loss\\" or outgoing"}]}'
        shown = store.append(make_record(0, shown=text))
        plain = store.append(make_record(1))
        assert store.get(shown.id) == shown
        assert shown.record.shown == text
        assert plain.record.shown is None
        assert "shown" not in record_document(plain.id, plain.recorded_at, plain.record)
        assert record_document(shown.id, shown.recorded_at, shown.record)["shown"] == text
        assert shown.hash == chain_hash(shown.prev_hash, record_document(shown.id, shown.recorded_at, shown.record))
        assert store.verify().ok

    def test_asked_by_round_trips_and_is_chained(self, store: AuditStore, make_record: Any) -> None:
        asked = store.append(make_record(0, asked_by=AskedBy(7, "jo@example.com.au", 3, 12)))
        unknown = store.append(make_record(1))
        no_client = store.append(make_record(2, asked_by=AskedBy(8, "al@example.com.au", 4)))
        assert store.get(asked.id) == asked
        assert store.get(no_client.id) == no_client and no_client.record.asked_by is not None
        assert no_client.record.asked_by.client_id is None
        assert unknown.record.asked_by is None
        assert "asked_by" not in record_document(unknown.id, unknown.recorded_at, unknown.record)
        assert record_document(asked.id, asked.recorded_at, asked.record)["asked_by"] == {
            "user_id": 7,
            "user_email": "jo@example.com.au",
            "practice_id": 3,
            "client_id": 12,
        }
        assert store.verify().ok

    def test_last_and_find_keep_one_practice_s_rows(self, store: AuditStore, make_record: Any) -> None:
        a, b = AskedBy(1, "a@example.com.au", 10), AskedBy(2, "b@example.com.au", 20)
        rows = [
            store.append(make_record(0, question="turnover A", asked_by=a)),
            store.append(make_record(1, question="turnover B", asked_by=b)),
            store.append(make_record(2, question="turnover nobody")),
            store.append(make_record(3, question="GST A", asked_by=a)),
        ]
        assert store.last(10, practice_id=10) == (rows[0], rows[3])
        assert store.last(1, practice_id=10) == (rows[3],)
        assert store.last(10, practice_id=20) == (rows[1],)
        assert store.last(10, practice_id=30) == ()
        assert store.last(10) == tuple(rows)
        assert store.find("turnover", 10, practice_id=10) == (rows[0],)
        assert store.find("TURNOVER", 10, practice_id=20) == (rows[1],)
        assert store.find("turnover", 10) == tuple(rows[:3])

    def test_find_matches_the_question_literally_newest_n_oldest_first(
        self, store: AuditStore, make_record: Any
    ) -> None:
        questions = ["Home office in FY2020?", "Car expenses 50% rule", "home OFFICE again", "Car_expenses", "GST"]
        entries = [store.append(make_record(i, question=q)) for i, q in enumerate(questions)]
        assert store.find("home office", 10) == (entries[0], entries[2])
        assert store.find("home office", 1) == (entries[2],)
        assert store.find("50%", 10) == (entries[1],)  # % is a literal, not a wildcard
        assert store.find("r_e", 10) == (entries[3],)  # so is _
        assert store.find("", 2) == (entries[3], entries[4])
        assert store.find("nothing like it", 5) == ()
        assert store.find("GST", 0) == ()
        with pytest.raises(ValueError, match="n >= 0"):
            store.find("GST", -1)

    def test_links_and_checkpoints(self, store: AuditStore, make_record: Any) -> None:
        appended = [store.append(make_record(n)) for n in range(3)]
        assert [(link.id, link.hash) for link in store.iter_links()] == [(e.id, e.hash) for e in appended]
        assert [link.id for link in store.iter_links(after_id=1)] == [2, 3]
        assert list(store.iter_links(after_id=3)) == []
        assert store.checkpoints() == ()
        key = Ed25519PrivateKey.generate()
        moment = datetime(2026, 12, 3, tzinfo=UTC)
        first = sign(key, 1, 2, [e.hash for e in appended[:2]], moment)
        second = sign(key, 3, 3, [appended[2].hash], moment)
        store.add_checkpoint(first)
        store.add_checkpoint(second)
        assert store.checkpoints() == (first, second)
        with pytest.raises(AuditWriteError):
            store.add_checkpoint(second)  # a checkpoint ending where one already does is refused

    def test_last_n_oldest_first(self, store: AuditStore, make_record: Any) -> None:
        appended = [store.append(make_record(n)) for n in range(5)]
        assert store.last(2) == tuple(appended[3:])
        assert store.last(0) == ()
        assert store.last(99) == tuple(appended)
        with pytest.raises(ValueError):
            store.last(-1)

    def test_iter_entries_after_an_id(self, store: AuditStore, make_record: Any) -> None:
        appended = [store.append(make_record(n)) for n in range(4)]
        assert list(store.iter_entries()) == appended
        assert list(store.iter_entries(after_id=2)) == appended[2:]

    def test_an_empty_log_verifies(self, store: AuditStore) -> None:
        report = store.verify()
        assert report.ok
        assert (report.checked, report.last_id, report.last_hash) == (0, 0, GENESIS_HASH)

    def test_a_long_chain_verifies(self, store: AuditStore, make_record: Any) -> None:
        appended = [store.append(make_record(n, as_of=date(2020, 1, 1 + n % 28))) for n in range(60)]
        report = store.verify()
        assert report.ok
        assert (report.checked, report.last_id, report.last_hash) == (60, 60, appended[-1].hash)
        assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(appended))
        assert all(a.recorded_at <= b.recorded_at for a, b in itertools.pairwise(appended))


class TestInMemoryAuditStore(StoreContract):
    @pytest.fixture
    def store(self) -> AuditStore:
        return InMemoryAuditStore()


@pytest.mark.postgres
class TestPostgresAuditStore(StoreContract):
    @pytest.fixture
    def store(self, clean_audit_log: Any) -> Iterator[AuditStore]:
        with PostgresAuditStore(clean_audit_log.app_url) as store:
            yield store


@pytest.mark.postgres
class TestReconnectingAuditStore(StoreContract):
    """The adapter research composes: the same contract through its reconnecting wrapper."""

    @pytest.fixture
    def store(self, clean_audit_log: Any) -> Iterator[AuditStore]:
        store = ReconnectingAuditStore(clean_audit_log.app_url)
        try:
            yield store
        finally:
            store.close()
