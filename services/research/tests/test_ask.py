"""``python -m asat_research.ask`` against a stub research service (``tests/probe/research_stub.py``).

The stub serves recorded outcomes that are exactly what ``asat_research.outcome_wire.outcome_json`` produces
(checked here), an answered one from each kind of generator and an abstention, plus error
replies; a port nothing listens on stands for the service not running.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from asat_corpus.attribution import register_attribution
from asat_research.ask import DEFAULT_URL, OutcomeOut, main, parser
from asat_research.outcome_wire import outcome_json
from asat_research.pipeline import AnswerClaim, Citation, ReadingItem, ResearchOutcome
from asat_research.temporal import ParameterPeriod, PeriodConflict, QuestionPeriod, ScopeSource, TemporalScope

from .probe.research_stub import ResearchStub, as_sent, recorded
from .probe.silent_server import SilentServer, refused_url

QUESTION = "What aggregated turnover made a business a small business entity?"
RECORDED = ("answered", "answered_model", "abstained", "period_conflict")

# The recorded replies were taken on the corpus snapshot whose newest compilation is 1 April 2026.
ATTRIBUTION = register_attribution(date(2026, 4, 1))


@pytest.fixture(scope="module")
def research_server() -> Iterator[ResearchStub]:
    server = ResearchStub().start()
    yield server
    server.stop()


@pytest.fixture
def research(research_server: ResearchStub) -> ResearchStub:
    research_server.reset()
    return research_server


def _ask(capsys: pytest.CaptureFixture[str], *argv: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    code = main(list(argv), env or {})
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _dated(period: dict[str, Any]) -> dict[str, Any]:
    return period | {"start": date.fromisoformat(period["start"]), "end": date.fromisoformat(period["end"])}


def _rebuild(body: dict[str, Any]) -> ResearchOutcome:
    """The pipeline's own outcome, from its JSON (the inverse of ``outcome_json``)."""

    def citation(raw: dict[str, Any]) -> Citation:
        return Citation(**raw | {"register_ids": tuple(raw["register_ids"])})

    scope = body["scope"]
    fields = {f.name for f in dataclasses.fields(ResearchOutcome)}
    plain = {name: body[name] for name in fields - {"scope", "claims", "reading_list", "reasons", "period_conflict"}}
    conflict = body["period_conflict"]
    return ResearchOutcome(
        **plain,
        period_conflict=None
        if conflict is None
        else PeriodConflict(
            QuestionPeriod(**_dated(conflict["question"])),
            ParameterPeriod(**_dated(conflict["parameter"])),
            conflict["reason"],
        ),
        reasons=tuple(body["reasons"]),
        scope=TemporalScope(
            scope["income_year"],
            date.fromisoformat(scope["as_of"]) if scope["as_of"] else None,
            ScopeSource(scope["source"]),
            scope["matched"],
            date.fromisoformat(scope["as_known_on"]) if scope["as_known_on"] else None,
        ),
        claims=tuple(
            AnswerClaim(c["id"], c["text"], tuple(citation(q) for q in c["citations"]), c["groundedness"])
            for c in body["claims"]
        ),
        reading_list=tuple(
            ReadingItem(
                **r | {"register_ids": tuple(r["register_ids"]), "quotes": tuple(citation(q) for q in r["quotes"])}
            )
            for r in body["reading_list"]
        ),
    )


@pytest.mark.parametrize("name", RECORDED)
def test_each_recorded_reply_is_exactly_what_the_api_sends(name: str) -> None:
    body = recorded(name)
    assert set(body) == {f.name for f in dataclasses.fields(ResearchOutcome)} | {"answered"}
    assert json.loads(as_sent(outcome_json(_rebuild(body)))) == body
    assert body["attribution"] == ATTRIBUTION


