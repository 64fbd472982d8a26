"""The research pipeline, stage by stage.

resolve (income year, and the rules decided before retrieval: scope and named sections; pure)
-> retrieve (hybrid search behind the income-year filter, in the index service) -> rerank +
parent merge (pure) -> generate (span reference, two passes) -> verify (the verifier service)
-> gate (pure) -> provenance + audit.

Each stage is a method returning a small value (:class:`Asked`, :class:`Retrieved`,
:class:`Ranked`, :class:`Generated`, :class:`Verified`, :class:`Judged`, :class:`Recorded`), run
under one :class:`~asat_research.stage_timer.StageTimer`. A question the scope rule or the
named-section rule refuses, or that names one income year while the parameter names another
(``period_conflict``; ``asat_research.refusal``), goes from resolve straight to the gate and the
audit: no retrieval, generator or verifier call.

``run`` yields one :class:`StageEvent` per finished stage and a final ``done`` event holding
the :class:`ResearchOutcome`. A dependency that fails raises :class:`DependencyUnavailable`
naming it: nothing is answered without verification and an audit row.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from asat_audit.record import AskedBy, AuditCitation, AuditRecord, ReadingListItem, StageLatency
from asat_audit.store import AuditStore, AuditWriteError
from asat_corpus.chunking import chunk_id_of
from asat_corpus.contracts.claims import Claim, Quote
from asat_corpus.contracts.sources import SourceRef
from asat_corpus.contracts.verification import ClaimVerdict, VerificationRequest, too_short_to_quote
from asat_corpus.income_year import income_year_end, income_year_start
from asat_corpus.resolution import then_stood_caveat
from asat_corpus.then_stood import texts_served
from asat_corpus.validity import in_force_on
from asat_research.basic_rules import Section
from asat_research.corpus_view import CorpusView, SourceDoc, provision_label
from asat_research.deadline import DEFAULT_DEADLINE_S, Deadline
from asat_research.gate import GateConfig, GateEvidence, GateResult, VersionSpread, decide
from asat_research.generation.model_call import ModelCallCancelled, ModelCallTimedOut, bounded_by
from asat_research.generation.port import Generation, GenerationError, Generator, NumberedSpan
from asat_research.named_provisions import (
    UnheldProvision,
    named_provisions,
    unheld_named_provision,
    unheld_named_provision_known,
)
from asat_research.outcome_wire import shown_text
from asat_research.parent_merge import ParentContext, merge_parents
from asat_research.premise.assertion_queries import assertion_queries
from asat_research.premise.detection import detect_premise
from asat_research.premise.stated_figures import states_a_figure_of_the_law
from asat_research.refusal import named_unheld, refusal
from asat_research.rerank import Reranker
from asat_research.retrieval import Hit, RetrievalUnavailable, Retriever, SearchResult
from asat_research.scope import out_of_scope
from asat_research.spelled_out import spelled_out
from asat_research.stage_timer import StageEvent as StageEvent
from asat_research.stage_timer import StageTimer
from asat_research.temporal import PeriodConflict, TemporalScope, period_conflict, resolve_income_year
from asat_research.verifier_client import VerifierClient, VerifierUnavailable

UNOFFERED = "unoffered:"
# The model an audit row names for a question refused at resolve: no generator was asked.
NOT_ASKED = "none (refused before retrieval)"
BASIC_RULE_HITS = 10  # the first hits whose Subdivisions' basic rules an asserting question is searched for
MAX_BASIC_RULES = 2
NO_ANSWER = "none (no answer before the deadline)"
# Index points that say what is NOT held for the year: the text in force is not held (a gap),
# or the provision was not yet enacted. They are evidence for the gate, never quoted.
MARKER_KINDS = frozenset({"gap", "not_yet_enacted"})


class RequestCancelled(Exception):
    """The request was cancelled (its client went away) while a model call was in flight."""


class DependencyUnavailable(Exception):
    """A service the answer depends on is down or unusable; no answer is given."""

    def __init__(self, dependency: str, message: str) -> None:
        super().__init__(f"{dependency} unavailable: {message}")
        self.dependency = dependency
        self.message = message


@dataclass(frozen=True)
class PipelineSettings:
    gate: GateConfig
    retrieve_limit: int = 30
    max_parents: int = 4
    # A question that asserts something of the law is checked against more of what was found:
    # the provision that contradicts a premise often ranks below the ones the question's words
    # match best (the extractive generator still quotes at most six subsections).
    premise_parents: int = 16
    chunks_per_parent: int = 4
    # A question that states a figure of the law is offered up to this many chunks of the first
    # section (of those merged for it): the subsection giving the law's figure may not be among
    # its best four.
    first_section_chunks: int = 12
    today: Callable[[], date] = date.today
    # The model calls of a question end this many seconds after it arrived (ASAT_RESEARCH_DEADLINE_S).
    deadline_s: float = DEFAULT_DEADLINE_S


@dataclass(frozen=True)
class ResearchPorts:
    retriever: Retriever
    verifier: VerifierClient
    generator: Generator
    reranker: Reranker
    audit: AuditStore
    corpus: CorpusView


@dataclass(frozen=True)
class Citation:
    span_id: str
    chunk_id: str
    source_id: str  # provision version id or ruling id
    kind: str
    title: str
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: str | None
    valid_to: str | None
    quote: str
    start: int  # in the source (version or ruling) text
    end: int
    status: str | None = None
    # Set where this text is quoted as it then stood (the law as it now stands is not held for
    # the date asked): the caveat that must go with it.
    then_stood: str | None = None


@dataclass(frozen=True)
class AnswerClaim:
    id: str
    text: str
    citations: tuple[Citation, ...]
    groundedness: float


@dataclass(frozen=True)
class ReadingItem:
    source_id: str
    title: str
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None
    quotes: tuple[Citation, ...]


@dataclass(frozen=True)
class ResearchOutcome:
    request_id: str
    audit_id: int
    decision: str
    reasons: tuple[str, ...]
    scope: TemporalScope
    claims: tuple[AnswerClaim, ...]  # empty unless answered
    reading_list: tuple[ReadingItem, ...]
    premise_rejected: bool
    note: str
    provider: str
    model: str
    seed: int | None
    corpus_generation: str
    latencies_ms: dict[str, float]
    dropped_claims: int
    attribution: str  # the Register's licence wording, dated from the corpus snapshot
    period_conflict: PeriodConflict | None = None  # both periods, when the decision is period_conflict
    # The fixed rule or model that showed the premise wrong ("figure", "exclusion", "model" ...), when it was rejected,
    # and whether a quote showing it is from the section ranked first.
    premise_rule: str | None = None
    premise_in_top_section: bool = False


@dataclass(frozen=True)
class Ranking:
    parents: list[ParentContext]  # best first, every parent retrieved
    top_score: float | None
    gap_score: float | None  # best marker of law in force this year but not held, or not yet enacted
    gap_description: str | None
    gap_kind: str = "gap"


@dataclass
class _Shown:
    """The spans offered to the generator and what they point at."""

    spans: list[NumberedSpan]
    by_key: dict[str, NumberedSpan]
    parents: list[ParentContext]


def _of(hit: Hit, act: str, number: str) -> bool:
    return hit.payload.get("act") == act and hit.payload.get("provision") == number


def _servable_on(payload: dict[str, Any], day: date) -> bool:
    """In force on ``day``, or the text on the books on a day whose law as it now stands is not held."""
    start, end = payload.get("valid_from"), payload.get("valid_to")
    if in_force_on(date.fromisoformat(start) if start else None, date.fromisoformat(end) if end else None, day):
        return True
    stretches = payload.get("then_stood") or ()
    return any(date.fromisoformat(s["from"]) <= day < date.fromisoformat(s["to"]) for s in stretches)


def _known_on(payload: dict[str, Any], day: date) -> bool:
    """The text a held compilation showed on ``day`` (known time)."""
    start, end = payload.get("known_from"), payload.get("known_to")
    return start is not None and in_force_on(date.fromisoformat(start), date.fromisoformat(end) if end else None, day)


def _interval(valid_from: date | None, valid_to: date | None) -> str:
    start = valid_from.isoformat() if valid_from else "?"
    return f"in force {start} to {valid_to.isoformat() if valid_to else 'now'}"


# -- what each stage returns ------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """resolve: the question's period, and the gate's result where the scope rule or the
    named-section rule refuses the question before retrieval (``asat_research.refusal``)."""

    scope: TemporalScope
    refusal: GateResult | None = None
    conflict: PeriodConflict | None = None  # the question's period and the parameter's disagree

    def event_data(self) -> dict[str, Any]:
        scope = self.scope
        data: dict[str, Any] = {
            "income_year": scope.income_year,
            "as_of": scope.as_of.isoformat() if scope.as_of else None,
            "as_known_on": scope.as_known_on.isoformat() if scope.as_known_on else None,
            "source": scope.source.value,
            "matched": scope.matched,
        }
        if self.conflict is not None:
            data["period_conflict"] = self.conflict.reason
        return data


@dataclass(frozen=True)
class Retrieved:
    """retrieve: the hits servable for the period, text and markers of law not held apart, and
    every hit in retrieval order."""

    content: tuple[Hit, ...]
    markers: tuple[Hit, ...]
    ordered: tuple[Hit, ...]

    def event_data(self) -> dict[str, Any]:
        return {"hits": len(self.content), "gap_markers": len(self.markers)}


@dataclass(frozen=True)
class Ranked:
    """rerank: the ranking, and the sections kept for generation (primary law first)."""

    ranking: Ranking
    parents: tuple[ParentContext, ...]
    scale: str  # the reranker's

    def event_data(self) -> dict[str, Any]:
        return {
            "parents": [p.source_id for p in self.parents],
            "top_score": self.ranking.top_score,
            "gap_score": self.ranking.gap_score,
            "gap_kind": self.ranking.gap_kind,
            "scale": self.scale,
        }


@dataclass(frozen=True)
class Generated:
    """generate: the spans offered, the keys selected among them (pass 1) and what was written (pass 2)."""

    shown: _Shown
    selected: tuple[str, ...]
    generation: Generation
    timed_out: str | None = None  # the model did not answer before the request's deadline, and who

    def event_data(self) -> dict[str, Any]:
        return {
            "offered": len(self.shown.spans),
            "selected": len(self.selected),
            "claims": len(self.generation.claims),
            "provider": self.generation.provider,
            "model": self.generation.model,
        }


@dataclass(frozen=True)
class Verified:
    """verify: the verifier's verdicts, the claims verified with their citations, and every
    citation whose quotes all verified."""

    verdicts: tuple[ClaimVerdict, ...]
    claims: tuple[AnswerClaim, ...]
    citations: tuple[Citation, ...]

    def event_data(self) -> dict[str, Any]:
        return {"claims": len(self.verdicts), "verified": len(self.claims)}


@dataclass(frozen=True)
class Judged:
    """gate: the decision, and what the audit row and the outcome are made of."""

    result: GateResult
    claims: tuple[AnswerClaim, ...]  # the verified claims, dated; shown only when answered
    citations: tuple[Citation, ...]  # every verified quote, dated
    parents: tuple[ParentContext, ...]  # the sections kept: the reading list
    generation: Generation
    dropped_claims: int
    premise_in_top_section: bool = False  # a verified claim cites the section ranked first

    def event_data(self) -> dict[str, Any]:
        # Not the decision: it is streamed only with the result, after its audit row is committed
        # (an audit outage then ends the stream with an error, and no decision is ever shown).
        return {"claims": len(self.claims)}


@dataclass(frozen=True)
class Recorded:
    """audit: the audit row written, and the reading list it records."""

    audit_id: int
    reading_list: tuple[ReadingItem, ...]

    def event_data(self) -> dict[str, Any]:
        return {"audit_id": self.audit_id}


class ResearchPipeline:
    def __init__(self, ports: ResearchPorts, settings: PipelineSettings) -> None:
        self.ports = ports
        self.settings = settings

    def with_generator(self, generator: Generator) -> ResearchPipeline:
        """This pipeline answering with ``generator`` (a request's own provider): a new pipeline
        sharing every other port and the settings; this one is unchanged."""
        return ResearchPipeline(replace(self.ports, generator=generator), self.settings)

    # -- the run ------------------------------------------------------------------------------

    def run(
        self,
        question: str,
        income_year: int | None = None,
        as_of: date | None = None,
        request_id: str | None = None,
        as_known_on: date | None = None,
        asked_by: AskedBy | None = None,
        cancelled: threading.Event | None = None,
    ) -> Iterator[StageEvent]:
        """One event per stage as it finishes, then ``done`` with the outcome: resolve, retrieve,
        rerank, generate, verify, gate, audit; or, for a question refused at resolve, resolve,
        gate, audit. ``asked_by`` (who asked, for which practice and client) is recorded in the
        audit row as given.

        The model calls end by the settings' deadline (counted from here): a model that has not
        answered by then is cancelled and the question ends in an audited ``abstain_deadline``.
        ``cancelled`` set (the client went away) cancels a model call in flight and ends the run
        with :class:`RequestCancelled`: nothing is shown, so nothing is audited."""
        request = request_id or uuid.uuid4().hex
        deadline = Deadline.after(self.settings.deadline_s)
        timer = StageTimer()
        asked = yield from timer.timed("resolve", lambda: self._resolve(question, income_year, as_of, as_known_on))
        scope, refused, conflict = asked.scope, asked.refusal, asked.conflict
        if refused is not None:
            judged = yield from timer.timed("gate", lambda: self._refused(refused))
        else:
            retrieved = yield from timer.timed("retrieve", lambda: self._retrieve(question, scope))
            ranked = yield from timer.timed("rerank", lambda: self._rerank(question, retrieved))
            generated = yield from timer.timed(
                "generate", lambda: self._generate(question, ranked, deadline, cancelled)
            )
            verified = yield from timer.timed("verify", lambda: self._verify(generated))
            judged = yield from timer.timed("gate", lambda: self._gate(scope, ranked, generated, verified))
        latencies = tuple(StageLatency(stage, ms) for stage, ms in timer.rounded_ms(3).items())
        reading = self._reading_list(judged.parents, judged.citations)
        # What the user is shown is fixed before the audit row is written, and the row records it.
        shown = replace(self._outcome(request, scope, judged, reading), period_conflict=conflict)
        recorded = yield from timer.timed(
            "audit", lambda: self._audit(request, question, scope, judged, reading, latencies, shown, asked_by)
        )
        outcome = replace(shown, audit_id=recorded.audit_id, latencies_ms=timer.rounded_ms(2))
        yield StageEvent("done", timer.total_ms(), {}, outcome)

    def answer(
        self,
        question: str,
        income_year: int | None = None,
        as_of: date | None = None,
        request_id: str | None = None,
        as_known_on: date | None = None,
        asked_by: AskedBy | None = None,
        cancelled: threading.Event | None = None,
    ) -> ResearchOutcome:
        for event in self.run(question, income_year, as_of, request_id, as_known_on, asked_by, cancelled):
            if event.outcome is not None:
                return event.outcome
        raise AssertionError("the pipeline ended without an outcome")  # pragma: no cover

    def rank(self, question: str, income_year: int | None = None, as_of: date | None = None) -> Ranking:
        """Retrieval and rerank only (no generation, no audit): for calibration and benchmarks."""
        scope = resolve_income_year(question, self.settings.today(), income_year, as_of)
        return self._rank(question, self._retrieve(question, scope))

    # -- stages -------------------------------------------------------------------------------

    def _resolve(self, question: str, income_year: int | None, as_of: date | None, as_known_on: date | None) -> Asked:
        """The period asked about, and the rules that need no retrieval: the period rule (the
        question's period and the parameter's agree), the scope rule and the named-section rule
        (all read the question, the parameters and the corpus's timelines only)."""
        scope = resolve_income_year(question, self.settings.today(), income_year, as_of, as_known_on)
        conflict = period_conflict(question, income_year, as_of) if as_known_on is None else None
        named = None if conflict else self._named_unheld(question, scope.income_year, scope.as_known_on)
        unheld = named_unheld(named) if named is not None else None
        return Asked(scope, refusal(out_of_scope(question), unheld, conflict), conflict)

    def _retrieve(self, question: str, scope: TemporalScope) -> Retrieved:
        axis = "on_the_books" if scope.as_known_on is not None else "in_force"
        try:
            result = self.ports.retriever.search(
                spelled_out(question), scope.income_year, self.settings.retrieve_limit, axis=axis
            )
            # What the question asserts is looked for on its own too: the provision that shows a
            # premise wrong is about the assertion, not the client's facts or the agent's proviso.
            # Its hits not already found follow the question's own, in their order.
            for query in assertion_queries(question):
                result = self._appended(result, spelled_out(query), scope, axis)
            # ... and against the basic rule of each Subdivision its first hits are in: a statement
            # about a regime is answered by its basic rule, which the exceptions it matched modify.
            for section in self._basic_rules(question, result.hits, scope.income_year):
                query = f"{section.act} s {section.number} {section.heading}"
                result = self._appended(result, query, scope, axis, of=(section.act, section.number))
        except RetrievalUnavailable as exc:
            raise DependencyUnavailable("index", str(exc)) from exc
        if result.corpus_generation != self.ports.corpus.generation:
            raise DependencyUnavailable(
                "index",
                f"the index holds corpus generation {result.corpus_generation[:12]} but research serves "
                f"{self.ports.corpus.generation[:12]}: rebuild the index (`python -m asat_ingest build`) or "
                "restart research on the same corpus",
            )
        content: list[Hit] = []
        gaps: list[Hit] = []
        for hit in result.hits:
            if scope.as_of is not None and not _servable_on(hit.payload, scope.as_of):
                continue
            if scope.as_known_on is not None and not _known_on(hit.payload, scope.as_known_on):
                continue  # markers of law not held carry no known time: on that axis they never apply
            if hit.payload.get("kind") in MARKER_KINDS:
                gaps.append(hit)
            elif self.ports.corpus.chunk(hit.chunk_id) is not None:
                content.append(hit)
        return Retrieved(tuple(content), tuple(gaps), result.hits)

    def _appended(
        self, result: SearchResult, query: str, scope: TemporalScope, axis: str, of: tuple[str, str] | None = None
    ) -> SearchResult:
        """``result`` with the hits of a further search for ``query`` it does not hold after its own
        (only those of the section ``of`` = (act, number), where given)."""
        more = self.ports.retriever.search(query, scope.income_year, self.settings.retrieve_limit, axis=axis)
        if more.corpus_generation != result.corpus_generation:
            raise DependencyUnavailable(
                "index",
                "the index changed between two searches of one question (a rebuild finished meanwhile): ask again",
            )
        seen = {h.chunk_id for h in result.hits}
        found = (h for h in more.hits if h.chunk_id not in seen and (of is None or _of(h, *of)))
        return replace(result, hits=(*result.hits, *found))

    def _basic_rules(self, question: str, hits: Sequence[Hit], income_year: int) -> list[Section]:
        """For a question that asserts something, the basic rules (:mod:`asat_research.basic_rules`)
        of the Subdivisions of the provision hits among its first ``BASIC_RULE_HITS`` hits, that no
        hit is of, at most ``MAX_BASIC_RULES``; none for a plain question."""
        if detect_premise(question) is None:
            return []
        found = {(h.payload.get("act"), h.payload.get("provision")) for h in hits}
        rules: list[Section] = []
        for hit in hits[:BASIC_RULE_HITS]:
            act, number = hit.payload.get("act"), hit.payload.get("provision")
            if hit.payload.get("kind") != "provision" or not isinstance(act, str) or not isinstance(number, str):
                continue
            rule = self.ports.corpus.basic_rules.basic_rule(act, number, income_year)
            if rule is not None and (rule.act, rule.number) not in found and rule not in rules:
                rules.append(rule)
        return rules[:MAX_BASIC_RULES]

    def _rerank(self, question: str, retrieved: Retrieved) -> Ranked:
        ranking = self._rank(question, retrieved)
        # Primary law first: among the sections kept, provisions are offered before rulings.
        asserts = detect_premise(question) is not None
        kept = ranking.parents[: self.settings.premise_parents if asserts else self.settings.max_parents]
        parents = [p for p in kept if p.payload.get("kind") != "ruling"] + [
            p for p in kept if p.payload.get("kind") == "ruling"
        ]
        return Ranked(ranking, tuple(parents), self.ports.reranker.scale)

    def _generate(
        self, question: str, ranked: Ranked, deadline: Deadline, cancelled: threading.Event | None
    ) -> Generated:
        shown = self._show(ranked.parents, widen_first=states_a_figure_of_the_law(question))
        generator = self.ports.generator
        try:
            with bounded_by(deadline, cancelled):
                selection = generator.select(question, shown.spans)
                selected = tuple(k for k in selection.keys if k in shown.by_key)
                generation = generator.write(question, [shown.by_key[k] for k in selected])
        except ModelCallTimedOut as exc:
            # No claim, no verifier call: the gate abstains on the deadline, and the row records it.
            unanswered = Generation(
                claims=(), premise_rejected=False, provider=generator.name, model=NO_ANSWER, seed=None
            )
            return Generated(shown, (), unanswered, timed_out=str(exc))
        except ModelCallCancelled as exc:
            raise RequestCancelled(str(exc)) from exc
        except GenerationError as exc:
            raise DependencyUnavailable("generator", str(exc)) from exc
        return Generated(shown, selected, generation)

    def _verify(self, generated: Generated) -> Verified:
        shown, selected, generation = generated.shown, generated.selected, generated.generation
        verdicts: list[ClaimVerdict] = []
        keys_by_claim: dict[str, list[str]] = {}
        if generation.claims:
            request, keys_by_claim = self._verification_request(generation, shown, set(selected))
            try:
                verdicts = list(self.ports.verifier.verify(request).claims)
            except VerifierUnavailable as exc:
                raise DependencyUnavailable("verifier", str(exc)) from exc
        texts = {f"c{i}": c.text for i, c in enumerate(generation.claims, start=1)}
        verified_claims: list[AnswerClaim] = []
        verified_citations: list[Citation] = []
        for verdict in verdicts:
            quotes_ok = [q for q in verdict.quotes if q.verified]
            keys = keys_by_claim.get(verdict.id, [])
            citations = tuple(self._citation(shown.by_key[k]) for k in keys if k in shown.by_key and k in selected)
            if len(quotes_ok) == len(verdict.quotes):
                verified_citations.extend(c for c in citations if c not in verified_citations)
            if verdict.verified and citations:
                verified_claims.append(
                    AnswerClaim(verdict.id, texts[verdict.id], citations, verdict.groundedness_score)
                )
        return Verified(tuple(verdicts), tuple(verified_claims), tuple(verified_citations))

    def _gate(self, scope: TemporalScope, ranked: Ranked, generated: Generated, verified: Verified) -> Judged:
        """The gate over what was found. The scope and named-section rules were decided at
        resolve: a question that reaches here passed both."""
        year = scope.income_year
        ranking = ranked.ranking
        claims = tuple(replace(claim, citations=self._dated(claim.citations, scope)) for claim in verified.claims)
        citations = tuple(self._dated((c,), scope)[0] for c in verified.citations)
        out_of_period = tuple(
            c.source_id
            for claim in claims
            for c in claim.citations
            if (doc := self.ports.corpus.doc(c.source_id)) is None or not self._in_period(doc, c, scope)
        )
        then_stood = tuple(
            dict.fromkeys(f"{c.title}: {c.then_stood}" for claim in claims for c in claim.citations if c.then_stood)
        )
        supporting = tuple(
            dict.fromkeys(
                (f"{c.act} {c.provision}" if c.act else c.source_id) for claim in claims for c in claim.citations
            )
        )
        dropped = len(verified.verdicts) - len(verified.claims)
        in_top = bool(ranking.parents) and any(
            c.source_id == ranking.parents[0].source_id for claim in claims for c in claim.citations
        )
        evidence = GateEvidence(
            income_year=year,
            day_given=scope.as_of is not None or scope.as_known_on is not None,
            top_score=ranking.top_score,
            gap_score=ranking.gap_score,
            gap_description=ranking.gap_description,
            gap_kind=ranking.gap_kind,
            verified_claims=len(claims),
            failed_claims=dropped,
            supporting_sources=supporting,
            out_of_period_citations=out_of_period,
            # On the known-time axis one text per provision was on the books that day: no spread.
            version_spreads=self._spreads(claims, year) if scope.as_known_on is None else (),
            declined=generated.generation.declined,
            deadline_passed=generated.timed_out,
            then_stood=then_stood,
            as_known_on=scope.as_known_on,
            premise_rule=generated.generation.premise_rule
            if generated.generation.premise_rejected and claims
            else None,
            premise_in_top_section=in_top,
        )
        result = decide(evidence, self.settings.gate)
        return Judged(result, claims, citations, ranked.parents, generated.generation, dropped, in_top)

    def _refused(self, result: GateResult) -> Judged:
        """The gate for a question refused at resolve: its decision stands; nothing was found,
        generated or verified, and no generator was asked."""
        generation = Generation(
            claims=(), premise_rejected=False, provider=self.ports.generator.name, model=NOT_ASKED, seed=None
        )
        return Judged(result, (), (), (), generation, 0)

    def _audit(
        self,
        request_id: str,
        question: str,
        scope: TemporalScope,
        judged: Judged,
        reading: tuple[ReadingItem, ...],
        latencies: tuple[StageLatency, ...],
        shown: ResearchOutcome,
        asked_by: AskedBy | None = None,
    ) -> Recorded:
        result, generation = judged.result, judged.generation
        claims = judged.claims if result.answered else ()
        record = AuditRecord(
            request_id=request_id,
            question=question,
            as_of=scope.as_of,
            income_year=scope.income_year,
            as_known_on=scope.as_known_on,
            decision=result.decision,
            reasons=result.reasons,
            citations=tuple(_audit_citation(c) for claim in claims for c in claim.citations),
            verified_quotes=tuple(_audit_citation(c) for c in judged.citations),
            reading_list=tuple(
                ReadingListItem(item.source_id, item.register_ids, f"{item.title} ({_span(item)})") for item in reading
            ),
            provider=generation.provider,
            model=generation.model,
            seed=generation.seed,
            corpus_generation=self.ports.corpus.generation,
            latencies=latencies,
            shown=shown_text(shown),
            asked_by=asked_by,
        )
        try:
            entry = self.ports.audit.append(record)
        except AuditWriteError as exc:
            raise DependencyUnavailable("audit log (Postgres)", str(exc)) from exc
        return Recorded(entry.id, reading)

    def _outcome(
        self,
        request_id: str,
        scope: TemporalScope,
        judged: Judged,
        reading: tuple[ReadingItem, ...],
    ) -> ResearchOutcome:
        """The outcome as shown, before its audit row exists (``audit_id`` 0, no latencies yet)."""
        result, generation = judged.result, judged.generation
        answered = result.answered
        return ResearchOutcome(
            request_id=request_id,
            audit_id=0,
            decision=result.decision.value,
            reasons=result.reasons,
            scope=scope,
            claims=judged.claims if answered else (),
            reading_list=reading,
            premise_rejected=generation.premise_rejected and answered,
            note=generation.note,
            provider=generation.provider,
            model=generation.model,
            seed=generation.seed,
            corpus_generation=self.ports.corpus.generation,
            latencies_ms={},
            dropped_claims=judged.dropped_claims,
            attribution=self.ports.corpus.attribution,
            premise_rule=generation.premise_rule if generation.premise_rejected and answered else None,
            premise_in_top_section=judged.premise_in_top_section and generation.premise_rejected and answered,
        )

    # -- helpers ------------------------------------------------------------------------------

    def _rank(self, question: str, retrieved: Retrieved) -> Ranking:
        content, gaps = retrieved.content, retrieved.markers
        # One call over every hit in retrieval order: a reranker may read a hit beside the others
        # (its rank, its section's support), and markers compete on the same scale as the text.
        wanted = {h.chunk_id for h in content} | {h.chunk_id for h in gaps}
        everything = [h for h in retrieved.ordered if h.chunk_id in wanted]
        scored = dict(
            zip((h.chunk_id for h in everything), self.ports.reranker.scores(question, everything), strict=True)
        )
        scores = [scored[h.chunk_id] for h in content]
        gap_scores = [scored[h.chunk_id] for h in gaps]
        parents = merge_parents(content, scores, self.ports.corpus.children)
        ranking = Ranking(parents, parents[0].score if parents else None, None, None)
        if gaps:
            best = max(range(len(gaps)), key=lambda i: gap_scores[i])
            description = str(gaps[best].payload.get("description", "the text in force then is not held"))
            kind = str(gaps[best].payload.get("kind", "gap"))
            ranking = replace(ranking, gap_score=gap_scores[best], gap_description=description, gap_kind=kind)
        return ranking

    def _show(self, parents: Sequence[ParentContext], widen_first: bool = False) -> _Shown:
        """The spans offered: each section's first ``chunks_per_parent`` chunks (of those merged
        for it: the chunks that scored, its lead and their neighbours); with ``widen_first`` (a
        question that states a figure of the law), up to ``first_section_chunks`` of them for the
        first section offered: the subsection giving the law's figure for the concept answers such
        a question wherever it stands in the section."""
        spans: list[NumberedSpan] = []
        corpus = self.ports.corpus
        for rank, parent in enumerate(parents):
            doc = corpus.doc(parent.source_id)
            if doc is None:
                continue
            leads = set(parent.lead_chunk_ids)
            ranked = [*parent.scoring_chunk_ids[:1], *parent.lead_chunk_ids, *parent.scoring_chunk_ids[1:]]
            order = {cid: i for i, cid in reversed(list(enumerate(ranked)))}
            relevance = dict(parent.chunk_scores)
            chunks = sorted(parent.chunks, key=lambda c: (order.get(c.id, len(order)), c.start))
            # Each section offers the same number of whole chunks (subsections): its best scoring
            # chunk, its lead subsection (the rule), then the other scoring chunks, so one long
            # section cannot crowd the others out and nothing quoted is cut off mid-list.
            offered = self.settings.chunks_per_parent
            if widen_first and rank == 0:
                offered = max(offered, self.settings.first_section_chunks)
            for chunk in chunks[:offered]:
                where = "".join(chunk.label_path[:1])
                label = f"{doc.title}{where} [{_interval(doc.valid_from, doc.valid_to)}]"
                first = len(spans)
                starts: dict[str, int] = {}
                for span in chunk.spans:
                    text = doc.text[span.start : span.end]
                    if len(spans) > first and too_short_to_quote(text):
                        # Too short to be evidence alone ("(a) an individual; or", "(d) either:"):
                        # quoted with the span before it, as one stretch of the source.
                        joined = spans[-1]
                        spans[-1] = replace(joined, text=doc.text[starts[joined.key] : span.end], through=span.id)
                        continue
                    key = f"S{len(spans) + 1}"
                    starts[key] = span.start
                    spans.append(
                        NumberedSpan(
                            key,
                            span.id,
                            parent.source_id,
                            label,
                            text,
                            relevance.get(chunk.id),
                            chunk.id in leads,
                            section_rank=rank,
                            kind=doc.kind,
                        )
                    )
        return _Shown(spans, {s.key: s for s in spans}, list(parents))

    def _offsets(self, span: NumberedSpan) -> tuple[int, int]:
        """Where the span's text stands in its document: its first span's start to its last's end."""
        chunk = self.ports.corpus.chunk(chunk_id_of(span.span_id))
        assert chunk is not None
        start = next(s.start for s in chunk.spans if s.id == span.span_id)
        end = next(s.end for s in chunk.spans if s.id == (span.through or span.span_id))
        return start, end

    def _citation(self, span: NumberedSpan) -> Citation:
        corpus = self.ports.corpus
        chunk_id = chunk_id_of(span.span_id)
        chunk = corpus.chunk(chunk_id)
        doc = corpus.doc(span.source_id)
        assert chunk is not None and doc is not None
        start, end = self._offsets(span)
        return Citation(
            span_id=span.span_id,
            chunk_id=chunk.id,
            source_id=doc.id,
            kind=doc.kind,
            title=doc.title,
            act=doc.act,
            provision=doc.provision,
            register_ids=doc.register_ids,
            authorised=doc.authorised,
            valid_from=doc.valid_from.isoformat() if doc.valid_from else None,
            valid_to=doc.valid_to.isoformat() if doc.valid_to else None,
            quote=doc.text[start:end],
            start=start,
            end=end,
            status=doc.status,
        )

    def _dated(self, citations: Sequence[Citation], scope: TemporalScope) -> tuple[Citation, ...]:
        """Each citation with its then-stood caveat where its text is not in force for the date
        asked but was on the books then (the law as it now stands not held)."""
        dated = []
        for citation in citations:
            doc = self.ports.corpus.doc(citation.source_id)
            if doc is None or doc.kind != "provision":
                dated.append(citation)
                continue
            if scope.as_known_on is not None:
                version = self.ports.corpus.version(doc.id)
                day = scope.as_known_on
                caveat = None
                if version is not None and version.known_on(day) and not version.in_force_on(day):
                    caveat = f"{then_stood_caveat(version)} (asked as known on {day.isoformat()})"
                dated.append(replace(citation, then_stood=caveat))
                continue
            if scope.as_of is not None:
                in_force = in_force_on(doc.valid_from, doc.valid_to, scope.as_of)
            else:
                in_force = scope.income_year in doc.income_years
            if in_force and scope.as_of is not None:
                dated.append(citation)
                continue
            stretches = doc.then_stood_in(scope.income_year, scope.as_of)
            caveat = "; ".join(dict.fromkeys(s.caveat for s in stretches)) or None
            if caveat is not None and in_force:
                # In force for part of the year, on the books as it then stood for the rest.
                first, end = income_year_start(scope.income_year), income_year_end(scope.income_year)
                days = ", ".join(
                    f"{max(s.start, first).isoformat()} to {(min(s.end, end) - timedelta(days=1)).isoformat()}"
                    for s in stretches
                )
                caveat = f"in force for part of income year {scope.income_year}; from {days} {caveat}"
            dated.append(replace(citation, then_stood=caveat))
        return tuple(dated)

    def _verification_request(
        self, generation: Generation, shown: _Shown, selected: set[str]
    ) -> tuple[VerificationRequest, dict[str, list[str]]]:
        corpus = self.ports.corpus
        sources: dict[str, SourceRef] = {}
        for parent in shown.parents:
            doc = corpus.doc(parent.source_id)
            if doc is None:
                continue
            for chunk in parent.chunks:
                sources[chunk.id] = SourceRef(
                    id=chunk.id,
                    text=chunk.text,
                    act=doc.act,
                    provision=doc.provision,
                    register_id=doc.register_ids[0] if doc.register_ids else None,
                    version_id=doc.id,
                    valid_from=doc.valid_from,
                    valid_to=doc.valid_to,
                )
        claims: list[Claim] = []
        keys_by_claim: dict[str, list[str]] = {}
        for number, generated in enumerate(generation.claims, start=1):
            claim_id = f"c{number}"
            quotes: list[Quote] = []
            source_ids: list[str] = []
            run_end: tuple[str, int] | None = None  # (chunk, end offset) of the quote last added
            for key in generated.span_keys:
                span = shown.by_key.get(key)
                if span is None or key not in selected:
                    # Cited something it was not offered (or not selected): fails as an unknown source.
                    quotes.append(Quote(source_id=f"{UNOFFERED}{key}", text=key))
                    source_ids.append(f"{UNOFFERED}{key}")
                    run_end = None
                    continue
                chunk_id = chunk_id_of(span.span_id)
                start, end = self._offsets(span)
                doc = corpus.doc(span.source_id)
                if (
                    doc is not None
                    and run_end is not None
                    and run_end[0] == chunk_id
                    and start >= run_end[1]
                    and not doc.text[run_end[1] : start].strip()
                ):
                    # The next stretch of the same subsection: one quote, so a lead-in and its
                    # paragraph ("must not:" / "(a) lend money ...") are checked as they read.
                    joined = quotes[-1]
                    quotes[-1] = Quote(source_id=chunk_id, text=f"{joined.text}\n{span.text}")
                else:
                    quotes.append(Quote(source_id=chunk_id, text=span.text))
                run_end = (chunk_id, end)
                source_ids.append(chunk_id)
            claims.append(
                Claim(id=claim_id, text=generated.text, source_ids=list(dict.fromkeys(source_ids)), quotes=quotes)
            )
            keys_by_claim[claim_id] = list(generated.span_keys)
        request = VerificationRequest(claims=claims, sources=list(sources.values()), retrieved_source_ids=list(sources))
        return request, keys_by_claim

    def _spreads(self, claims: Sequence[AnswerClaim], year: int) -> tuple[VersionSpread, ...]:
        spreads = []
        seen: set[tuple[str, str]] = set()
        for claim in claims:
            for citation in claim.citations:
                if citation.act is None or citation.provision is None:
                    continue
                key = (citation.act, citation.provision)
                if key in seen:
                    continue
                seen.add(key)
                timeline = self.ports.corpus.timeline(*key)
                if timeline is None:
                    continue
                in_force = [v.id for v in timeline.versions if year in v.income_years]
                versions = texts_served(
                    self.ports.corpus.then_stood(*key), in_force, date(year - 1, 7, 1), date(year, 7, 1)
                )
                gaps = tuple(
                    f"{g.start.isoformat()} to {g.end.isoformat()}"
                    for g in timeline.gaps
                    if g.start < date(year, 7, 1) and g.end > date(year - 1, 7, 1)
                )
                if any(c.then_stood for cl in claims for c in cl.citations if (c.act, c.provision) == key):
                    gaps = ()  # its then-stood caveat already says what is not held
                spreads.append(VersionSpread(provision_label(*key), tuple(versions), gaps))
        return tuple(spreads)

    def _named_unheld(self, question: str, year: int, as_known_on: date | None) -> UnheldProvision | None:
        for number in named_provisions(question):
            timelines = self.ports.corpus.timelines_numbered(number)
            if as_known_on is not None:
                unheld = unheld_named_provision_known(timelines, as_known_on)
            else:
                unheld = unheld_named_provision(timelines, year)
            if unheld is not None:
                return unheld
        return None

    def _in_period(self, doc: SourceDoc, citation: Citation, scope: TemporalScope) -> bool:
        """Whether a cited text may be served for the scope: in force in the income year (or on the
        day), served there as it then stood, or (known time) shown on the books that day."""
        if scope.as_known_on is not None:
            if doc.kind != "provision":
                return (
                    doc.valid_from is not None
                    and doc.valid_from <= scope.as_known_on
                    and (doc.valid_to is None or scope.as_known_on < doc.valid_to)
                )
            version = self.ports.corpus.version(doc.id)
            return version is not None and version.known_on(scope.as_known_on)
        return scope.income_year in doc.income_years or citation.then_stood is not None

    def _reading_list(self, parents: Sequence[ParentContext], verified: Sequence[Citation]) -> tuple[ReadingItem, ...]:
        items = []
        for parent in parents:
            doc = self.ports.corpus.doc(parent.source_id)
            if doc is None:
                continue
            items.append(
                ReadingItem(
                    source_id=doc.id,
                    title=doc.title,
                    register_ids=doc.register_ids,
                    valid_from=doc.valid_from.isoformat() if doc.valid_from else None,
                    valid_to=doc.valid_to.isoformat() if doc.valid_to else None,
                    quotes=tuple(c for c in verified if c.source_id == doc.id),
                )
            )
        return tuple(items)


def _span(item: ReadingItem) -> str:
    return f"in force {item.valid_from or '?'} to {item.valid_to or 'now'}"


def _audit_citation(citation: Citation) -> AuditCitation:
    return AuditCitation(citation.source_id, citation.register_ids, citation.quote, citation.start, citation.end)
