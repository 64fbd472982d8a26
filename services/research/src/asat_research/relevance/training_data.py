"""Training data for the relevance model, from the corpus only (deterministic).

Sources, each a question with the provision(s) that answer it:

- ``aid``: an ATO Interpretative Decision's Issue, with the held sections its Legislative
  References cite that the Issue or Decision also names ("clean" pairs). The section's own
  number is masked in the question, so the model learns to read rather than to match numbers.
  Catch-all sections (6-5, 8-1, 995-1, ...) are dropped where a more specific one is cited, and
  weigh half where they are all there is. The income year is the decision's, where a held text
  of the section was in force then, else the first year one was.
- ``heading``: a section heading as the question, that section as the answer (every
  ``HEADING_STRIDE``-th held section, in a stable order).
- ``dictionary``: "What is the meaning of <term>?" -> the section the Act's dictionary names.
- ``summary``: a Division's (or Subdivision's) "What this Division is about" opening sentences
  -> its operative sections (:mod:`asat_research.relevance.division_summaries`), one example per
  slice the sections fall in (at most ``SUMMARY_MAX_TARGETS`` sections).
- ``title``: a public ruling's title (TR, TD, GSTR, IT, ...; its "Income tax:" style prefix
  dropped, section numbers masked) -> the held sections its Legislative References cite
  (:mod:`asat_research.relevance.ruling_refs`), where they are few enough to be the answer
  (one to ``TITLE_MAX_TARGETS`` specific sections; catch-alls dropped), one example per slice.

Decisions that cite only Acts or sections the corpus does not hold are kept apart as abstention
examples. Every question passes the leakage guard against the evaluation suites. Examples are
split train/dev/test by provision (a stable hash), so the test slice asks about sections never
trained on; an example whose sections fall in different slices is dropped and counted.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.income_year import income_year_of
from asat_research.relevance.aid_record import AidRecord, mask_provision, names_provision, read_aid
from asat_research.relevance.defined_terms import DICTIONARIES, DefinedTerm, dictionary_entries
from asat_research.relevance.division_summaries import Section, summary_pairs
from asat_research.relevance.leakage import LeakageGuard
from asat_research.relevance.legislative_refs import ActNames
from asat_research.relevance.ruling_refs import parse_ruling_references, ruling_references_block

CATCH_ALL = frozenset(
    {
        ("itaa1997", "6-5"),
        ("itaa1997", "8-1"),
        ("itaa1997", "995-1"),
        ("itaa1936", "6"),
        ("gst1999", "195-1"),
        ("fbtaa1986", "136"),
        ("taa1953", "sch1-12-35"),
    }
)
HEADING_STRIDE = 3
SOURCE_WEIGHT = {"aid": 1.0, "heading": 0.5, "dictionary": 0.5, "summary": 0.5, "title": 0.5}
SUMMARY_MAX_TARGETS = 25
TITLE_MAX_TARGETS = 3
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Target:
    act: str
    number: str
    label: str | None = None  # the subsection cited, where one is

    @property
    def key(self) -> tuple[str, str]:
        return (self.act, self.number)


# (id, question, income year, targets, weight, origin ruling) before the guard and the split.
Row = tuple[str, str, int, tuple[Target, ...], float, str | None]


@dataclass(frozen=True)
class TrainingExample:
    id: str
    source: str  # aid | heading | dictionary
    question: str
    income_year: int
    targets: tuple[Target, ...]
    weight: float
    split: str
    origin: str | None = None  # the ruling the question came from


@dataclass(frozen=True)
class AbstentionExample:
    id: str
    question: str
    income_year: int
    cited: tuple[str, ...]  # the Acts or sections cited, none of them held


@dataclass
class TrainingSet:
    examples: list[TrainingExample]
    abstentions: list[AbstentionExample]
    counts: Counter[str] = field(default_factory=Counter)

    def digest(self) -> str:
        """A hash of every example: the training data's identity in a model card."""
        h = hashlib.sha256()
        for e in self.examples:
            targets = ";".join(f"{t.act}:{t.number}{t.label or ''}" for t in e.targets)
            h.update(f"{e.id}\t{e.source}\t{e.question}\t{e.income_year}\t{targets}\t{e.weight}\t{e.split}\n".encode())
        return h.hexdigest()


def provision_split(act: str, number: str) -> str:
    """train (70%), dev (10%) or test (20%), by a stable hash of the provision."""
    bucket = int(hashlib.sha256(f"{act}:{number}".encode()).hexdigest()[:8], 16) % 100
    return "train" if bucket < 70 else "dev" if bucket < 80 else "test"


def _split(targets: Sequence[Target]) -> str | None:
    splits = {provision_split(t.act, t.number) for t in targets}
    return splits.pop() if len(splits) == 1 else None


