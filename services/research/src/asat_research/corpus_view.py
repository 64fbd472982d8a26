"""Research's read-only view of the dated corpus: chunks, versions, rulings and timelines by id.

Research loads the same parsed corpus as ingest (``asat_corpus.load_corpus``, cached on disk),
so the text it quotes and sends to the verifier is the canonical version text itself, and the
index's hits are checked against it: a hit whose chunk is not in the corpus is never served.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from asat_corpus.attribution import register_attribution, snapshot_date
from asat_corpus.chunk import Chunk
from asat_corpus.corpus_build import CorpusBuild, items_generation
from asat_corpus.income_year import income_year_end, income_year_start
from asat_corpus.index_scope import IndexScope
from asat_corpus.provision import ProvisionTimeline, ProvisionVersion
from asat_corpus.ruling import Ruling
from asat_corpus.then_stood import ThenStood, stretches_of, then_stood_stretches
from asat_corpus.vector_config import VectorConfig
from asat_research.basic_rules import BasicRules


@dataclass(frozen=True)
class SourceDoc:
    """A provision version or a ruling, as research cites it."""

    id: str
    kind: str  # "provision" | "ruling"
    text: str
    title: str  # "ITAA 1997 s 328-110 Meaning of small business entity"
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: date | None
    valid_to: date | None
    income_years: tuple[int, ...]
    status: str | None = None  # rulings
    # Where the law as it now stands is not held, the stretches in which this text was on the
    # books (served as it then stood, with the caveat; issue 24 item 4).
    then_stood: tuple[ThenStood, ...] = ()

    def then_stood_in(self, income_year: int, day: date | None = None) -> tuple[ThenStood, ...]:
        """The stretches that serve this text for ``day`` (when given) or any day of ``income_year``."""
        if day is not None:
            return tuple(s for s in self.then_stood if s.covers(day))
        start, end = income_year_start(income_year), income_year_end(income_year)
        return tuple(s for s in self.then_stood if s.start < end and s.end > start)


ACT_LABELS = {
    "itaa1997": "ITAA 1997",
    "itaa1936": "ITAA 1936",
    "gst1999": "GST Act",
    "taa1953": "TAA 1953",
    "fbtaa1986": "FBTAA 1986",
    "sis1993": "SIS Act",
    "sgaa1992": "SGAA 1992",
}


def provision_label(act: str, number: str) -> str:
    name = ACT_LABELS.get(act, act)
    if number.startswith("sch1-"):
        return f"{name} Sch 1 s {number[5:]}"
    return f"{name} s {number}"


class CorpusView:
    def __init__(self, corpus: CorpusBuild, scope: IndexScope, vector_config: VectorConfig) -> None:
        self.corpus = corpus
        self.scope = scope
        items = list(corpus.index_items(scope))  # chunked once: the generation and the lookups share it
        self.generation = items_generation(items, vector_config)
        # The Register's attribution, dated from the snapshot itself (never a hard-coded date).
        self.attribution = register_attribution(snapshot_date(corpus.sources.compilations, corpus.sources.raw))
        self._chunks: dict[str, Chunk] = {}
        self._children: dict[str, list[Chunk]] = {}
        self._docs: dict[str, SourceDoc] = {}
        self._versions: dict[str, ProvisionVersion] = {}
        for item in items:
            if item.chunk is None:
                continue
            self._chunks[item.chunk.id] = item.chunk
            self._children.setdefault(item.chunk.source_id, []).append(item.chunk)
        # Each Subdivision's basic rule, for a question that asserts something of a regime.
        self.basic_rules = BasicRules(
            t for (act, _), t in corpus.timelines.items() if scope.acts is None or act in scope.acts
        )
        self._numbered: dict[str, list[ProvisionTimeline]] = {}
        self._stretches: dict[tuple[str, str], tuple[ThenStood, ...]] = {}
        for (act, number), timeline in corpus.timelines.items():
            if scope.acts is None or act in scope.acts:
                self._numbered.setdefault(number, []).append(timeline)
            stretches = then_stood_stretches(timeline)
            self._stretches[(act, number)] = stretches
            for version in timeline.versions:
                self._versions[version.id] = version
                if version.id in self._children:
                    self._docs[version.id] = SourceDoc(
                        id=version.id,
                        kind="provision",
                        text=version.text,
                        title=f"{provision_label(version.act, version.number)} {version.heading}".strip(),
                        act=version.act,
                        provision=version.number,
                        register_ids=version.register_ids,
                        authorised=version.authorised,
                        valid_from=version.valid_from,
                        valid_to=version.valid_to,
                        income_years=version.income_years,
                        then_stood=stretches_of(stretches, version.id),
                    )
        for ruling in corpus.rulings:
            if ruling.id in self._children:
                validity = corpus.ruling_validities[ruling.id]
                self._docs[ruling.id] = _ruling_doc(
                    ruling, validity.valid_from, validity.valid_to, validity.income_years
                )

    def chunk_texts(self) -> Iterator[str]:
        """The text of every indexed chunk (what the relevance statistics count)."""
        return (chunk.text for chunk in self._chunks.values())

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def children(self, source_id: str) -> Sequence[Chunk]:
        return self._children.get(source_id, ())

    def doc(self, source_id: str) -> SourceDoc | None:
        return self._docs.get(source_id)

    def version(self, version_id: str) -> ProvisionVersion | None:
        return self._versions.get(version_id)

    def timeline(self, act: str, number: str) -> ProvisionTimeline | None:
        return self.corpus.timeline(act, number)

    def then_stood(self, act: str, number: str) -> tuple[ThenStood, ...]:
        """Every stretch of the provision served as it then stood (computed once, at start)."""
        return self._stretches.get((act, number), ())

    def timelines_numbered(self, number: str) -> Sequence[ProvisionTimeline]:
        """Every timeline of a provision with this number, one per Act in the served scope."""
        acts = self.scope.acts
        return [t for (act, n), t in self.corpus.timelines.items() if n == number and (acts is None or act in acts)]


def _ruling_doc(ruling: Ruling, valid_from: date, valid_to: date | None, years: tuple[int, ...]) -> SourceDoc:
    return SourceDoc(
        id=ruling.id,
        kind="ruling",
        text=ruling.text,
        title=f"{ruling.id} {ruling.title}".strip(),
        act=None,
        provision=None,
        register_ids=(),
        authorised=True,
        valid_from=valid_from,
        valid_to=valid_to,
        income_years=years,
        status=ruling.status,
    )
