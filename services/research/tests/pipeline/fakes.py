"""In-memory ports for the pipeline's fast tests: a tiny hand-written corpus, a counting retriever
that returns hits made from it, a verifier that checks quotes by substring, and counting
wrappers for the generator. No MiniLM, no index, no ``ASAT_CORPUS_DIR``.

The corpus is a real :class:`CorpusView` over a hand-made :class:`CorpusBuild`: Division 328's
small business entity test in two texts (``$2 million`` to 30 June 2016, ``$10 million`` from
1 July 2016), and a section whose text for 2016-17 to 2020-21 is not held (a gap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from asat_audit.memory_store import InMemoryAuditStore
from asat_corpus.act import ActRef
from asat_corpus.contracts.search import IndexBuild
from asat_corpus.contracts.verification import (
    ClaimFailure,
    ClaimReason,
    ClaimVerdict,
    QuoteFailure,
    QuoteVerdict,
    VerificationRequest,
    VerificationResponse,
)
from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.income_year import income_years_overlapping
from asat_corpus.index_scope import IndexScope, RulingScope
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, Subsection, VersionGap
from asat_corpus.sources import Sources
from asat_corpus.vector_config import KNOWN_EMBEDDERS, VectorConfig
from asat_research.corpus_view import CorpusView
from asat_research.gate import GateConfig
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.port import Generation, Generator, NumberedSpan, Selection
from asat_research.pipeline import PipelineSettings, ResearchPipeline, ResearchPorts
from asat_research.rerank import EmbeddingCosineReranker
from asat_research.retrieval import Hit, IndexReport, RetrievalUnavailable, SearchResult
from asat_research.verifier_client import VerifierUnavailable

HORIZON = 2026
TODAY = date(2026, 3, 1)
AMENDING_ACT = ActRef(number=41, year=2017)
SCOPE = IndexScope(("itaa1997",), RulingScope.NONE)
VECTORS = VectorConfig("hash", *KNOWN_EMBEDDERS["hash"])

SBE_2015 = "itaa1997:328-110@C2015C00285"
SBE_2026 = "itaa1997:328-110@C2026C00122"
BALANCING_2015 = "itaa1997:328-115@C2015C00285"


def _version(
    version_id: str, number: str, heading: str, body: Sequence[tuple[str, str]], start: date, end: date | None
) -> ProvisionVersion:
    """A version whose text is the ``(label, text)`` subsections, one per line."""
    text = ""
    subsections = []
    for label, line in body:
        begin = len(text)
        text += f"{label} {line}\n"
        subsections.append(Subsection(label, begin, len(text)))
    return ProvisionVersion(
        id=version_id,
        act="itaa1997",
        number=number,
        heading=heading,
        hierarchy=("Chapter 3", "Division 328"),
        text=text,
        subsections=tuple(subsections),
        register_ids=(version_id.split("@")[1],),
        authorised=True,
        valid_from=start,
        valid_to=end,
        from_bound=Bound(start, BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=Bound(end, BoundMethod.AMENDMENT_COMMENCEMENT if end else BoundMethod.OPEN),
        income_years=income_years_overlapping(start, end, HORIZON),
        content_hash=version_id,
    )


SBE_HEADING = "What is a small business entity"
SBE = ProvisionTimeline(
    act="itaa1997",
    number="328-110",
    versions=(
        _version(
            SBE_2015,
            "328-110",
            SBE_HEADING,
            (
                (
                    "(1)",
                    "You are a small business entity for an income year (the current year) if you carry on a "
                    "business in the current year and your aggregated turnover for the previous income year was "
                    "less than $2 million.",
                ),
                (
                    "(2)",
                    "You are not a small business entity for the current year if your aggregated turnover for "
                    "the current year is likely to be $2 million or more.",
                ),
            ),
            date(2012, 7, 1),
            date(2016, 7, 1),
        ),
        _version(
            SBE_2026,
            "328-110",
            SBE_HEADING,
            (
                (
                    "(1)",
                    "You are a small business entity for an income year (the current year) if you carry on a "
                    "business in the current year and your aggregated turnover for the previous income year was "
                    "less than $10 million.",
                ),
            ),
            date(2016, 7, 1),
            None,
        ),
    ),
    gaps=(),
)
BALANCING = ProvisionTimeline(
    act="itaa1997",
    number="328-115",
    versions=(
        _version(
            BALANCING_2015,
            "328-115",
            "Aggregated turnover of a small business",
            (
                (
                    "(1)",
                    "Your aggregated turnover for an income year is the sum of the annual turnovers of you and "
                    "of entities connected with you.",
                ),
            ),
            date(2012, 7, 1),
            date(2016, 7, 1),
        ),
    ),
    gaps=(
        VersionGap(
            act="itaa1997",
            number="328-115",
            start=date(2016, 7, 1),
            end=date(2021, 7, 1),
            acts=(AMENDING_ACT,),
            reason="no compilation held between the amendment and the next text",
        ),
    ),
)


def corpus_view() -> CorpusView:
    """The tiny corpus, as research serves it."""
    sources = Sources(corpus_dir=Path("."), compilations=(), rulings=None, raw={"downloaded_on": "2026-04-01"})
    build = CorpusBuild(
        sources=sources,
        compilations=(),
        timelines={("itaa1997", "328-110"): SBE, ("itaa1997", "328-115"): BALANCING},
        rulings=(),
        rulings_report=None,
        horizon=HORIZON,
    )
    return CorpusView(build, SCOPE, VECTORS)


@dataclass
class CountingRetriever:
    """Returns every index item of the corpus in force in the year asked, scored by hand:
    ``scores`` maps a provision number to its dense score (0.1 where not given)."""

    view: CorpusView
    scores: dict[str, float] = field(default_factory=dict)
    down: str | None = None  # a RetrievalUnavailable message: the index is down
    generation: str | None = None  # the corpus generation to report, when not the view's
    building: IndexBuild | None = None  # a build the index service reports (running, or failed)
    calls: list[tuple[str, int, str]] = field(default_factory=list)

    def search(
        self, query: str, income_year: int, limit: int, acts: tuple[str, ...] | None = None, axis: str = "in_force"
    ) -> SearchResult:
        self.calls.append((query, income_year, axis))
        if self.down is not None:
            raise RetrievalUnavailable(self.down)
        hits = []
        for item in self.view.corpus.index_items(SCOPE):
            if income_year not in item.payload.get("income_years", ()):
                continue
            dense = self.scores.get(str(item.payload.get("provision")), 0.1)
            hits.append(Hit(item.id, str(item.payload.get("source_id", item.id)), dense, dense, item.payload))
        hits.sort(key=lambda h: -h.score)
        return SearchResult(tuple(hits[:limit]), self.generation or self.view.generation, "hash")

    def index_generation(self) -> str:
        return self.generation or self.view.generation

    def index_report(self) -> IndexReport:
        """Ready with the generation (unless ``down``); ``building``, when set, as the build
        running now (or, when failed, the last one, the index then incomplete)."""
        if self.down is not None:
            raise RetrievalUnavailable(self.down)
        build = self.building
        if build is None:
            return IndexReport("ready", "ready", self.index_generation(), None)
        if build.state == "failed":
            return IndexReport("incomplete", "the index build did not finish", None, build)
        return IndexReport("building", build.message, None, build)


@dataclass
class SubstringVerifier:
    """A quote verifies when its source was given and its text is in the source's text; a claim
    verifies when it has quotes and all of them verify. Counts its calls."""

    down: str | None = None
    calls: list[VerificationRequest] = field(default_factory=list)

    def verify(self, request: VerificationRequest) -> VerificationResponse:
        self.calls.append(request)
        if self.down is not None:
            raise VerifierUnavailable(self.down)
        sources = {s.id: s.text for s in request.sources}
        verdicts = []
        for claim in request.claims:
            quotes = []
            for quote in claim.quotes:
                text = sources.get(quote.source_id)
                found = text is not None and quote.text in text
                failure = QuoteFailure.UNKNOWN_SOURCE if text is None else QuoteFailure.NOT_A_SUBSTRING
                quotes.append(
                    QuoteVerdict(
                        source_id=quote.source_id,
                        text=quote.text,
                        verified=found,
                        reason=None if found else failure,
                        message="found" if found else failure.value,
                    )
                )
            verified = bool(quotes) and all(q.verified for q in quotes)
            reasons = [] if verified else [ClaimReason(code=ClaimFailure.QUOTE_NOT_VERIFIED, message="not found")]
            verdicts.append(
                ClaimVerdict(
                    id=claim.id,
                    verified=verified,
                    grounded=verified,
                    groundedness_score=1.0 if verified else 0.0,
                    reasons=reasons,
                    findings=[],
                    quotes=quotes,
                )
            )
        return VerificationResponse(scorer="substring", claims=verdicts, verified=all(v.verified for v in verdicts))


@dataclass
class CountingGenerator:
    """Any generator, with its passes counted."""

    inner: Generator = field(default_factory=ExtractiveGenerator)
    calls: list[str] = field(default_factory=list)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.inner.name

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        self.calls.append("select")
        return self.inner.select(question, spans)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        self.calls.append("write")
        return self.inner.write(question, spans)


@dataclass
class Fakes:
    """A pipeline over the tiny corpus and the in-memory ports, with the ports kept for asserts."""

    view: CorpusView
    retriever: CountingRetriever
    verifier: SubstringVerifier
    generator: CountingGenerator
    audit: InMemoryAuditStore

    def pipeline(self, **ports: Any) -> ResearchPipeline:
        base = ResearchPorts(
            retriever=self.retriever,
            verifier=self.verifier,
            generator=self.generator,
            reranker=EmbeddingCosineReranker(),
            audit=self.audit,
            corpus=self.view,
        )
        settings = PipelineSettings(gate=GateConfig(min_score=0.3), today=lambda: TODAY)
        return ResearchPipeline(replace(base, **ports), settings)


_VIEW: list[CorpusView] = []


def fakes(scores: dict[str, float] | None = None) -> Fakes:
    """Fresh ports over the tiny corpus (built once per process)."""
    if not _VIEW:
        _VIEW.append(corpus_view())
    view = _VIEW[0]
    retriever = CountingRetriever(view, dict(scores or {"328-110": 0.8, "328-115": 0.5}))
    return Fakes(view, retriever, SubstringVerifier(), CountingGenerator(), InMemoryAuditStore())