def act_names(corpus: CorpusBuild) -> ActNames:
    return ActNames.from_titles({c.title: c.act for c in corpus.sources.compilations})


def _year_for(corpus: CorpusBuild, targets: Sequence[Target], preferred: int) -> int | None:
    """``preferred`` when a held text of a target was in force then, else the first year one was after it,
    else the last year one was."""
    years = sorted(
        {
            y
            for t in targets
            if (tl := corpus.timeline(t.act, t.number)) is not None
            for v in tl.versions
            for y in v.income_years
        }
    )
    if not years:
        return None
    if preferred in years:
        return preferred
    later = [y for y in years if y > preferred]
    return later[0] if later else years[-1]


def aid_records(corpus: CorpusBuild, counts: Counter[str]) -> Iterator[AidRecord]:
    """Every Interpretative Decision of the corpus read as a record, in corpus order; one without
    an Issue is counted as ``aid: no issue`` and skipped."""
    acts = act_names(corpus)
    for ruling in corpus.rulings:
        if ruling.doc_type != "AID":
            continue
        record = read_aid(ruling.id, ruling.text, acts)
        if record is None:
            counts["aid: no issue"] += 1
            continue
        yield record


def aid_examples(corpus: CorpusBuild, counts: Counter[str]) -> tuple[list[Row], list[AbstentionExample]]:
    raw: list[Row] = []
    abstentions: list[AbstentionExample] = []
    for record in aid_records(corpus, counts):
        preferred = income_year_of(record.decided) if record.decided else corpus.horizon
        held = [r for r in record.held_references if corpus.timeline(str(r.act), str(r.number)) is not None]
        if record.references and not held:
            cited = tuple(dict.fromkeys(f"{r.act_name} {r.number or ''}".strip() for r in record.references))
            abstentions.append(
                AbstentionExample(f"abstain:{record.ruling_id}", record.issue, max(preferred, 2015), cited)
            )
            counts["aid: cites nothing held (abstention example)"] += 1
            continue
        both = f"{record.issue} {record.decision}"
        clean: dict[tuple[str, str], Target] = {}
        for ref in held:
            assert ref.act is not None and ref.number is not None
            if names_provision(both, ref.number):
                current = clean.get((ref.act, ref.number))
                if current is None or (current.label is None and ref.label is not None):
                    clean[(ref.act, ref.number)] = Target(ref.act, ref.number, ref.label)
        if not clean:
            counts["aid: no clean pair (cited section not named in Issue or Decision)"] += 1
            continue
        specific = {k: t for k, t in clean.items() if k not in CATCH_ALL}
        targets = tuple((specific or clean).values())
        weight = SOURCE_WEIGHT["aid"] * (1.0 if specific else 0.5)
        question = record.issue
        for target in targets:
            question = mask_provision(question, target.number)
        year = _year_for(corpus, targets, preferred)
        if year is None:
            counts["aid: no held text in any year"] += 1
            continue
        raw.append((f"aid:{record.ruling_id}", question, year, targets, weight, record.ruling_id))
    return raw, abstentions


