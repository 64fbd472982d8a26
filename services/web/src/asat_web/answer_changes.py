"""What changed between an answer as given and the same question asked again (pure).

Two research outcomes are compared on what the user is shown: the decision, the period, the
reasons (an abstention's why, an answer's caveats), the claims (by text), the verified quotes (by
source id and quote text, from the claims and the reading list, each once), the reading list (by
source id) and the corpus generation. A quote of one provision that is gone and another of the
same provision that is new, with mostly the same words (a new version of the provision, or the
same range re-read), is reported as changed, with a word diff (``asat_web.diff.diff_texts``);
the rest are added or removed. Request ids, audit rows and latencies always differ and are not
compared.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from asat_corpus.contracts.research import OutcomeCitation, OutcomeScope, ResearchOutcome
from asat_web.diff import DiffSegment, diff_texts

# A gone quote and a new one of the same provision are one changed quote when at least this share
# of their words agree (difflib's ratio over words); below it they are a removal and an addition.
SAME_QUOTE_RATIO = 0.5


@dataclass(frozen=True)
class Change:
    """A value that differs: as it was, and as it is now."""

    old: str
    new: str


@dataclass(frozen=True)
class QuoteRef:
    """One verified quote: its version, where it stands in the text and its words."""

    source_id: str
    title: str
    register_ids: tuple[str, ...]
    quote: str
    start: int
    end: int
    provision: str  # the provision the version is of: "act provision", else the id before "@"


@dataclass(frozen=True)
class QuoteChange:
    """A quote of one provision as it was and as it is now, with the word diff from one to the other."""

    old: QuoteRef
    new: QuoteRef
    segments: tuple[DiffSegment, ...]


@dataclass(frozen=True)
class ReadingRef:
    source_id: str
    title: str


@dataclass(frozen=True)
class AnswerChanges:
    """Each difference between the answer as given (old) and as given now (new)."""

    decision: Change | None
    period: Change | None
    generation: Change | None
    reasons_added: tuple[str, ...]
    reasons_removed: tuple[str, ...]
    claims_added: tuple[str, ...]
    claims_removed: tuple[str, ...]
    quotes_added: tuple[QuoteRef, ...]
    quotes_removed: tuple[QuoteRef, ...]
    quotes_changed: tuple[QuoteChange, ...]
    reading_added: tuple[ReadingRef, ...]
    reading_removed: tuple[ReadingRef, ...]

    @property
    def answer_changed(self) -> bool:
        """Whether anything the answer says changed (the corpus generation aside)."""
        return any(
            (
                self.decision,
                self.period,
                self.reasons_added,
                self.reasons_removed,
                self.claims_added,
                self.claims_removed,
                self.quotes_added,
                self.quotes_removed,
                self.quotes_changed,
                self.reading_added,
                self.reading_removed,
            )
        )

    @property
    def nothing_changed(self) -> bool:
        """The same answer from the same corpus generation."""
        return not self.answer_changed and self.generation is None


def compare_outcomes(old: ResearchOutcome, new: ResearchOutcome) -> AnswerChanges:
    """What changed from ``old`` (the answer as given) to ``new`` (the question asked again)."""
    old_quotes, new_quotes = quote_refs(old), quote_refs(new)
    new_keys = {_key(q) for q in new_quotes}
    old_keys = {_key(q) for q in old_quotes}
    removed = [q for q in old_quotes if _key(q) not in new_keys]
    added = [q for q in new_quotes if _key(q) not in old_keys]
    changed = _pair_changed(removed, added)
    paired_old = {_key(c.old) for c in changed}
    paired_new = {_key(c.new) for c in changed}
    old_reading = {r.source_id: ReadingRef(r.source_id, r.title) for r in old.reading_list}
    new_reading = {r.source_id: ReadingRef(r.source_id, r.title) for r in new.reading_list}
    return AnswerChanges(
        decision=_change(old.decision.value, new.decision.value),
        period=_change(period_text(old.scope), period_text(new.scope)),
        generation=_change(old.corpus_generation, new.corpus_generation),
        reasons_added=_only_in(new.reasons, old.reasons),
        reasons_removed=_only_in(old.reasons, new.reasons),
        claims_added=_only_in((c.text for c in new.claims), (c.text for c in old.claims)),
        claims_removed=_only_in((c.text for c in old.claims), (c.text for c in new.claims)),
        quotes_added=tuple(q for q in added if _key(q) not in paired_new),
        quotes_removed=tuple(q for q in removed if _key(q) not in paired_old),
        quotes_changed=changed,
        reading_added=tuple(r for k, r in new_reading.items() if k not in old_reading),
        reading_removed=tuple(r for k, r in old_reading.items() if k not in new_reading),
    )


def period_text(scope: OutcomeScope) -> str:
    """The period an outcome was answered for, in words (not where it came from)."""
    if scope.as_known_on is not None:
        return f"as known on {scope.as_known_on.isoformat()} (income year {scope.income_year})"
    if scope.as_of is not None:
        return f"as at {scope.as_of.isoformat()} (income year {scope.income_year})"
    return f"income year {scope.income_year}"


def quote_refs(outcome: ResearchOutcome) -> tuple[QuoteRef, ...]:
    """The outcome's verified quotes, each (source id, quote) once: the claims' first, in order,
    then the reading list's."""
    cited = [c for claim in outcome.claims for c in claim.citations]
    cited += [q for entry in outcome.reading_list for q in entry.quotes]
    seen: dict[tuple[str, str], QuoteRef] = {}
    for citation in cited:
        ref = _ref(citation)
        seen.setdefault(_key(ref), ref)
    return tuple(seen.values())


def _ref(citation: OutcomeCitation) -> QuoteRef:
    provision = (
        f"{citation.act} {citation.provision}"
        if citation.act and citation.provision
        else citation.source_id.partition("@")[0]
    )
    return QuoteRef(
        source_id=citation.source_id,
        title=citation.title,
        register_ids=citation.register_ids,
        quote=citation.quote,
        start=citation.start,
        end=citation.end,
        provision=provision,
    )


def _key(ref: QuoteRef) -> tuple[str, str]:
    return ref.source_id, ref.quote


def _change(old: str, new: str) -> Change | None:
    return None if old == new else Change(old, new)


def _only_in(these: Iterable[str], those: Iterable[str]) -> tuple[str, ...]:
    """The texts of ``these`` not among ``those``, each once, in order."""
    others = set(those)
    return tuple(dict.fromkeys(t for t in these if t not in others))


def _pair_changed(removed: list[QuoteRef], added: list[QuoteRef]) -> tuple[QuoteChange, ...]:
    """Gone and new quotes of the same provision paired, most alike first (ties in order), each at
    most once, when their words mostly agree; in the order of the gone quotes."""
    candidates: list[tuple[float, int, int]] = []
    for i, old in enumerate(removed):
        for j, new in enumerate(added):
            if old.provision != new.provision:
                continue
            ratio = SequenceMatcher(a=old.quote.split(), b=new.quote.split(), autojunk=False).ratio()
            if ratio >= SAME_QUOTE_RATIO:
                candidates.append((-ratio, i, j))
    used_old: dict[int, int] = {}
    used_new: set[int] = set()
    for _, i, j in sorted(candidates):
        if i not in used_old and j not in used_new:
            used_old[i] = j
            used_new.add(j)
    return tuple(
        QuoteChange(removed[i], added[j], diff_texts(removed[i].quote, added[j].quote))
        for i, j in sorted(used_old.items())
    )
