"""Building the dated corpus: parse every source, read the endnotes, date every provision.

This is the I/O edge of the corpus package: it reads ``SOURCES.json`` and the files it names,
runs the parser for each format, and hands the observations to the pure versioning rules.
A file that fails to parse is reported with its name and line and the rest still builds.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.chunk import Chunk
from asat_corpus.chunking import chunk_ruling, chunk_version
from asat_corpus.endnotes import Endnotes
from asat_corpus.generation import corpus_generation
from asat_corpus.header_date import parse_header_date
from asat_corpus.income_year import income_year_of, income_year_start
from asat_corpus.index_payload import (
    gap_id,
    gap_payload,
    not_yet_enacted_payload,
    provision_payload,
    ruling_payload,
)
from asat_corpus.index_scope import IndexScope, RulingScope
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.animus_markdown import parse_animus_markdown
from asat_corpus.parsers.ato_ruling import parse_rulings
from asat_corpus.parsers.commencement import parse_commencement
from asat_corpus.parsers.endnotes_reader import parse_endnotes
from asat_corpus.parsers.gitlaw_markdown import parse_gitlaw_markdown
from asat_corpus.parsers.register_layout import parse_register_layout
from asat_corpus.provision import ParsedProvision, ProvisionTimeline
from asat_corpus.ruling import Ruling
from asat_corpus.ruling_validity import RulingValidity, ruling_validity
from asat_corpus.sources import Sources, load_sources
from asat_corpus.then_stood import ThenStood, marker_years, stretches_of, then_stood_stretches, then_stood_years
from asat_corpus.vector_config import VectorConfig
from asat_corpus.versioning import ALL_RULES, EMPTY_HISTORY, ActHistory, DatingRules, Observation, build_timeline

SectionParser = Callable[[Compilation, Path, ParseReport], list[ParsedProvision]]

SECTION_PARSERS: dict[SourceFormat, SectionParser] = {
    SourceFormat.REGISTER_PDF_LAYOUT_TEXT: parse_register_layout,
    SourceFormat.GITLAW_MARKDOWN: parse_gitlaw_markdown,
    SourceFormat.ANIMUS_PDF_MARKDOWN: parse_animus_markdown,
}

CACHE_FORMAT = 1


@dataclass(frozen=True)
class CompilationResult:
    compilation: Compilation
    provisions: tuple[ParsedProvision, ...]
    report: ParseReport
    endnotes: Endnotes | None
    endnotes_report: ParseReport | None


@dataclass
class CorpusBuild:
    """Everything the corpus holds, dated."""

    sources: Sources
    compilations: tuple[CompilationResult, ...]
    timelines: dict[tuple[str, str], ProvisionTimeline]
    rulings: tuple[Ruling, ...]
    rulings_report: ParseReport | None
    horizon: int
    ruling_validities: dict[str, RulingValidity] = field(default_factory=dict)

    @property
    def first_compilation_dates(self) -> dict[str, date]:
        """Each Act's earliest held complete compilation date."""
        firsts: dict[str, date] = {}
        for result in self.compilations:
            c = result.compilation
            if c.compilation_date is not None and c.partial is None:
                firsts[c.act] = min(firsts.get(c.act, c.compilation_date), c.compilation_date)
        return firsts

    def timeline(self, act: str, number: str) -> ProvisionTimeline | None:
        return self.timelines.get((act, number))

    def provision_numbers(self, act: str) -> list[str]:
        return sorted(number for (a, number) in self.timelines if a == act)

    def chunks(self, acts: Iterable[str] | None = None, rulings: bool = True) -> Iterator[tuple[Chunk, dict[str, Any]]]:
        """Every chunk with its index payload, legislation first, in a stable order."""
        scope = IndexScope(tuple(acts) if acts is not None else None, RulingScope.ALL if rulings else RulingScope.NONE)
        for item in self.index_items(scope):
            if item.chunk is not None:
                yield item.chunk, item.payload

    def index_items(self, scope: IndexScope) -> Iterator[IndexItem]:
        """What the index holds for ``scope``: provision chunks, gap markers, ruling chunks.

        Only items reachable in at least one income year are included.
        """
        wanted = set(scope.acts) if scope.acts is not None else None
        for (act, _number), timeline in sorted(self.timelines.items()):
            if wanted is not None and act not in wanted:
                continue
            stretches = then_stood_stretches(timeline)
            for version in timeline.versions:
                own = stretches_of(stretches, version.id)
                known = version.known_from is not None
                if not version.income_years and not then_stood_years(own, self.horizon) and not known:
                    continue
                context = f"{version.act} s {version.number} {version.heading}"
                for chunk in chunk_version(version):
                    payload = provision_payload(chunk, version, own, self.horizon)
                    yield IndexItem(chunk.id, chunk.text, f"{context}\n{chunk.text}", payload, chunk)
            yield from _gap_items(timeline, self.horizon, stretches)
            first_held = self.first_compilation_dates.get(act)
            if first_held is not None:
                yield from _not_yet_enacted_items(timeline, first_held)
        for ruling in self.rulings:
            if not scope.includes_ruling(ruling.doc_type):
                continue
            validity = self.ruling_validities[ruling.id]
            if not validity.income_years:
                continue
            context = f"{ruling.id} {ruling.title}"
            for chunk in chunk_ruling(ruling):
                yield IndexItem(
                    chunk.id, chunk.text, f"{context}\n{chunk.text}", ruling_payload(chunk, ruling, validity), chunk
                )

    def generation(self, vector_config: VectorConfig, scope: IndexScope) -> str:
        return items_generation(self.index_items(scope), vector_config)