def heading_examples(corpus: CorpusBuild) -> list[Row]:
    raw: list[Row] = []
    for i, ((act, number), timeline) in enumerate(sorted(corpus.timelines.items())):
        held = [v for v in timeline.versions if v.income_years]
        if i % HEADING_STRIDE or not held:
            continue
        version = held[-1]
        if len(version.heading.split()) < 3 or version.heading.casefold().startswith(("what this", "guide to")):
            continue
        year = version.income_years[len(version.income_years) // 2]
        raw.append(
            (f"heading:{act}:{number}", version.heading, year, (Target(act, number),), SOURCE_WEIGHT["heading"], None)
        )
    return raw


def dictionary_terms(corpus: CorpusBuild) -> list[DefinedTerm]:
    entries: list[DefinedTerm] = []
    for act, number in DICTIONARIES.items():
        timeline = corpus.timeline(act, number)
        if timeline is None or not timeline.versions:
            continue
        entries.extend(dictionary_entries(act, timeline.versions[-1].text))
    return entries


def dictionary_examples(corpus: CorpusBuild) -> list[Row]:
    raw: list[Row] = []
    for entry in dictionary_terms(corpus):
        timeline = corpus.timeline(entry.act, entry.number)
        if timeline is None:
            continue
        held = [v for v in timeline.versions if v.income_years]
        if not held:
            continue
        year = held[-1].income_years[-1]
        question = f"What is the meaning of {entry.term}?"
        target = Target(entry.act, entry.number)
        raw.append(
            (f"dictionary:{entry.act}:{entry.term}", question, year, (target,), SOURCE_WEIGHT["dictionary"], None)
        )
    return raw


def _targets_by_split(act_numbers: Iterable[tuple[str, str]]) -> list[tuple[str, tuple[Target, ...]]]:
    """The targets grouped by the slice their section falls in (one example per slice)."""
    by_split: dict[str, list[Target]] = {}
    for act, number in act_numbers:
        by_split.setdefault(provision_split(act, number), []).append(Target(act, number))
    return [(split, tuple(targets)) for split, targets in sorted(by_split.items())]


def summary_examples(corpus: CorpusBuild, counts: Counter[str]) -> list[Row]:
    sections = [
        Section(act, number, held[-1].heading, held[-1].hierarchy, held[-1].text)
        for (act, number), timeline in sorted(corpus.timelines.items())
        if (held := [v for v in timeline.versions if v.income_years])
    ]
    raw: list[Row] = []
    for pair in summary_pairs(sections):
        if len(pair.targets) > SUMMARY_MAX_TARGETS:
            counts[f"summary: dropped, more than {SUMMARY_MAX_TARGETS} operative sections"] += 1
            continue
        summary = corpus.timeline(pair.act, pair.number)
        years = summary.versions[-1].income_years if summary is not None else ()
        preferred = years[-1] if years else corpus.horizon
        for split, targets in _targets_by_split((pair.act, number) for number in pair.targets):
            year = _year_for(corpus, targets, preferred)
            if year is not None:
                ident = f"summary:{pair.act}:{pair.number}:{split}"
                raw.append((ident, pair.question, year, targets, SOURCE_WEIGHT["summary"], None))
    return raw


_TITLE_PREFIX = re.compile(
    r"^(?:income tax|goods and services tax|fringe benefits tax|superannuation(?: guarantee)?|"
    r"tax administration|wine equalisation tax|luxury car tax|fuel tax)[^:]{0,40}:\s*",
    re.IGNORECASE,
)


def title_question(title: str) -> str:
    """A ruling's title as a question: its tax-type prefix ("Income tax:") dropped."""
    return " ".join(_TITLE_PREFIX.sub("", title.strip()).split())


def title_examples(corpus: CorpusBuild, counts: Counter[str]) -> list[Row]:
    raw: list[Row] = []
    for ruling in corpus.rulings:
        if ruling.doc_type == "AID":
            continue
        assumed = "ITAA 1936" if ruling.doc_type == "IT" else None
        refs = parse_ruling_references(ruling_references_block(ruling.text), assumed_act=assumed)
        held = dict.fromkeys(
            (r.act, r.number)
            for r in refs
            if r.act is not None and r.number is not None and corpus.timeline(r.act, r.number) is not None
        )
        specific = [key for key in held if key not in CATCH_ALL]
        question = title_question(ruling.title)
        if not specific or len(specific) > TITLE_MAX_TARGETS or len(question.split()) < 4:
            counts[f"title: no clean pair (no held section, or more than {TITLE_MAX_TARGETS})"] += 1
            continue
        for _, number in specific:
            question = mask_provision(question, number)
        preferred = income_year_of(ruling.issue_date) if ruling.issue_date else corpus.horizon
        for split, targets in _targets_by_split(specific):
            year = _year_for(corpus, targets, preferred)
            if year is not None:
                raw.append((f"title:{ruling.id}:{split}", question, year, targets, SOURCE_WEIGHT["title"], ruling.id))
    return raw


def build_training_set(corpus: CorpusBuild, evaluation_questions: Iterable[str]) -> TrainingSet:
    guard = LeakageGuard.of(evaluation_questions)
    counts: Counter[str] = Counter()
    aids, abstentions = aid_examples(corpus, counts)
    raw = [("aid", *row) for row in aids]
    raw += [("heading", *row) for row in heading_examples(corpus)]
    raw += [("dictionary", *row) for row in dictionary_examples(corpus)]
    raw += [("summary", *row) for row in summary_examples(corpus, counts)]
    raw += [("title", *row) for row in title_examples(corpus, counts)]
    examples: list[TrainingExample] = []
    for source, ident, question, year, targets, weight, origin in raw:
        if guard.leaks(question):
            counts[f"{source}: dropped by the leakage guard"] += 1
            continue
        split = _split(targets)
        if split is None:
            counts[f"{source}: dropped, sections in different slices"] += 1
            continue
        examples.append(TrainingExample(ident, source, question, year, targets, weight, split, origin))
        counts[f"{source}: {split}"] += 1
    kept: list[AbstentionExample] = []
    for example in abstentions:
        if guard.leaks(example.question):
            counts["abstention: dropped by the leakage guard"] += 1
        else:
            kept.append(example)
    return TrainingSet(examples, kept, counts)
