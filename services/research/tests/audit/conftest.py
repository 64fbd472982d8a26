"""A factory for realistic audit records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from asat_research.audit.record import AuditCitation, AuditRecord, ReadingListItem, StageLatency

RecordFactory = Callable[..., AuditRecord]


def sample_record(n: int = 0, **changes: Any) -> AuditRecord:
    """Record number ``n`` of a plausible session; ``changes`` override fields."""
    quote = "a loss or outgoing to the extent that it is incurred in gaining or producing your assessable income"
    record = AuditRecord(
        request_id=f"req-{n:05d}",
        question=f"Was the home office deductible in FY2020? (question {n}, café €)",
        as_of=date(2019, 7, 1),
        income_year=2020,
        decision="answered" if n % 3 else "abstained",
        reasons=("two independent sources", "all quotes verified") if n % 3 else ("versions disagree",),
        citations=(AuditCitation("ITAA1997/8-1@2019-07-01", ("C2019C00123",), quote, 120, 120 + len(quote)),),
        verified_quotes=(AuditCitation("TR 93/30#p12", (), "home office expenses are deductible", 40, 75),),
        reading_list=(ReadingListItem("ITAA1997/8-1@2019-07-01", ("C2019C00123",), "ITAA 1997 s 8-1"),),
        provider="extractive",
        model="extractive-v1",
        seed=None if n % 2 else 1234 + n,
        corpus_generation="gen-2024-06-30-abcdef",
        latencies=(StageLatency("retrieve", 12.5), StageLatency("generate", 3.0), StageLatency("verify", 0.25)),
    )
    return replace(record, **changes) if changes else record


@pytest.fixture
def make_record() -> RecordFactory:
    return sample_record
