"""Checking a suite against the corpus: every gold authority resolves for the case's date (pure).

The corpus is reached through an :class:`AuthorityResolver`, so the rules here run on any
corpus (the real one through :class:`~asat_research.gold.corpus_resolver.CorpusResolver`, or a
fake in tests).

Dates: a case asked ``as_of`` a day needs a text in force on that day; a case asked for an
``income_year`` needs a text in force for at least one day of that year (what the served
corpus would retrieve for the year).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Protocol

from asat_corpus.normalise import normalise
from asat_research.gold.loader import check_document
from asat_research.gold.models import Expect, GoldCase, GoldSuite, ProvisionRef, RulingRef
from asat_research.gold.problem import Problem, Severity


@dataclass(frozen=True)
class CaseDate:
    """The date a case asks about: exactly one of ``income_year`` and ``as_of``."""

    income_year: int | None
    as_of: date | None

    @classmethod
    def of(cls, case: GoldCase) -> CaseDate:
        return cls(case.income_year, case.as_of)

    def __str__(self) -> str:
        return f"as of {self.as_of}" if self.as_of is not None else f"income year {self.income_year}"


@dataclass(frozen=True)
class AuthorityLookup:
    """What the corpus holds of one authority for one date.

    ``known``: the corpus has the provision or ruling at all. ``in_force``: a text is held and in
    force (or the ruling reachable) for the date; ``texts`` and ``register_ids`` are those texts
    and the compilations they come from. ``message`` says why not, when not. ``then_stood``: the
    texts are served only as they then stood (the law as it now stands for the date is not held,
    so a case may still expect an abstention).
    """

    known: bool
    in_force: bool
    texts: tuple[str, ...] = ()
    register_ids: tuple[str, ...] = ()
    message: str = ""
    then_stood: bool = False


class AuthorityResolver(Protocol):
    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup: ...


def _same_target(trap: ProvisionRef | RulingRef, gold: ProvisionRef | RulingRef) -> bool:
    if isinstance(trap, RulingRef) or isinstance(gold, RulingRef):
        return isinstance(trap, RulingRef) and isinstance(gold, RulingRef) and trap.ruling == gold.ruling
    return trap.act == gold.act and trap.provision == gold.provision


def _gold_problems(case: GoldCase, resolver: AuthorityResolver) -> tuple[list[Problem], list[AuthorityLookup]]:
    problems: list[Problem] = []
    resolved: list[AuthorityLookup] = []
    when = CaseDate.of(case)
    answerable = case.expect is not Expect.ABSTAIN
    for index, authority in enumerate(case.gold):
        field = f"gold[{index}]"
        found = resolver.lookup(authority, when)
        if not answerable:
            if found.in_force and not found.then_stood and isinstance(authority, ProvisionRef):
                problems.append(
                    Problem(
                        case.id,
                        field,
                        f"expect: abstain, but the corpus holds {authority.label()} in force {when}; "
                        "should this case expect an answer?",
                        Severity.WARNING,
                    )
                )
            continue
        if not found.known:
            problems.append(Problem(case.id, field, f"{authority.label()} is not in the corpus: {found.message}"))
            continue
        if not found.in_force:
            problems.append(Problem(case.id, field, f"{authority.label()} does not resolve {when}: {found.message}"))
            continue
        if (
            isinstance(authority, ProvisionRef)
            and authority.register_id
            and authority.register_id not in found.register_ids
        ):
            problems.append(
                Problem(
                    case.id,
                    f"{field}.register_id",
                    f"{authority.label()}: the text in force {when} comes from {', '.join(found.register_ids)}, "
                    f"not {authority.register_id}",
                )
            )
            continue
        resolved.append(found)
    return problems, resolved


def _trap_problems(case: GoldCase, resolver: AuthorityResolver, resolved: list[AuthorityLookup]) -> list[Problem]:
    problems: list[Problem] = []
    when = CaseDate.of(case)
    for index, trap in enumerate(case.must_not_cite):
        field = f"must_not_cite[{index}]"
        for gold in case.gold:
            if not _same_target(trap, gold):
                continue
            if isinstance(trap, ProvisionRef) and trap.register_id is not None:
                assert isinstance(gold, ProvisionRef)
                if gold.register_id == trap.register_id or (
                    gold.register_id is None and trap.register_id in resolver.lookup(gold, when).register_ids
                ):
                    problems.append(
                        Problem(case.id, field, f"{trap.label()} is the gold text {when}: it cannot also be a trap")
                    )
            else:
                problems.append(Problem(case.id, field, f"{trap.label()} is also a gold authority of this case"))
    texts = [normalise(text) for found in resolved for text in found.texts]
    for index, quote in enumerate(case.must_not_quote):
        if any(normalise(quote) in text for text in texts):
            problems.append(
                Problem(
                    case.id,
                    f"must_not_quote[{index}]",
                    f"{quote!r} occurs in the gold text {when}, so a right answer may quote it",
                    Severity.WARNING,
                )
            )
    return problems


def _quote_problems(case: GoldCase, resolved: list[AuthorityLookup]) -> list[Problem]:
    if not resolved:
        return []  # the unresolved gold is reported already
    texts = [normalise(text) for found in resolved for text in found.texts]
    return [
        Problem(
            case.id,
            f"must_quote_any[{index}]",
            f"{quote!r} does not occur in any gold text in force {CaseDate.of(case)} (compared after normalisation)",
        )
        for index, quote in enumerate(case.must_quote_any)
        if not any(normalise(quote) in text for text in texts)
    ]


def validate_case(case: GoldCase, resolver: AuthorityResolver) -> list[Problem]:
    """Problems of one (schema-valid) case against the corpus."""
    problems, resolved = _gold_problems(case, resolver)
    if case.expect is not Expect.ABSTAIN:
        problems.extend(_quote_problems(case, resolved))
    problems.extend(_trap_problems(case, resolver, resolved))
    return problems


def validate_suite(suite: GoldSuite | object, resolver: AuthorityResolver) -> list[Problem]:
    """Every problem of a suite: schema (when given the parsed YAML document), unique ids,
    exactly one of income_year/as_of, and every gold authority resolving for its case's date.

    For ``expect: answer|reject_premise`` each gold provision must have a text in force and each
    gold ruling must be reachable for the date, and every ``must_quote_any`` string must occur in
    a gold text. An empty list means the suite is sound; :class:`Severity.WARNING` problems are
    suspicious but scorable.
    """
    problems: list[Problem] = []
    if not isinstance(suite, GoldSuite):
        checked, problems = check_document(suite)
        if checked is None:
            return problems
        suite = checked
    for case in suite.cases:
        problems.extend(validate_case(case, resolver))
    return problems