@dataclass(frozen=True)
class IndexItem:
    """One point of the index: ``text`` is shown, ``embed_text`` is what the embedder sees."""

    id: str
    text: str
    embed_text: str
    payload: dict[str, Any]
    chunk: Chunk | None  # None for a gap marker


def items_generation(items: Iterable[IndexItem], vector_config: VectorConfig) -> str:
    """``corpus_generation`` over index items: what is shown and what is embedded both count."""
    return corpus_generation(((i.id, f"{i.text}\0{i.embed_text}", i.payload) for i in items), vector_config)


def _gap_items(timeline: ProvisionTimeline, horizon: int, stretches: Sequence[ThenStood]) -> Iterator[IndexItem]:
    """Markers for the periods a provision was in force with its text not held on either axis
    (income years whose every gap day is served as it then stood get no marker).

    A marker is embedded with the provision's heading and the text of the version nearest to
    the gap, so a question about that provision finds it; it is shown only as the statement
    that the text for the period is not held, never as law.
    """
    for gap in timeline.gaps:
        years = list(marker_years(gap, stretches, horizon))
        if not years or not timeline.versions:
            continue
        nearest = min(timeline.versions, key=lambda v: abs((v.valid_from - gap.start).days))
        payload = gap_payload(timeline, gap, nearest.heading, years)
        embed = f"{gap.act} s {gap.number} {nearest.heading}\n{nearest.text[:1200]}"
        yield IndexItem(gap_id(gap), payload["description"], embed, payload, None)


def _not_yet_enacted_items(timeline: ProvisionTimeline, first_held: date) -> Iterator[IndexItem]:
    """A marker for the income years, from the Act's earliest held compilation, that end before a
    provision added later (per Endnote 4) came into force: a question that is about it in those
    years is told it was not yet enacted instead of being answered from other law."""
    if timeline.added_by is None or not timeline.versions:
        return
    starts = [v.valid_from for v in timeline.versions] + [g.start for g in timeline.gaps]
    start = min(starts)
    years = list(range(income_year_of(first_held), income_year_of(start)))
    if not years:
        return
    first = min(timeline.versions, key=lambda v: v.valid_from)
    payload = not_yet_enacted_payload(timeline, first.heading, start, years)
    embed = f"{timeline.act} s {timeline.number} {first.heading}\n{first.text[:1200]}"
    yield IndexItem(str(payload["chunk_id"]), str(payload["description"]), embed, payload, None)


