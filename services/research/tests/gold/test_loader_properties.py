"""Property tests: any well-formed suite survives a YAML round trip; breaking a case is always named."""

from __future__ import annotations

from datetime import date
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from asat_research.gold import check_document, parse_suite

_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(str.strip)
_provision = st.fixed_dictionaries(
    {
        "act": st.sampled_from(["itaa1997", "itaa1936", "gst1999", "taa1953"]),
        "provision": st.from_regex(r"[0-9]{1,3}(-[0-9]{1,3}|[A-Z]{0,2})", fullmatch=True),
    },
    optional={"register_id": st.sampled_from(["C2015C00285", "C2026C00122"])},
)
_ruling = st.fixed_dictionaries({"ruling": st.sampled_from(["TR 2020/1", "GSTR 2000/1", "PS LA 2011/27"])})
_authority = st.one_of(_provision, _ruling)


@st.composite
def _cases(draw: st.DrawFn) -> dict[str, Any]:
    case: dict[str, Any] = {
        "question": draw(_text),
        "expect": draw(st.sampled_from(["answer", "abstain", "reject_premise"])),
        "gold": draw(st.lists(_authority, min_size=1, max_size=3)),
    }
    if draw(st.booleans()):
        case["income_year"] = draw(st.integers(1990, 2030))
    else:
        case["as_of"] = draw(st.dates(date(1990, 1, 1), date(2030, 12, 31)))
    for key in ("must_quote_any", "must_not_quote", "tags"):
        if draw(st.booleans()):
            case[key] = draw(st.lists(_text, min_size=1, max_size=3))
    if draw(st.booleans()):
        case["must_not_cite"] = draw(st.lists(_authority, min_size=1, max_size=2))
    if draw(st.booleans()):
        case["notes"] = draw(_text)
    return case


_suites = st.lists(_cases(), min_size=1, max_size=5).map(
    lambda cases: {"schema": "asat-gold/1", "cases": [{"id": f"P-{i:04d}", **c} for i, c in enumerate(cases)]}
)


@given(_suites)
def test_round_trip_through_yaml(document: dict[str, Any]) -> None:
    suite = parse_suite(yaml.safe_load(yaml.safe_dump(document, allow_unicode=True)))
    assert len(suite.cases) == len(document["cases"])
    for case, raw in zip(suite.cases, document["cases"], strict=True):
        assert case.id == raw["id"] and case.question == raw["question"] and case.expect.value == raw["expect"]
        assert case.income_year == raw.get("income_year") and case.as_of == raw.get("as_of")
        assert [a.model_dump(exclude_none=True) for a in case.gold] == raw["gold"]
        assert list(case.must_quote_any) == raw.get("must_quote_any", [])


@given(_suites, st.data())
def test_dropping_a_required_field_is_named(document: dict[str, Any], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(document["cases"]) - 1))
    field = data.draw(st.sampled_from(["question", "expect"]))
    del document["cases"][index][field]
    suite, problems = check_document(document)
    assert suite is None
    assert [(p.case_id, p.field) for p in problems] == [(f"P-{index:04d}", field)]


@given(_suites, st.data())
def test_an_unknown_field_is_named(document: dict[str, Any], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(document["cases"]) - 1))
    document["cases"][index]["gold_authority"] = "x"
    suite, problems = check_document(document)
    assert suite is None
    assert [(p.case_id, p.field) for p in problems] == [(f"P-{index:04d}", "gold_authority")]
