"""The file note: what a practice keeps on the client's file for one audit row (pure).

A note holds the question, the period, the decision, each claim with its verified quotes and the
provision version each is quoted from, or the reasons of an abstention with its reading list, the
note and caveats, the audit row's id and hashes, the corpus generation, the Federal Register's
attribution and the time the note was generated. ``asat_web.file_note_markdown`` and
``asat_web.file_note_pdf`` write it out.

It is built from the audit row (``GET /v1/audit/{id}``) and the outcome the row records as shown
(``asat_corpus.contracts.audit_log.outcome_as_given``; :func:`note_from_row`), never from the
browser. A row written before ``shown`` was recorded makes none (:class:`PredatesFileNotes`).
The row and the outcome must agree (request, decision, corpus generation), and every quote shown
must be one the row itself records: otherwise :class:`FileNoteError`, never a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError

from asat_corpus.contracts.audit_log import AuditCitationOut, AuditEntryOut, outcome_as_given
from asat_corpus.contracts.decisions import Decision
from asat_corpus.contracts.research import OutcomeCitation, OutcomeScope, ResearchOutcome
from asat_web.labels import NOT_AUTHORISED, caveat_heading, decision_heading, interval, year_span

AUTHORISED = "authorised version"
TITLE = "AsAt file note"
PREMISE_REJECTED = "The premise is not right."  # as the answer shows it (templates/_turn_result.html)


class FileNoteError(ValueError):
    """The audit row and the outcome it records do not make one consistent note."""


class PredatesFileNotes(FileNoteError):
    """The audit row was written before the audit log recorded what was shown."""


@dataclass(frozen=True)
class ProvisionVersion:
    """The version (or ruling) a quote is taken from."""

    source_id: str
    kind: str  # "provision" or "ruling"
    title: str
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None  # exclusive
    authorised: bool
    status: str | None  # a ruling's status

    @property
    def in_force(self) -> str:
        """``in force from 2014-07-01 to 2016-06-30``."""
        return interval(self.valid_from, self.valid_to)

    @property
    def authority(self) -> str:
        """``authorised version``, or ``third-party conversion, not an authorised version``."""
        return AUTHORISED if self.authorised else NOT_AUTHORISED

    @property
    def details(self) -> str:
        """The version in one line: Act, section, register ids, interval, authority (and status)."""
        parts = []
        if self.act:
            parts.append(f"Act {self.act}")
        if self.provision:
            parts.append(f"section {self.provision}")
        ids = ", ".join(self.register_ids) or "none"
        parts += [f"register {ids}", self.in_force, self.authority]
        if self.status:
            parts.append(f"status {self.status}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Quote:
    """A verified quote, exactly as shown: ``text`` is the source's characters ``[start, end)``."""

    text: str
    start: int
    end: int
    version: ProvisionVersion
    then_stood: str | None  # the caveat of a text quoted as it then stood

    @property
    def where(self) -> str:
        """``characters [32, 80) of itaa1997:328-110@C2015C00285`` (the end excluded)."""
        return f"characters [{self.start}, {self.end}) of {self.version.source_id}"


@dataclass(frozen=True)
class Claim:
    number: int
    text: str
    quotes: tuple[Quote, ...]


@dataclass(frozen=True)
class ReadingItem:
    """A source handed back to read, with the verified quotes kept from it."""

    source_id: str
    title: str
    register_ids: tuple[str, ...]
    in_force: str
    quotes: tuple[Quote, ...]


@dataclass(frozen=True)
class AuditTrail:
    """Where the note comes from: the hash-chained audit row."""

    row_id: int
    recorded_at: datetime
    request_id: str
    hash: str
    prev_hash: str


@dataclass(frozen=True)
class FileNote:
    question: str
    period: str  # in words, with where it came from
    decision: str  # the decision's value, e.g. "abstain_low_relevance"
    decision_words: str
    answered: bool
    claims: tuple[Claim, ...]
    reasons_heading: str  # "Caveats", "Why there is no answer", ...
    reasons: tuple[str, ...]
    reading_list: tuple[ReadingItem, ...] | None  # an abstention's; None where none is shown (answers, conflicts)
    notices: tuple[str, ...]  # the premise notice and the generator's note, as the answer showed them
    dropped_claims: int
    model: str  # "provider · model", with the seed when there is one
    corpus_generation: str
    attribution: str
    audit: AuditTrail
    generated_at: datetime

    @property
    def title(self) -> str:
        return TITLE

    @property
    def dropped(self) -> str:
        """What the note says of the claims that failed verification ("" when none did)."""
        if not self.dropped_claims:
            return ""
        if self.dropped_claims == 1:
            return "1 further claim failed verification and is not shown."
        return f"{self.dropped_claims} further claims failed verification and are not shown."

    @property
    def quotes(self) -> tuple[Quote, ...]:
        """Every verified quote of the note, in the order it is written."""
        reading = tuple(q for r in self.reading_list or () for q in r.quotes)
        return tuple(q for c in self.claims for q in c.quotes) + reading