def test_an_answer_prints_each_verified_quote_with_its_provision_version(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.answer_with("answered")
    code, out, err = _ask(capsys, QUESTION, "--income-year", "2015", "--url", research.url)
    assert (code, err) == (0, "")
    assert research.requests == [{"question": QUESTION, "income_year": 2015, "as_of": None}]
    assert research.paths == ["/v1/research"]
    lines = out.splitlines()
    assert lines[0] == "Answer: income year 2015 (1 July 2014 to 30 June 2015)"
    assert lines[2] == "1. The law's words (verified quote):"
    assert lines[3] == "   > (1) You are a small business entity for an income year (the current year) if:"
    assert lines[7] == ("   > (ii) your aggregated turnover for the current year is likely to be less than $2 million.")
    assert lines[8] == (
        "   ITAA 1997 s 328-110 Meaning of small business entity [act itaa1997, s 328-110, register id "
        "C2015C00285, in force 2014-07-01 to 2016-06-30]"
    )
    assert lines[10:12] == [
        "Reading list:",
        "- ITAA 1997 s 328-110 Meaning of small business entity (register id C2015C00285, in force 2014-07-01 "
        "to 2016-06-30)",
    ]
    assert lines[13].startswith("Note: Extractive mode: these are the law's own words")
    assert lines[-2] == (
        "Audit id 42 (request 7f9c2b1e4a5d4c0e9b8a6f3d2c1b0a99); generator extractive, model none (extractive), "
        "seed none; corpus 5d41402abc4b"
    )
    assert lines[-1] == ATTRIBUTION
    assert "Why:" not in lines


def test_a_model_answer_prints_each_claim_then_the_quote_that_verifies_it(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.answer_with("answered_model")
    code, out, _ = _ask(capsys, QUESTION, "--as-of", "2015-03-01", "--url", research.url)
    assert code == 0
    assert research.requests == [{"question": QUESTION, "income_year": None, "as_of": "2015-03-01"}]
    lines = out.splitlines()
    assert lines[0] == "Answer: as at 2015-03-01, income year 2015 (1 July 2014 to 30 June 2015)"
    claims = lines[2:11]
    assert claims == [
        "1. A business was a small business entity for 2014-15 if its aggregated turnover for the previous year "
        "was less than $2 million.",
        "   > your aggregated turnover for the previous year was less than $2 million",
        "   ITAA 1997 s 328-110 Meaning of small business entity [act itaa1997, s 328-110, register id "
        "C2015C00285, in force 2014-07-01 to 2016-06-30]",
        "",
        "2. It also had to carry on a business in that year.",
        "   > you carry on a business in the current year",
        "   ITAA 1997 s 328-110 Meaning of small business entity [act itaa1997, s 328-110, register id "
        "C2015C00285, in force 2014-07-01 to 2016-06-30]",
        "",
        "1 further claim was dropped: the quote did not verify.",
    ]
    assert "generator openai_compatible:127.0.0.1:8000, model gpt-4o-2024-08-06" in lines[-2]
    assert "seed 7;" in lines[-2]


def test_an_abstention_prints_the_reasons_and_the_reading_list_and_exits_3(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.answer_with("abstained")
    code, out, err = _ask(capsys, f"{QUESTION} In 2019-20?", "--url", research.url)
    assert (code, err) == (3, "")
    lines = out.splitlines()
    assert lines[0] == (
        "No answer (abstain_text_not_held): income year 2020 (1 July 2019 to 30 June 2020), from the question "
        "('2019-20')"
    )
    assert lines[2:4] == [
        "Why:",
        "- ITAA 1997 s 328-110: no compilation of the Act in force in income year 2020 (1 July 2019 to 30 June "
        "2020) is held; the text in force then is not held",
    ]
    assert lines[5:8] == [
        "Reading list:",
        "- ITAA 1997 s 328-110 Meaning of small business entity (register id C2015C00285, in force 2014-07-01 "
        "to 2016-06-30)",
        "- ITAA 1997 s 328-110 Meaning of small business entity (register id C2026C00122, in force from "
        "2025-07-01, still in force)",
    ]
    assert not any(line.startswith(("1. ", "   > ")) for line in lines)
    assert lines[-2].startswith("Audit id 43 ")
    assert lines[-1] == ATTRIBUTION


@pytest.mark.parametrize(("name", "exit_code"), [("answered", 0), ("answered_model", 0), ("abstained", 3)])
def test_json_prints_the_reply_unchanged(
    research: ResearchStub, capsys: pytest.CaptureFixture[str], name: str, exit_code: int
) -> None:
    research.answer_with(name)
    code, out, err = _ask(capsys, QUESTION, "--json", "--url", research.url)
    assert (code, err) == (exit_code, "")
    assert out == research.body + "\n"
    printed = json.loads(out)
    assert printed == recorded(name)
    assert set(printed) == {f.name for f in dataclasses.fields(ResearchOutcome)} | {"answered"}
    assert OutcomeOut.model_validate(printed).audit_id == recorded(name)["audit_id"]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_service_that_is_not_running_exits_2_saying_how_to_start_it(
    capsys: pytest.CaptureFixture[str], json_flag: list[str]
) -> None:
    url = refused_url()
    code, out, err = _ask(capsys, QUESTION, *json_flag, "--url", url)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: could not reach the research service at {url} (")
    assert "start it with `make up`" in err
    assert "ASAT_RESEARCH_URL" in err


@pytest.mark.parametrize("url", ["ftp://127.0.0.1:8730", "http://"])
def test_a_url_that_is_not_an_http_service_exits_2(capsys: pytest.CaptureFixture[str], url: str) -> None:
    code, out, err = _ask(capsys, QUESTION, "--url", url)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: could not reach the research service at {url} (")


def test_a_service_that_does_not_answer_in_time_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    silent = SilentServer().start()
    try:
        code, out, err = _ask(capsys, QUESTION, "--url", silent.url, "--timeout", "0.3")
    finally:
        silent.stop()
    assert (code, out) == (2, "")
    assert f"the research service at {silent.url} did not answer within 0.3 s" in err


def test_the_url_comes_from_the_environment_then_the_default(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.answer_with("answered")
    code, _, _ = _ask(capsys, QUESTION, env={"ASAT_RESEARCH_URL": research.url})
    assert code == 0
    assert len(research.requests) == 1
    assert parser({}).parse_args([QUESTION]).url == DEFAULT_URL == "http://127.0.0.1:8730"
    assert parser({"ASAT_RESEARCH_URL": "http://research:8730"}).parse_args([QUESTION]).url == "http://research:8730"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["   "], "error: the question is empty: type the question, in quotes"),
        ([QUESTION, "--as-of", "2015-13-01"], "error: --as-of: Input should be a valid date"),
        ([QUESTION, "--as-known-on", "2015-10-32"], "error: --as-known-on: Input should be a valid date"),
        ([QUESTION, "--as-known-on", "October 2015"], "error: --as-known-on: Input should be a valid date"),
        ([QUESTION, "--income-year", "1800"], "error: --income-year: Input should be greater than or equal to 1900"),
        (["x" * 2001], "error: the question: String should have at most 2000 characters"),
    ],
)
def test_a_bad_question_or_date_exits_2_before_asking(
    research: ResearchStub, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = _ask(capsys, *argv, "--url", research.url)
    assert (code, out) == (2, "")
    assert err.startswith(says)
    assert research.requests == []


@pytest.mark.parametrize(
    "argv",
    [
        [QUESTION, "--income-year", "2015", "--as-of", "2015-03-01"],
        [QUESTION, "--as-known-on", "2015-10-31", "--as-of", "2015-03-01"],
        [QUESTION, "--as-known-on", "2015-10-31", "--income-year", "2016"],
        [QUESTION, "--as-known-on"],
        [],
        [QUESTION, "--income-year", "x"],
        [QUESTION, "--timeout", "0"],
    ],
)
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv, {})
    assert exited.value.code == 2
    assert "usage: python -m asat_research.ask" in capsys.readouterr().err


def test_a_dependency_that_is_down_exits_2_naming_it(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    down = {
        "error": "dependency_unavailable",
        "message": "verifier unavailable: connection refused",
        "dependency": "verifier",
    }
    research.reply_with(503, down)
    code, out, err = _ask(capsys, QUESTION, "--url", research.url)
    assert (code, out) == (2, "")
    assert err == (
        f"error: the research service at {research.url} cannot answer now: verifier is unavailable (verifier "
        "unavailable: connection refused); check it with `make status` (or restart with `make down && make up`)\n"
    )
    code, out, _ = _ask(capsys, QUESTION, "--json", "--url", research.url)
    assert code == 2
    assert json.loads(out) == down


def test_a_question_while_the_index_is_built_exits_2_with_how_far_it_got(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    message = "index building, 42% done (embedding texts: 12,345 of 29,000; 8.1 texts/s; about 31 min left): ..."
    research.reply_with(503, {"error": "index_building", "message": message, "dependency": "index"})
    code, out, err = _ask(capsys, QUESTION, "--url", research.url)
    assert (code, out) == (2, "")
    assert err == (
        f"error: the research service at {research.url} cannot answer yet: {message}; `make status` shows the "
        "index's build\n"
    )


def test_a_refused_question_exits_2_with_the_services_message(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.reply_with(422, {"error": "invalid_request", "message": "as_of 1890-01-01 is before any text held"})
    code, _, err = _ask(capsys, QUESTION, "--url", research.url)
    assert code == 2
    assert err == (
        "error: the research service refused the question (HTTP 422): as_of 1890-01-01 is before any text held\n"
    )


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"status": "ok", "checks": {}}, "answered 200 but not with a research outcome (request_id: Field required)"),
        (recorded("abstained") | {"answered": True}, "sent answered=True with decision 'abstain_text_not_held'"),
        (
            recorded("abstained") | {"claims": recorded("answered")["claims"]},
            "abstained (abstain_text_not_held) but sent claims",
        ),
    ],
)
def test_a_reply_that_is_not_a_coherent_outcome_exits_2(
    research: ResearchStub, capsys: pytest.CaptureFixture[str], body: dict[str, Any], says: str
) -> None:
    research.reply_with(200, body)
    code, out, err = _ask(capsys, QUESTION, "--url", research.url)
    assert (code, out) == (2, "")
    assert says in err


@pytest.mark.parametrize(("name", "exit_code", "first"), [("answered", 0, "Answer: "), ("abstained", 3, "No answer ")])
def test_the_module_runs_as_a_command(research: ResearchStub, name: str, exit_code: int, first: str) -> None:
    research.answer_with(name)
    ran = subprocess.run(
        [sys.executable, "-m", "asat_research.ask", QUESTION, "--url", research.url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == exit_code, ran.stderr
    assert ran.stdout.startswith(first)


def test_a_rejected_premise_and_an_unauthorised_or_ruling_source_are_said_so(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    body = recorded("answered_model")
    ruling = body["claims"][1]["citations"][0] | {
        "kind": "ruling",
        "title": "TR 2019/1 Income tax: when does a company carry on a business?",
        "act": None,
        "provision": None,
        "register_ids": [],
        "valid_from": "2019-03-20",
        "valid_to": None,
        "status": "withdrawn",
    }
    body["claims"][0]["citations"][0]["authorised"] = False
    body["claims"][1]["citations"] = [ruling]
    research.reply_with(200, body | {"premise_rejected": True, "dropped_claims": 2})
    code, out, _ = _ask(capsys, QUESTION, "--url", research.url)
    assert code == 0
    lines = out.splitlines()
    assert lines[2] == "The question's premise does not match the law in force; the claims below say what it is."
    assert lines[6] == (
        "   ITAA 1997 s 328-110 Meaning of small business entity [act itaa1997, s 328-110, register id C2015C00285, "
        "in force 2014-07-01 to 2016-06-30, third-party conversion, not an authorised version]"
    )
    assert lines[10] == (
        "   TR 2019/1 Income tax: when does a company carry on a business? [ruling, no register id, in force from "
        "2019-03-20, still in force, withdrawn]"
    )
    assert "2 further claims were dropped: the quote did not verify." in lines


def test_as_known_on_is_sent_and_the_heading_says_the_law_as_it_then_stood(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    body = recorded("answered")
    body["decision"] = "answered_as_then_stood"
    body["reasons"] = ["ITAA 1997 s 328-110 as it then stood on 2015-10-31; later amended by Act No. 1, 2016"]
    body["scope"] = {
        "income_year": 2016,
        "as_of": None,
        "as_known_on": "2015-10-31",
        "source": "parameter",
        "matched": "as_known_on=2015-10-31",
    }
    research.reply_with(200, body)
    code, out, err = _ask(capsys, QUESTION, "--as-known-on", "2015-10-31", "--url", research.url)
    assert (code, err) == (0, "")
    assert research.requests == [
        {"question": QUESTION, "income_year": None, "as_of": None, "as_known_on": "2015-10-31"}
    ]
    lines = out.splitlines()
    assert lines[0] == (
        "Answer: as known on 2015-10-31 (the law as it then stood), income year 2016 (1 July 2015 to 30 June 2016)"
    )
    assert "Read with this caveat:" in lines
    code, out, _ = _ask(capsys, QUESTION, "--as-known-on", "2015-10-31", "--json", "--url", research.url)
    assert code == 0
    assert json.loads(out)["scope"]["as_known_on"] == "2015-10-31"


def test_without_as_known_on_the_request_and_heading_are_as_before(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    body = recorded("answered")
    del body["scope"]["as_known_on"]  # a service that predates it
    research.reply_with(200, body)
    code, out, _ = _ask(capsys, QUESTION, "--income-year", "2015", "--url", research.url)
    assert code == 0
    assert research.requests == [{"question": QUESTION, "income_year": 2015, "as_of": None}]
    assert out.splitlines()[0] == "Answer: income year 2015 (1 July 2014 to 30 June 2015)"
    assert "as known on" not in out


def test_a_period_conflict_prints_both_periods_and_how_to_ask_for_each_and_exits_3(
    research: ResearchStub, capsys: pytest.CaptureFixture[str]
) -> None:
    research.answer_with("period_conflict")
    question = "What aggregated turnover made a business a small business entity in FY2016?"
    code, out, err = _ask(capsys, question, "--income-year", "2026", "--url", research.url)
    assert (code, err) == (3, "")
    assert research.requests == [{"question": question, "income_year": 2026, "as_of": None}]
    lines = out.splitlines()
    assert lines[0] == "No answer (period_conflict): income year 2026 (1 July 2025 to 30 June 2026)"
    assert lines[2:4] == [
        "Why:",
        "- the question names income year 2016 ('FY2016': 1 July 2015 to 30 June 2016) but income_year=2026 was "
        "given (income year 2026: 1 July 2025 to 30 June 2026): ask again with one of them (set income_year=2016, "
        "or reword the question for income year 2026)",
    ]
    assert lines[5:8] == [
        "The question and the period given disagree; nothing was looked up. Ask again with one of them:",
        "- income year 2016 (1 July 2015 to 30 June 2016), as the question says ('FY2016'): --income-year 2016",
        "- income year 2026 (1 July 2025 to 30 June 2026), as income_year=2026 says: reword the question without "
        "'FY2016' and give --income-year 2026",
    ]
    assert "Reading list:" not in lines and lines[-1] == ATTRIBUTION
