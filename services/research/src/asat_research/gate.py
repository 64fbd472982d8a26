"""The abstention gate: a pure function over evidence, decided outside any model.

It answers only when every rule below passes, and otherwise abstains with every reason that
applies (the first is the decision):

0. The question is not about law outside the corpus (state taxes, other countries' tax law;
   see ``asat_research.scope``).
1. No citation outside the income year (checked again here; retrieval filters already).
2. No marker of law not held for the year (text in force but not held, or a provision not yet
   enacted) scores within ``gap_margin`` of the best held passage: the law that answers may be
   the text we lack, or may not exist yet.
   A provision the question names explicitly whose text for the year is not held (or that was
   not yet enacted) abstains the same way, whatever else scores well. A not-yet-enacted marker
   does not block a premise a fixed rule showed wrong with a verified quote (a figure or a rule
   of the law, as in 3: a law not yet made is not the year's law), nor does a marker scored below
   the relevance floor; a relevant marker of text not held does (the text we lack may say
   otherwise).
3. The reranker's best score reaches ``min_score`` on its own calibrated scale, unless a fixed
   rule of :mod:`asat_research.premise` read a verified quote as a rule of the law denying what
   the question asserts (an exclusion, who may have a benefit, a duty's condition, a deeming):
   that quote is about the question whatever the ranker made of the rest. A figure of the same
   kind and concept counts only in the section ranked first: further down it is too often
   another rule's.
4. At least one claim verified (integrity and groundedness), and only verified claims are
   shown; claims that failed are dropped and counted.
5. At least ``min_sources`` independent sources (distinct provisions or rulings) support the
   verified claims, and at least ``corroborated_sources`` when the best passage scored below the
   corroboration bar (relevant, but not clearly so; not for a premise shown wrong as in 3).
6. The generator did not decline the question (the extractive one declines to confirm or
   reject a statement it can only quote).
7. No provision cited has two different held versions in force in the income year unless the
   question gave a day that picks one (a mid-year amendment is shown, not silently chosen).
   Where only one held version reaches the year and the rest of the year's text is not held,
   the answer stands with that caveat as its reason.

An answer that quotes a text *as it then stood* (the law as it now stands is not held for the
date, but a held compilation shows the text on the books then; see ``asat_corpus.then_stood``)
passes the same rules and is decided ``answered_as_then_stood``, its caveats first among its
reasons: an answer never loses the caveat that goes with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from asat_corpus.contracts.decisions import Decision as Decision  # the wire enum; re-exported here
from asat_corpus.contracts.decisions import is_answered

FIXED_RULES = frozenset({"figure", "exclusion", "eligibility", "limitation", "deeming"})
"""The premise rules of :mod:`asat_research.premise` whose verified quote waives the floors."""


@dataclass(frozen=True)
class GateConfig:
    """``min_score``: the floor a best passage must reach. ``corroboration_score``: a best passage
    below it (but above the floor) needs ``corroborated_sources`` independent sources to answer."""

    min_score: float
    corroboration_score: float | None = None
    corroborated_sources: int = 2
    min_sources: int = 1
    gap_margin: float = 0.05
    scale: str = "cosine"


@dataclass(frozen=True)
class VersionSpread:
    """A cited provision and the distinct versions of it in force during the income year."""

    provision: str  # "itaa1997 s 328-110"
    # The texts an answer for the year may quote: versions in force at some time in it, and the
    # texts of each gap as they then stood, one reading per gap (``asat_corpus.then_stood.texts_served``).
    version_ids: tuple[str, ...]
    unheld_periods: tuple[str, ...] = ()  # parts of the year whose text is not held


@dataclass(frozen=True)
class GateEvidence:
    income_year: int
    day_given: bool
    top_score: float | None
    gap_score: float | None  # best score of a marker for text in force this year but not held
    gap_description: str | None
    verified_claims: int
    failed_claims: int
    supporting_sources: tuple[str, ...]  # distinct provision/ruling keys behind verified claims
    out_of_period_citations: tuple[str, ...]
    version_spreads: tuple[VersionSpread, ...] = field(default=())
    declined: str | None = None  # the generator declined the question, and why
    deadline_passed: str | None = None  # the model did not answer before the request's deadline
    out_of_scope: str | None = None  # the question is about law the corpus does not hold, and why
    gap_kind: str = "gap"  # "gap" (text not held) or "not_yet_enacted"
    named_unheld: str | None = None  # a provision the question names has no text held for the year, and why
    named_unheld_kind: str = "gap"  # "gap" or "not_yet_enacted"
    then_stood: tuple[str, ...] = ()  # caveats of verified citations quoted as the text then stood
    as_known_on: date | None = None  # asked on the known-time axis: the texts on the books that day
    # What read a verified quote as contradicting the question's premise: a fixed rule ("figure",
    # "exclusion", "eligibility", "limitation", "deeming"), the contradiction model ("model"), or None.
    premise_rule: str | None = None
    # A figure the question states contradicted in the section the ranker put first.
    premise_in_top_section: bool = False

    @property
    def premise_shown(self) -> bool:
        """A fixed rule showed the premise wrong (the contradiction model's reading waives nothing)."""
        return self.premise_rule in FIXED_RULES

    @property
    def premise_ruled_out(self) -> bool:
        """Whether the premise shown wrong is exempt from the relevance floor (rule 3): a fixed rule
        of the law that denies it always; a figure only in the section the ranker put first
        (further down, a figure of the same kind for a loosely shared concept is too often another
        rule's); the contradiction model never (a trained score is held to every bar)."""
        return self.premise_shown and (self.premise_rule != "figure" or self.premise_in_top_section)


@dataclass(frozen=True)
class GateResult:
    decision: Decision
    reasons: tuple[str, ...]  # why it abstained; on an answer, the caveats that go with it
    failed_rules: tuple[Decision, ...]

    @property
    def answered(self) -> bool:
        return is_answered(self.decision.value)


def decide(evidence: GateEvidence, config: GateConfig) -> GateResult:
    failed: list[tuple[Decision, str]] = []
    if evidence.out_of_scope is not None:
        failed.append((Decision.ABSTAIN_OUT_OF_SCOPE, evidence.out_of_scope))
    if evidence.out_of_period_citations:
        failed.append(
            (
                Decision.ABSTAIN_TEMPORAL_VIOLATION,
                f"cited text not in force in income year {evidence.income_year}: "
                + ", ".join(evidence.out_of_period_citations),
            )
        )
    # A provision not yet enacted in the year is not the year's law: it cannot save a premise the
    # law then in force was shown, by a fixed rule and a verified quote, to contradict.
    # Nor can a marker the ranker scores below the relevance floor: it is not about the question.
    waived = evidence.premise_shown and (
        evidence.gap_kind == "not_yet_enacted" or (evidence.gap_score or 0.0) < config.min_score
    )
    if (
        evidence.gap_score is not None
        and not waived
        and (evidence.top_score is None or evidence.gap_score >= evidence.top_score - config.gap_margin)
    ):
        decision = (
            Decision.ABSTAIN_NOT_YET_ENACTED
            if evidence.gap_kind == "not_yet_enacted"
            else Decision.ABSTAIN_TEXT_NOT_HELD
        )
        failed.append((decision, evidence.gap_description or "the text in force then is not held"))
    if evidence.named_unheld is not None:
        decision = (
            Decision.ABSTAIN_NOT_YET_ENACTED
            if evidence.named_unheld_kind == "not_yet_enacted"
            else Decision.ABSTAIN_TEXT_NOT_HELD
        )
        failed.append((decision, evidence.named_unheld))
    if evidence.top_score is None:
        failed.append(
            (
                Decision.ABSTAIN_NOTHING_RETRIEVED,
                f"no held compilation shows a text on the books on {evidence.as_known_on.isoformat()}"
                if evidence.as_known_on is not None
                else f"nothing in the corpus is in force for income year {evidence.income_year}",
            )
        )
    elif evidence.top_score < config.min_score and not evidence.premise_ruled_out:
        failed.append(
            (
                Decision.ABSTAIN_LOW_RELEVANCE,
                f"the best passage scored {evidence.top_score:.3f} on the {config.scale} scale, below the "
                f"threshold {config.min_score:.3f}: the corpus does not appear to address this question",
            )
        )
    if evidence.deadline_passed is not None:
        failed.append((Decision.ABSTAIN_DEADLINE, evidence.deadline_passed))
    elif evidence.declined is not None:
        failed.append((Decision.ABSTAIN_GENERATOR_DECLINED, evidence.declined))
    elif evidence.verified_claims == 0:
        failed.append(
            (
                Decision.ABSTAIN_NO_VERIFIED_CLAIM,
                "no claim could be verified against its quoted source"
                + (f" ({evidence.failed_claims} failed verification)" if evidence.failed_claims else ""),
            )
        )
    else:
        needed = config.min_sources
        weak = (
            config.corroboration_score is not None
            and evidence.top_score is not None
            and evidence.top_score < config.corroboration_score
        )
        if weak and not evidence.premise_ruled_out:
            needed = max(needed, config.corroborated_sources)
        if len(evidence.supporting_sources) < needed:
            why = (
                f" (the best passage scored {evidence.top_score:.3f}, below the corroboration bar "
                f"{config.corroboration_score:.3f})"
                if weak and evidence.top_score is not None and config.corroboration_score is not None
                else ""
            )
            failed.append(
                (
                    Decision.ABSTAIN_INSUFFICIENT_SOURCES,
                    f"{len(evidence.supporting_sources)} independent source(s) support the answer; {needed} required{why}",
                )
            )
    if not evidence.day_given:
        for spread in evidence.version_spreads:
            if len(spread.version_ids) > 1:
                failed.append(
                    (
                        Decision.ABSTAIN_VERSION_CONFLICT,
                        f"{spread.provision} changed during income year {evidence.income_year} "
                        f"({', '.join(spread.version_ids)}); ask as at a date to pick one",
                    )
                )
    if not failed:
        caveats = tuple(
            f"{spread.provision}: the text quoted is in force for part of income year {evidence.income_year}; "
            f"the text for {', '.join(spread.unheld_periods)} is not held"
            for spread in evidence.version_spreads
            if spread.unheld_periods
        )
        if evidence.then_stood:
            return GateResult(Decision.ANSWERED_AS_THEN_STOOD, evidence.then_stood + caveats, ())
        return GateResult(Decision.ANSWER, caveats, ())
    return GateResult(failed[0][0], tuple(r for _, r in failed), tuple(d for d, _ in failed))