def _parse_compilation(compilation: Compilation, corpus_dir: Path) -> CompilationResult:
    report = ParseReport(source=compilation.register_id)
    compilation = with_header_date(compilation, corpus_dir, report)
    parser = SECTION_PARSERS[compilation.format]
    try:
        provisions = tuple(parser(compilation, corpus_dir, report))
    except CorpusFileError as error:  # parsers report per file; this is a last resort
        report.fail(error)
        provisions = ()
    endnotes: Endnotes | None = None
    endnotes_report: ParseReport | None = None
    if compilation.has_endnotes:
        endnotes_report = ParseReport(source=f"{compilation.register_id} endnotes")
        try:
            endnotes = parse_endnotes(compilation, corpus_dir, endnotes_report)
        except CorpusFileError as error:
            endnotes_report.fail(error)
    return CompilationResult(compilation, provisions, report, endnotes, endnotes_report)


def _history(endnotes: Endnotes | None, rules: DatingRules = ALL_RULES) -> ActHistory:
    if endnotes is None:
        return EMPTY_HISTORY
    if not rules.narrow_commencements:  # as before issue 24: a "retrospectively changed" note is unread
        endnotes = replace(
            endnotes,
            acts=tuple(
                replace(a, commencement=parse_commencement(a.commencement.text, a.assent, read_changed_notes=False))
                for a in endnotes.acts
            ),
        )
    by_provision: dict[str, list[Any]] = defaultdict(list)
    for entry in endnotes.entries:
        if entry.provision is not None:
            by_provision[entry.provision].append(entry)
    acts = {}
    for act in endnotes.acts:
        # An "as amended by" row amends an amending Act, not this Act; a direct row wins.
        if act.ref not in acts or not act.amends_amending_act:
            acts[act.ref] = act
    return ActHistory(
        original=endnotes.original,
        acts=acts,
        entries_by_provision={k: tuple(v) for k, v in by_provision.items()},
    )


def _latest_endnotes(results: Iterable[CompilationResult], act: str) -> Endnotes | None:
    with_notes = [
        r for r in results if r.compilation.act == act and r.endnotes is not None and r.compilation.compilation_date
    ]
    if not with_notes:
        return None
    return max(with_notes, key=lambda r: r.compilation.compilation_date or date.min).endnotes


def date_provisions(
    results: tuple[CompilationResult, ...], horizon: int, rules: DatingRules = ALL_RULES
) -> dict[tuple[str, str], ProvisionTimeline]:
    """Group observations per provision and date them (pure over the parse results).

    ``rules`` selects issue 24's dating rules (all by default; ``audit-dates`` turns them off to
    show what they changed)."""
    observations: dict[tuple[str, str], list[Observation]] = defaultdict(list)
    for result in results:
        if result.compilation.compilation_date is None:
            continue  # reported by with_header_date: undated text is never served
        seen: set[str] = set()
        for provision in result.provisions:
            if provision.number in seen:
                result.report.skip(
                    provision.source_file, provision.source_line, "duplicate section number", provision.number
                )
                continue
            seen.add(provision.number)
            observations[(provision.act, provision.number)].append(Observation(provision, result.compilation))
    histories = {act: _history(_latest_endnotes(results, act), rules) for act in {r.compilation.act for r in results}}
    compilations_by_act: dict[str, list[Compilation]] = defaultdict(list)
    for result in results:
        compilations_by_act[result.compilation.act].append(result.compilation)
    current_since = income_year_start(horizon - 1)
    return {
        key: build_timeline(
            key[0], key[1], obs, compilations_by_act[key[0]], histories[key[0]], horizon, current_since, rules
        )
        for key, obs in sorted(observations.items())
    }


def horizon_for(sources: Sources) -> int:
    """The last income year an open interval reaches: the year after the latest compilation's.

    A compilation is taken as current only when it falls in the income year before the horizon
    (the latest compilations' year); see ``build_timeline``'s ``current_since``.
    """
    dates = [c.compilation_date for c in sources.compilations if c.compilation_date is not None]
    return income_year_of(max(dates)) + 1


