"""What the research service writes to the audit log, and a stored row of it.

An ``AuditRecord`` is built by the research service for every answered or abstained question;
the store assigns the id, the database timestamp and the chain hashes and hands back an
``AuditEntry``. Records are validated on construction so that every adapter stores exactly the
same values (Postgres rejects NUL characters and lone surrogates; JSON rejects NaN), and a
record's ``decision`` is one of the gate's decisions (``asat_corpus.contracts.decisions.Decision``):
a record built, or a row read back, with any other decision is refused.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import date, datetime

from asat_corpus.contracts.decisions import Decision

MAX_SEED = 2**63 - 1
MIN_SEED = -(2**63)
MAX_EMAIL_CHARS = 254


@dataclass(frozen=True)
class AuditCitation:
    """One quote cited by an answer (or kept on abstention) and where it comes from.

    ``version_id`` is the provision version (or ruling) id; ``register_ids`` the Federal Register
    compilation ids the version was observed in; ``quote == source_text[start:end]``.
    """

    version_id: str
    register_ids: tuple[str, ...]
    quote: str
    start: int
    end: int

    def __post_init__(self) -> None:
        _check_text("citation version_id", self.version_id, allow_empty=False)
        _check_texts("citation register_ids", self.register_ids)
        _check_text("citation quote", self.quote)
        if not 0 <= self.start <= self.end:
            raise ValueError(
                f"citation range [{self.start}, {self.end}) of {self.version_id!r} is not a valid "
                "character range: need 0 <= start <= end"
            )


@dataclass(frozen=True)
class ReadingListItem:
    """A source handed back to the agent to read (on abstention, or alongside an answer)."""

    version_id: str
    register_ids: tuple[str, ...]
    label: str  # what the agent sees, e.g. "ITAA 1997 s 8-1 (as in force 1 July 2019)"

    def __post_init__(self) -> None:
        _check_text("reading list version_id", self.version_id, allow_empty=False)
        _check_texts("reading list register_ids", self.register_ids)
        _check_text("reading list label", self.label)


@dataclass(frozen=True)
class StageLatency:
    """Wall time one pipeline stage took, in milliseconds."""

    stage: str
    ms: float

    def __post_init__(self) -> None:
        _check_text("latency stage", self.stage, allow_empty=False)
        if isinstance(self.ms, bool) or not isinstance(self.ms, int | float):
            raise ValueError(f"latency of stage {self.stage!r} must be a number of ms, got {self.ms!r}")
        if not math.isfinite(self.ms) or self.ms < 0:
            raise ValueError(f"latency of stage {self.stage!r} must be finite and >= 0 ms, got {self.ms!r}")


@dataclass(frozen=True)
class AskedBy:
    """Who asked: the signed-in user (id and email as of asking), the practice they asked for,
    and the practice's client the question was for (``None``: none chosen). Research takes it from
    its caller (the web, over the service-token-guarded channel)."""

    user_id: int
    user_email: str
    practice_id: int
    client_id: int | None = None

    def __post_init__(self) -> None:
        _check_id("asked_by user_id", self.user_id)
        _check_id("asked_by practice_id", self.practice_id)
        if self.client_id is not None:
            _check_id("asked_by client_id", self.client_id)
        _check_text("asked_by user_email", self.user_email, allow_empty=False)
        if len(self.user_email) > MAX_EMAIL_CHARS or "@" not in self.user_email:
            raise ValueError(f"asked_by user_email {self.user_email!r} is not an email address")


@dataclass(frozen=True)
class AuditRecord:
    """Everything the audit log keeps about one question and its outcome.

    ``provider`` and ``model`` are as reported by the provider that answered (not as
    configured). ``verified_quotes`` are the quotes that passed verification; they are kept on
    abstention too. ``seed`` is the sampling seed, ``None`` where the generator has none.
    ``as_known_on`` is the known-time date of the question ("the text as the latest held
    compilation on or before that date shows it"), ``None`` where the question had none; it is
    defaulted so that records built before it existed are built the same way.
    ``shown`` is what the user was shown, as one JSON object in text: the research outcome as
    served (decision, every claim with its quotes and ranges, the reading list, the note,
    ``premise_rejected``, groundedness, reasons and caveats, the period, provider and model),
    less its ``audit_id`` and ``latencies_ms`` (the row's id and ``latencies`` hold those).
    ``None`` for rows written before it existed; kept as text so that the hash covers exactly the
    bytes stored.
    ``asked_by`` is who asked and for which practice (and client); ``None`` for rows written before
    it existed and for questions asked without a signed-in user (the terminal client, evaluation).
    """

    request_id: str
    question: str
    as_of: date | None
    income_year: int | None
    decision: Decision  # the gate's decision, e.g. Decision.ANSWER, Decision.ABSTAIN_LOW_RELEVANCE
    reasons: tuple[str, ...]
    citations: tuple[AuditCitation, ...]
    verified_quotes: tuple[AuditCitation, ...]
    reading_list: tuple[ReadingListItem, ...]
    provider: str
    model: str
    seed: int | None
    corpus_generation: str
    latencies: tuple[StageLatency, ...]
    as_known_on: date | None = None
    shown: str | None = None
    asked_by: AskedBy | None = None

    def __post_init__(self) -> None:
        _check_text("request_id", self.request_id, allow_empty=False)
        _check_text("question", self.question)
        object.__setattr__(self, "decision", as_decision(self.decision))
        _check_texts("reasons", self.reasons)
        _check_text("provider", self.provider)
        _check_text("model", self.model)
        _check_text("corpus_generation", self.corpus_generation)
        if isinstance(self.as_of, datetime):
            raise ValueError(f"as_of must be a date, not a datetime: {self.as_of!r}")
        if self.as_known_on is not None and (
            isinstance(self.as_known_on, datetime) or not isinstance(self.as_known_on, date)
        ):
            raise ValueError(f"as_known_on must be a date or None, got {self.as_known_on!r}")
        if self.shown is not None:
            _check_shown(self.shown)
        if self.asked_by is not None and not isinstance(self.asked_by, AskedBy):
            raise ValueError(f"asked_by must be an AskedBy or None, got {type(self.asked_by).__name__}")
        if self.income_year is not None and not 1 <= self.income_year <= 9999:
            raise ValueError(f"income_year must be between 1 and 9999, got {self.income_year}")
        if self.seed is not None and not MIN_SEED <= self.seed <= MAX_SEED:
            raise ValueError(f"seed {self.seed} does not fit a signed 64-bit integer")
        for name in ("reasons", "citations", "verified_quotes", "reading_list", "latencies"):
            if not isinstance(getattr(self, name), tuple):
                raise ValueError(f"{name} must be a tuple, got {type(getattr(self, name)).__name__}")


@dataclass(frozen=True)
class AuditEntry:
    """One stored row: the record plus what the store assigned.

    ``hash = sha256(prev_hash + canonical(id, recorded_at, record))``; the first row's
    ``prev_hash`` is 64 zeros. ``recorded_at`` is the database clock (timezone-aware).
    """

    id: int
    recorded_at: datetime
    prev_hash: str
    hash: str
    record: AuditRecord


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AuditRecord))


DECISIONS = ", ".join(d.value for d in Decision)


def as_decision(value: object) -> Decision:
    """``value`` as the gate's decision; the text of one (as a row stores it) is accepted too."""
    if isinstance(value, Decision):
        return value
    if not isinstance(value, str):
        raise ValueError(f"decision must be one of the gate's decisions, got {type(value).__name__}")
    try:
        return Decision(value)
    except ValueError:
        raise ValueError(f"decision {value!r} is not one of the gate's decisions ({DECISIONS})") from None


def _check_text(what: str, value: str, *, allow_empty: bool = True) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, got {type(value).__name__}")
    if not allow_empty and not value:
        raise ValueError(f"{what} must not be empty")
    if "\x00" in value:
        raise ValueError(f"{what} contains a NUL character, which Postgres cannot store: remove it")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} is not valid Unicode text ({exc.reason}): remove lone surrogates") from exc


def _check_id(what: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEED:
        raise ValueError(f"{what} must be a positive integer (a bigint), got {value!r}")


def _check_shown(shown: str) -> None:
    _check_text("shown", shown, allow_empty=False)
    try:
        value = json.loads(shown)
    except ValueError as exc:
        raise ValueError(f"shown must be the JSON text of what the user was shown: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError(f"shown must be a JSON object, got a JSON {type(value).__name__}")


def _check_texts(what: str, values: Iterable[str]) -> None:
    if not isinstance(values, tuple):
        raise ValueError(f"{what} must be a tuple of strings, got {type(values).__name__}")
    for value in values:
        _check_text(what, value)