def note_from_row(entry: AuditEntryOut, generated_at: datetime) -> FileNote:
    """The note of audit row ``entry``, from the outcome it records as shown; raises
    :class:`PredatesFileNotes` for a row that does not record it, and :class:`FileNoteError`
    for one whose record is not a consistent outcome."""
    if entry.record.shown is None:
        raise PredatesFileNotes(
            f"audit row {entry.id} predates file notes: it does not record what was shown, so no file note can be "
            "made from it. Ask the question again: the new answer's audit row makes one."
        )
    try:
        outcome = outcome_as_given(entry)
    except ValidationError as exc:
        raise FileNoteError(f"audit row {entry.id} records as shown something that is not a research outcome") from exc
    return build_file_note(entry, outcome, generated_at)


def build_file_note(entry: AuditEntryOut, outcome: ResearchOutcome, generated_at: datetime) -> FileNote:
    """The note of audit row ``entry``, whose recorded outcome is ``outcome``; raises
    :class:`FileNoteError` when they disagree or a quote shown is not one the row records."""
    record = entry.record
    _agree(entry, outcome)
    answered = outcome.answered
    claims = tuple(
        Claim(number, claim.text, tuple(_quote(c) for c in claim.citations))
        for number, claim in enumerate(outcome.claims, start=1)
    )
    reading = (
        None
        if answered or outcome.decision is Decision.PERIOD_CONFLICT
        else tuple(
            ReadingItem(
                source_id=r.source_id,
                title=r.title,
                register_ids=r.register_ids,
                in_force=interval(r.valid_from, r.valid_to),
                quotes=tuple(_quote(q) for q in r.quotes),
            )
            for r in outcome.reading_list
        )
    )
    note = FileNote(
        question=record.question,
        period=period_words(outcome.scope),
        decision=outcome.decision.value,
        decision_words=decision_heading(outcome.decision.value),
        answered=answered,
        claims=claims,
        reasons_heading=_reasons_heading(outcome),
        reasons=outcome.reasons,
        reading_list=reading,
        notices=_notices(outcome),
        dropped_claims=outcome.dropped_claims,
        model=f"{outcome.provider} · {outcome.model}" + (f" · seed {outcome.seed}" if outcome.seed is not None else ""),
        corpus_generation=outcome.corpus_generation,
        attribution=outcome.attribution,
        audit=AuditTrail(entry.id, entry.recorded_at, record.request_id, entry.hash, entry.prev_hash),
        generated_at=generated_at,
    )
    _recorded(note, record.citations + record.verified_quotes, entry.id)
    return note


def period_words(scope: OutcomeScope) -> str:
    """The period answered for, and where it came from."""
    if scope.as_known_on is not None:
        when = (
            f"as known on {scope.as_known_on.isoformat()}: the law as it then stood that day "
            f"({year_span(scope.income_year)})"
        )
    elif scope.as_of is not None:
        when = f"as at {scope.as_of.isoformat()} ({year_span(scope.income_year)})"
    else:
        when = year_span(scope.income_year)
    if scope.source == "question":
        source = f"read from the question (\u201c{scope.matched}\u201d)"
    elif scope.source == "parameter":
        source = f"chosen in the request ({scope.matched})"
    else:
        source = "the current income year: the question names no period"
    return f"{when[0].upper()}{when[1:]}; {source}"


def _reasons_heading(outcome: ResearchOutcome) -> str:
    if outcome.answered:
        return caveat_heading(outcome.decision.value)
    if outcome.decision is Decision.PERIOD_CONFLICT:
        return "Why it was not asked"
    return "Why there is no answer"


def _notices(outcome: ResearchOutcome) -> tuple[str, ...]:
    """What an answer showed above its claims (an abstention shows neither)."""
    if not outcome.answered:
        return ()
    return ((PREMISE_REJECTED,) if outcome.premise_rejected else ()) + ((outcome.note,) if outcome.note else ())


def _quote(cited: OutcomeCitation) -> Quote:
    version = ProvisionVersion(
        source_id=cited.source_id,
        kind=cited.kind,
        title=cited.title,
        act=cited.act,
        provision=cited.provision,
        register_ids=cited.register_ids,
        valid_from=cited.valid_from,
        valid_to=cited.valid_to,
        authorised=cited.authorised,
        status=cited.status,
    )
    return Quote(cited.quote, cited.start, cited.end, version, cited.then_stood)


def _agree(entry: AuditEntryOut, outcome: ResearchOutcome) -> None:
    record = entry.record
    pairs = (
        ("audit row", str(entry.id), str(outcome.audit_id)),
        ("request", record.request_id, outcome.request_id),
        ("decision", record.decision.value, outcome.decision.value),
        ("corpus generation", record.corpus_generation, outcome.corpus_generation),
    )
    for name, in_row, shown in pairs:
        if in_row != shown:
            raise FileNoteError(
                f"audit row {entry.id} records {name} {in_row!r} but the outcome it records as shown has "
                f"{shown!r}: no file note is made from a row that disagrees with itself"
            )


def _recorded(note: FileNote, recorded: tuple[AuditCitationOut, ...], row_id: int) -> None:
    kept = {(c.version_id, c.start, c.end, c.quote) for c in recorded}
    for q in note.quotes:
        if (q.version.source_id, q.start, q.end, q.text) not in kept:
            raise FileNoteError(
                f"the outcome recorded in audit row {row_id} shows a quote of {q.version.source_id} "
                f"[{q.start}, {q.end}) that the row's citations and verified quotes do not record: no file note "
                "is made with a quote the row does not attest"
            )