def with_header_date(compilation: Compilation, corpus_dir: Path, report: ParseReport) -> Compilation:
    """Fill a missing compilation date from the first file's own header, or report it."""
    if compilation.compilation_date is not None or not compilation.files:
        return compilation
    first = compilation.files[0]
    try:
        head = (corpus_dir / first).read_text(encoding="utf-8", errors="replace")[:20000]
    except OSError as error:
        report.fail(CorpusFileError(first, 0, f"cannot read: {error}"))
        return compilation
    found = parse_header_date(head)
    if found is None:
        report.skip(first, 1, "no compilation date in SOURCES.json or the file header: its text cannot be dated", first)
        return compilation
    return replace(compilation, compilation_date=found[0])


def build_corpus(
    sources: Sources | None = None,
    acts: Iterable[str] | None = None,
    include_rulings: bool = True,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> CorpusBuild:
    """Parse and date the corpus (optionally only some Acts)."""
    sources = sources if sources is not None else load_sources()
    wanted = set(acts) if acts is not None else None
    compilations = [c for c in sources.compilations if wanted is None or c.act in wanted]
    workers = workers if workers is not None else min(2, os.cpu_count() or 1)
    results: list[CompilationResult] = []
    # Largest first so the pool stays busy.
    order = sorted(compilations, key=lambda c: -len(c.files))
    if workers > 1 and len(order) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_parse_compilation, c, sources.corpus_dir) for c in order]
            for future in futures:
                result = future.result()
                results.append(result)
                if progress:
                    progress(f"parsed {result.compilation.act} {result.compilation.register_id}")
    else:
        for compilation in order:
            results.append(_parse_compilation(compilation, sources.corpus_dir))
            if progress:
                progress(f"parsed {compilation.act} {compilation.register_id}")
    by_id = {r.compilation.register_id: r for r in results}
    ordered = tuple(by_id[c.register_id] for c in compilations)
    horizon = horizon_for(sources)
    timelines = date_provisions(ordered, horizon)
    rulings: tuple[Ruling, ...] = ()
    rulings_report: ParseReport | None = None
    if include_rulings and sources.rulings is not None:
        rulings_report = ParseReport(source="rulings")
        rulings = tuple(parse_rulings(sources.corpus_dir, rulings_report))
        if progress:
            progress(f"parsed {len(rulings)} rulings")
    validities = {r.id: ruling_validity(r, horizon) for r in rulings}
    return CorpusBuild(sources, ordered, timelines, rulings, rulings_report, horizon, validities)


def _cache_key(sources: Sources, acts: Iterable[str] | None, include_rulings: bool) -> str:
    digest = hashlib.sha256(f"{CACHE_FORMAT}|{sorted(acts) if acts else None}|{include_rulings}".encode())
    package = Path(__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.read_bytes())
    root = sources.corpus_dir
    paths = [root / "SOURCES.json"] + [root / f for c in sources.compilations for f in c.files]
    if include_rulings:
        paths.append(root / "rulings")
    for path in paths:
        stat = path.stat()
        digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:24]


def cache_dir_from_env() -> Path:
    return Path(os.environ.get("ASAT_CACHE_DIR", "var/cache"))


def load_corpus(
    sources: Sources | None = None,
    acts: Iterable[str] | None = None,
    include_rulings: bool = True,
    cache_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> CorpusBuild:
    """``build_corpus`` behind an on-disk cache keyed by the corpus files and this package's code."""
    sources = sources if sources is not None else load_sources()
    acts_list = sorted(set(acts)) if acts is not None else None
    directory = cache_dir if cache_dir is not None else cache_dir_from_env()
    path = directory / f"corpus-{_cache_key(sources, acts_list, include_rulings)}.pickle"
    if path.is_file():
        try:
            with path.open("rb") as handle:
                cached = pickle.load(handle)
            if isinstance(cached, CorpusBuild):
                cached.sources = sources
                return cached
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            pass  # a damaged cache is rebuilt below, never served
    build = build_corpus(sources, acts_list, include_rulings, progress=progress)
    directory.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    with temporary.open("wb") as handle:
        pickle.dump(build, handle, protocol=pickle.HIGHEST_PROTOCOL)
    temporary.replace(path)
    return build
