"""The gate's rules that are decided at resolve, before retrieval (pure).

First, the **period rule** (``asat_research.temporal.period_conflict``): a question that names
one income year asked with an ``income_year`` or ``as_of`` parameter naming another is refused
as ``period_conflict``, naming both, so that neither period is chosen silently. The named-section
rule is not read then (it would judge the question against a period that may not be the one
meant); the scope rule's reason, if any, follows the conflict's.

Then two of the gate's rules (``asat_research.gate``) read only the question and the corpus's
timelines, never what retrieval, generation or verification find:

- the **scope rule** (rule 0, ``asat_research.scope.out_of_scope``): state and territory taxes,
  another country's tax law, facts rather than law, figures set by an Act the corpus does not
  hold;
- the **named-section rule** (rule 2's second part, ``asat_research.named_provisions``): a
  section the question names explicitly whose text for the income year (or, on the known-time
  axis, on the day) is not held, or that was not yet enacted. Whether the text is held, and why
  not, is read from the section's timelines alone; a section that is held for the year (in
  force, or served as it then stood) is not refused here and goes on to retrieval.

A question either rule refuses abstains whatever else is found, so the pipeline decides them at
resolve and a refused question makes no retrieval, generator or verifier call; it is still
gated and audited. The decision and the reason texts are the gate's own, in the gate's order
(the scope reason first, then the named section's): :func:`refusal` gives what ``decide`` gives
on the same two findings when every other rule passes.

What the rules that need retrieval would have added is not there. An out-of-scope question's
decision is unchanged (the scope rule is the gate's first), but its reasons no longer go on with
theirs (low relevance, no verified claim ...). For a named section, two rules came before it in
the gate's order: a citation out of the period (which retrieval's filter already prevents) and
a marker of text not held that scores within the gap margin of the best passage. Such a marker
(often the named section's own) gave the first reason, and where it was of the other kind (not
yet enacted against a gap) the decision too; here the named section's reason and kind decide.
Either way the question abstains for text the corpus does not hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from asat_corpus.resolution import Status
from asat_research.gate import Decision, GateResult
from asat_research.named_provisions import UnheldProvision
from asat_research.temporal import PeriodConflict


@dataclass(frozen=True)
class NamedUnheld:
    """A named section with no text held for the question's period, as the gate words it."""

    reason: str  # "the question names itaa1997 328-110: ..."
    kind: str  # "gap" or "not_yet_enacted" (GateEvidence.named_unheld_kind)

    @property
    def decision(self) -> Decision:
        return Decision.ABSTAIN_NOT_YET_ENACTED if self.kind == "not_yet_enacted" else Decision.ABSTAIN_TEXT_NOT_HELD


def named_unheld(named: UnheldProvision) -> NamedUnheld:
    return NamedUnheld(
        reason=f"the question names {named.label}: {named.message}",
        kind="not_yet_enacted" if named.status is Status.NOT_YET_ENACTED else "gap",
    )


def refusal(
    out_of_scope: str | None, named: NamedUnheld | None, conflict: PeriodConflict | None = None
) -> GateResult | None:
    """The gate's result for a question refused before retrieval, or None when no rule applies."""
    failed: list[tuple[Decision, str]] = []
    if conflict is not None:
        failed.append((Decision.PERIOD_CONFLICT, conflict.reason))
        named = None
    if out_of_scope is not None:
        failed.append((Decision.ABSTAIN_OUT_OF_SCOPE, out_of_scope))
    if named is not None:
        failed.append((named.decision, named.reason))
    if not failed:
        return None
    return GateResult(failed[0][0], tuple(r for _, r in failed), tuple(d for d, _ in failed))
