"""validate_suite against a fake resolver: gold resolution, quotes, traps and schema."""

from __future__ import annotations

from datetime import date

from asat_research.gold import (
    AuthorityLookup,
    CaseDate,
    GoldCase,
    GoldSuite,
    ProvisionRef,
    RulingRef,
    Severity,
    parse_suite,
    validate_suite,
)

OLD = "An entity is a small business entity if its aggregated turnover is less than $2 million."
NEW = "An entity is a small business entity if its aggregated turnover is less than $10 million."


class FakeResolver:
    """328-110: OLD in force in FY2015 (C2015), NEW from FY2024 (C2026), a gap in between."""

    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup:
        year = when.income_year if when.income_year is not None else (when.as_of or date.min).year
        if isinstance(authority, RulingRef):
            if authority.ruling != "TR 2020/1":
                return AuthorityLookup(False, False, message="no such ruling")
            ok = year >= 2020
            return AuthorityLookup(True, ok, ("Employees travelling on work: the cost is deductible.",) if ok else ())
        if (authority.act, authority.provision) != ("itaa1997", "328-110"):
            return AuthorityLookup(False, False, message="no such provision")
        if year <= 2016:
            return AuthorityLookup(True, True, (OLD,), ("C2015C00285",))
        if year >= 2024:
            return AuthorityLookup(True, True, (NEW,), ("C2026C00122",))
        return AuthorityLookup(True, False, message="text not held")


def _suite(*cases: dict[str, object]) -> GoldSuite:
    return parse_suite({"schema": "asat-gold/1", "cases": list(cases)})


def _case(case_id: str = "C1", **fields: object) -> dict[str, object]:
    case: dict[str, object] = {
        "id": case_id,
        "question": "What turnover makes a small business entity?",
        "income_year": 2015,
        "expect": "answer",
        "gold": [{"act": "itaa1997", "provision": "328-110"}],
    }
    case.update(fields)
    return case


def _strs(suite: GoldSuite | object) -> list[str]:
    return [str(p) for p in validate_suite(suite, FakeResolver())]


def test_sound_temporal_pair_has_no_problems() -> None:
    suite = _suite(
        _case(
            "OLD",
            must_quote_any=["less than $2 million"],
            must_not_cite=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2026C00122"}],
            must_not_quote=["$10 million"],
        ),
        _case(
            "NEW",
            income_year=2026,
            must_quote_any=["less than  $10\nmillion"],  # whitespace is normalised
            must_not_cite=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2015C00285"}],
        ),
        _case("RUL", as_of=date(2021, 1, 1), income_year=None, gold=[{"ruling": "TR 2020/1"}]),
        _case("GAP", income_year=2020, expect="abstain"),
        _case("OOS", expect="abstain", gold=[]),
    )
    assert _strs(suite) == []


def test_unresolved_gold_is_an_error_naming_case_and_field() -> None:
    suite = _suite(_case(income_year=2020), _case("C2", gold=[{"act": "itaa1997", "provision": "999-1"}]))
    assert _strs(suite) == [
        "error: C1: gold[0]: itaa1997 328-110 does not resolve income year 2020: text not held",
        "error: C2: gold[0]: itaa1997 999-1 is not in the corpus: no such provision",
    ]


def test_unreachable_or_unknown_ruling_is_an_error() -> None:
    suite = _suite(_case(gold=[{"ruling": "TR 2020/1"}]), _case("C2", gold=[{"ruling": "TR 1900/9"}]))
    problems = _strs(suite)
    assert len(problems) == 2
    assert problems[0].startswith("error: C1: gold[0]: TR 2020/1 does not resolve income year 2015")
    assert problems[1].startswith("error: C2: gold[0]: TR 1900/9 is not in the corpus")


def test_must_quote_any_must_occur_in_the_gold_text_for_the_date() -> None:
    suite = _suite(_case(must_quote_any=["less than $10 million", "less than $2 million"]))
    assert _strs(suite) == [
        "error: C1: must_quote_any[0]: 'less than $10 million' does not occur in any gold text in force "
        "income year 2015 (compared after normalisation)"
    ]


def test_pinned_register_id_must_be_the_text_in_force() -> None:
    suite = _suite(_case(gold=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2026C00122"}]))
    problems = _strs(suite)
    assert len(problems) == 1 and "gold[0].register_id" in problems[0] and "C2015C00285" in problems[0]


def test_trap_that_is_the_gold_text_is_an_error() -> None:
    suite = _suite(
        _case(must_not_cite=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2015C00285"}]),
        _case("C2", must_not_cite=[{"act": "itaa1997", "provision": "328-110"}]),
    )
    problems = _strs(suite)
    assert problems == [
        "error: C1: must_not_cite[0]: itaa1997 328-110 (C2015C00285) is the gold text income year 2015: "
        "it cannot also be a trap",
        "error: C2: must_not_cite[0]: itaa1997 328-110 is also a gold authority of this case",
    ]


def test_must_not_quote_found_in_gold_is_a_warning() -> None:
    problems = validate_suite(_suite(_case(must_not_quote=["$2 million"])), FakeResolver())
    assert [p.severity for p in problems] == [Severity.WARNING]
    assert problems[0].field == "must_not_quote[0]"


def test_abstain_case_whose_gold_is_held_is_a_warning() -> None:
    problems = validate_suite(_suite(_case(expect="abstain")), FakeResolver())
    assert [(p.severity, p.field) for p in problems] == [(Severity.WARNING, "gold[0]")]


class ThenStoodResolver(FakeResolver):
    """FY2018: OLD is served only as it then stood (the law as it now stands is not held)."""

    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup:
        if when.income_year == 2018 and isinstance(authority, ProvisionRef):
            return AuthorityLookup(True, True, (OLD,), ("C2015C00285",), "as it then stood", then_stood=True)
        return super().lookup(authority, when)


def test_abstain_case_whose_gold_is_held_only_as_it_then_stood_is_sound() -> None:
    # The law as it now stands is not held for the date: an abstention stays a sound expectation.
    assert validate_suite(_suite(_case(expect="abstain", income_year=2018)), ThenStoodResolver()) == []
    assert validate_suite(_suite(_case(income_year=2018)), ThenStoodResolver()) == []


def test_raw_document_is_schema_checked_first() -> None:
    document = {"schema": "asat-gold/1", "cases": [_case(), _case()]}
    assert _strs(document) == ["error: C1: id: duplicate id: cases[0] and cases[1] share it"]
    document = {"schema": "asat-gold/1", "cases": [_case(as_of=date(2015, 6, 30))]}
    assert _strs(document) == ["error: C1: give exactly one of income_year or as_of (this case gives both)"]


def test_raw_document_that_is_valid_is_checked_against_the_corpus() -> None:
    assert _strs({"schema": "asat-gold/1", "cases": [_case(income_year=2020)]}) == [
        "error: C1: gold[0]: itaa1997 328-110 does not resolve income year 2020: text not held"
    ]


def test_case_date_describes_itself() -> None:
    case = GoldCase.model_validate(_case(as_of=date(2015, 6, 30), income_year=None))
    assert str(CaseDate.of(case)) == "as of 2015-06-30"
