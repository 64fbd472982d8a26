"""The asat-gold/1 loader: valid files load, invalid ones are refused naming case id and field."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from asat_research.gold import (
    Expect,
    GoldSuiteError,
    ProvisionRef,
    RulingRef,
    check_document,
    load_suite,
    parse_suite,
)

VALID = """
schema: asat-gold/1
cases:
  - id: AUTAX-0001
    question: What aggregated turnover made a business a small business entity in 2014-15?
    income_year: 2015
    expect: answer
    gold:
      - {act: itaa1997, provision: "328-110"}
    must_quote_any: ["less than $2 million"]
    must_not_cite:
      - {act: itaa1997, provision: "328-110", register_id: C2026C00122}
    must_not_quote: ["$10 million"]
    tags: [temporal, small-business]
    notes: checked against C2015C00285
  - id: AUTAX-0002
    question: Is TR 2020/1 about employee travel?
    as_of: 2021-06-30
    expect: reject_premise
    gold: [{ruling: "TR 2020/1"}]
  - id: AUTAX-0003
    question: What is the NSW payroll tax threshold?
    income_year: 2024
    expect: abstain
"""


def _load(text: str) -> object:
    return yaml.safe_load(text)


def _problems(text: str) -> list[str]:
    suite, problems = check_document(_load(text))
    assert suite is None
    return [str(p) for p in problems]


def _with_case(**fields: object) -> dict[str, object]:
    case: dict[str, object] = {"id": "C1", "question": "q?", "income_year": 2015, "expect": "abstain"}
    case.update(fields)
    return {"schema": "asat-gold/1", "cases": [case]}


def test_valid_suite_loads_with_typed_fields() -> None:
    suite = parse_suite(_load(VALID))
    first, second, third = suite.cases
    assert first.gold == (ProvisionRef(act="itaa1997", provision="328-110"),)
    assert first.must_not_cite[0] == ProvisionRef(act="itaa1997", provision="328-110", register_id="C2026C00122")
    assert first.income_year == 2015 and first.as_of is None
    assert second.gold == (RulingRef(ruling="TR 2020/1"),)
    assert second.as_of == date(2021, 6, 30) and second.expect is Expect.REJECT_PREMISE
    assert third.gold == () and third.expect is Expect.ABSTAIN


def test_load_suite_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text(VALID, encoding="utf-8")
    assert [c.id for c in load_suite(path).cases] == ["AUTAX-0001", "AUTAX-0002", "AUTAX-0003"]


def test_unquoted_numeric_provision_is_read_as_its_number() -> None:
    suite = parse_suite(_with_case(expect="answer", gold=[{"act": "sis1993", "provision": 62}]))
    assert suite.cases[0].gold == (ProvisionRef(act="sis1993", provision="62"),)


def test_unknown_field_names_case_and_field() -> None:
    problems = _problems(VALID.replace("    notes: checked", "    note: checked"))
    assert len(problems) == 1
    assert "AUTAX-0001: note: unknown field" in problems[0]


def test_bad_authority_field_names_its_index() -> None:
    problems = _problems(
        VALID.replace('{act: itaa1997, provision: "328-110"}\n    must_quote', "{act: itaa1997}\n    must_quote")
    )
    assert problems == ["error: AUTAX-0001: gold[0].provision: required field is missing"]


def test_bad_expect_value_is_named() -> None:
    problems = _problems(VALID.replace("expect: abstain", "expect: refuse"))
    assert len(problems) == 1 and "AUTAX-0003: expect:" in problems[0] and "'refuse'" in problems[0]


def test_duplicate_id_is_refused() -> None:
    problems = _problems(VALID.replace("id: AUTAX-0003", "id: AUTAX-0001"))
    assert problems == ["error: AUTAX-0001: id: duplicate id: cases[0] and cases[2] share it"]


@pytest.mark.parametrize(
    ("fields", "given"),
    [({"as_of": date(2015, 6, 30)}, "both"), ({"income_year": None}, "neither")],
)
def test_exactly_one_of_income_year_and_as_of(fields: dict[str, object], given: str) -> None:
    doc = _with_case(**fields)
    if fields.get("income_year", 0) is None:
        del doc["cases"][0]["income_year"]  # type: ignore[index]
    problems = [str(p) for p in check_document(doc)[1]]
    assert problems == [f"error: C1: give exactly one of income_year or as_of (this case gives {given})"]


def test_answer_needs_gold() -> None:
    problems = [str(p) for p in check_document(_with_case(expect="answer"))[1]]
    assert problems == ["error: C1: expect: answer needs at least one gold authority (gold is empty)"]


def test_income_year_must_be_an_integer() -> None:
    problems = [str(p) for p in check_document(_with_case(income_year="2015"))[1]]
    assert len(problems) == 1 and problems[0].startswith("error: C1: income_year:")


def test_case_without_id_is_named_by_position() -> None:
    doc = _with_case()
    del doc["cases"][0]["id"]  # type: ignore[index]
    assert [str(p) for p in check_document(doc)[1]] == ["error: cases[0]: id: required field is missing"]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ([1, 2], "the file must be a mapping"),
        ({"schema": "asat-gold/2", "cases": [{}]}, "schema: must be 'asat-gold/1'"),
        ({"schema": "asat-gold/1", "cases": []}, "cases: must be a non-empty list"),
        ({"schema": "asat-gold/1", "cases": [], "extra": 1}, "extra: unknown top-level field"),
    ],
)
def test_document_level_problems(document: object, expected: str) -> None:
    suite, problems = check_document(document)
    assert suite is None
    assert any(expected in str(p) for p in problems), problems


def test_error_message_lists_problems_and_source() -> None:
    with pytest.raises(GoldSuiteError) as raised:
        parse_suite(_load(VALID.replace("expect: abstain", "expect: nope")), "my-suite.yaml")
    assert raised.value.problems and "my-suite.yaml: 1 problem(s)" in str(raised.value)
    assert "AUTAX-0003: expect:" in str(raised.value)


def test_repeated_yaml_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text(
        VALID.replace("    expect: abstain\n", "    expect: abstain\n    expect: answer\n"), encoding="utf-8"
    )
    with pytest.raises(GoldSuiteError, match="'expect' is given twice"):
        load_suite(path)


def test_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(GoldSuiteError, match="cannot read the file"):
        load_suite(tmp_path / "absent.yaml")


def test_invalid_yaml_says_so(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text("schema: [unclosed\n", encoding="utf-8")
    with pytest.raises(GoldSuiteError, match="not valid YAML"):
        load_suite(path)
