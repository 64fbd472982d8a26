"""The scoring rules of ``gold-set-schema.md`` for one case (pure).

- **accurate**: decision ``answer``, a citation matches a gold authority (and its
  ``register_id`` where given), no ``must_not_cite`` / ``must_not_quote`` hit, ``must_quote_any``
  satisfied where given, no out-of-period citation, and for ``reject_premise`` the
  premise-rejection flag set;
- **hallucinated**: decision ``answer`` and not accurate, or any answer where ``expect: abstain``;
- **missing**: any abstention; **error**: the system could not run the case.

:func:`score_case` also says which rule decided, in words, for the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from asat_corpus.normalise import normalise
from asat_research.evaluation.records import ERROR, CitedSource, SystemAnswer
from asat_research.gold import Expect, GoldCase, ProvisionRef, RulingRef


class Verdict(StrEnum):
    ACCURATE = "accurate"
    HALLUCINATED = "hallucinated"
    MISSING = "missing"
    ERROR = "error"


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    rule: str  # "accurate: cites gold 328-110", "missing: abstain_low_relevance", ...


def cites(citation: CitedSource, authority: ProvisionRef | RulingRef) -> bool:
    """Whether ``citation`` is of ``authority``: same act and section (and the pinned compilation
    among its register ids), or the same ruling id."""
    if isinstance(authority, RulingRef):
        return citation.source_id == authority.ruling
    if citation.act != authority.act or citation.provision != authority.provision:
        return False
    return authority.register_id is None or authority.register_id in citation.register_ids


def _quoted(needle: str, quotes: Sequence[str]) -> bool:
    wanted = normalise(needle)
    return any(wanted in quote for quote in quotes)


def _label(authority: ProvisionRef | RulingRef) -> str:
    if isinstance(authority, RulingRef):
        return authority.ruling
    pinned = f" ({authority.register_id})" if authority.register_id else ""
    return f"{authority.provision}{pinned}"


def _cited_labels(citations: Sequence[CitedSource]) -> str:
    labels = list(dict.fromkeys(c.label() for c in citations))
    return ", ".join(labels) if labels else "nothing"


def _answered(case: GoldCase, answer: SystemAnswer, temporal_violations: Sequence[str]) -> Judgement:
    hallucinated = Verdict.HALLUCINATED
    if case.expect is Expect.ABSTAIN:
        return Judgement(
            hallucinated, f"hallucinated: answered an abstain case (cited {_cited_labels(answer.citations)})"
        )
    if temporal_violations:
        return Judgement(hallucinated, f"hallucinated: out-of-period version {temporal_violations[0]}")
    for trap in case.must_not_cite:
        hit = next((c for c in answer.citations if cites(c, trap)), None)
        if hit is not None:
            what = trap.register_id if isinstance(trap, ProvisionRef) and trap.register_id else _label(trap)
            return Judgement(hallucinated, f"hallucinated: must_not_cite hit {what} ({hit.source_id})")
    quotes = [normalise(c.quote) for c in answer.citations]
    for phrase in case.must_not_quote:
        if _quoted(phrase, quotes):
            return Judgement(hallucinated, f"hallucinated: must_not_quote hit {phrase!r}")
    matched = [g for g in case.gold if any(cites(c, g) for c in answer.citations)]
    if not matched:
        gold = ", ".join(g.label() for g in case.gold)
        return Judgement(
            hallucinated, f"hallucinated: cites none of the gold ({gold}); cited {_cited_labels(answer.citations)}"
        )
    if case.must_quote_any and not any(_quoted(p, quotes) for p in case.must_quote_any):
        return Judgement(hallucinated, "hallucinated: no verified quote contains any of must_quote_any")
    if case.expect is Expect.REJECT_PREMISE and not answer.premise_rejected:
        return Judgement(hallucinated, "hallucinated: answered without rejecting the false premise")
    prefix = (
        "accurate: rejects the premise, cites gold" if case.expect is Expect.REJECT_PREMISE else "accurate: cites gold"
    )
    return Judgement(Verdict.ACCURATE, f"{prefix} {', '.join(_label(g) for g in matched)}")


def score_case(case: GoldCase, answer: SystemAnswer, temporal_violations: Sequence[str] = ()) -> Judgement:
    """The verdict for one case and the rule that decided it.

    ``temporal_violations`` are the answer's out-of-period citations
    (:func:`~asat_research.evaluation.temporal_check.temporal_violations`).
    """
    if answer.decision == ERROR:
        reason = answer.reasons[0] if answer.reasons else "no reason given"
        return Judgement(Verdict.ERROR, f"error: {reason}")
    if answer.abstained:
        expected = " (expected)" if case.expect is Expect.ABSTAIN else ""
        return Judgement(Verdict.MISSING, f"missing: {answer.decision}{expected}")
    if answer.answered:
        return _answered(case, answer, temporal_violations)
    return Judgement(Verdict.ERROR, f"error: unknown decision {answer.decision!r} (want answer, abstain_* or error)")
