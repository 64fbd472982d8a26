"""``python -m asat_research.ask "question" [--income-year N | --as-of DATE | --as-known-on DATE] [--json]``.

Asks the running research service (``POST /v1/research`` at ``--url``, else ``ASAT_RESEARCH_URL``,
else http://127.0.0.1:8730) and prints the decision; each claim with its verified quote and the
provision version it comes from (act, section, register id, validity); the reasons when it
abstains; the reading list; the audit id and the attribution. ``--json`` prints the service's
reply unchanged. ``--as-known-on DATE`` asks for the law as it then stood: the text as the
latest held compilation on or before that day shows it (sent as ``as_known_on`` only when given).

Exit codes: 0 answered; 3 abstained; 2 a usage error, the service not reachable, or the service
refused the request (422: the question or date; 503: a dependency is down, or the index is being
built; 401: no service token), with a message naming the service and what to do. The service requires the service token:
it is sent from ``ASAT_SERVICE_TOKEN`` (``make up`` writes it to var/secrets/service-token).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import date, timedelta

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from asat_corpus.contracts.decisions import ANSWERED_AS_THEN_STOOD, is_answered
from asat_corpus.contracts.research import ResearchRequest
from asat_corpus.service_token import SERVICE_TOKEN_ENV, ServiceTokenError, bearer_headers, optional_service_token
from asat_research.cli_arguments import positive_seconds

URL_ENV = "ASAT_RESEARCH_URL"
DEFAULT_URL = "http://127.0.0.1:8730"
DEFAULT_TIMEOUT_S = 300.0  # a hosted model's two passes plus verification can take a while
EXIT_ANSWERED = 0
EXIT_ERROR = 2
EXIT_ABSTAINED = 3
START_HINT = "start it with `make up` (`make status` shows what is running)"


class AskError(Exception):
    """The question could not be asked or answered; the message says why and what to do."""


class _Read(BaseModel):
    # The fields shown; anything else the service adds is ignored (and --json prints it all).
    model_config = ConfigDict(extra="ignore", frozen=True)


class CitationOut(_Read):
    source_id: str
    kind: str
    title: str
    act: str | None
    provision: str | None
    register_ids: list[str]
    authorised: bool
    valid_from: str | None
    valid_to: str | None
    quote: str
    status: str | None = None
    then_stood: str | None = None


class ClaimOut(_Read):
    text: str
    citations: list[CitationOut]


class ReadingOut(_Read):
    source_id: str
    title: str
    register_ids: list[str]
    valid_from: str | None
    valid_to: str | None


class ScopeOut(_Read):
    income_year: int
    as_of: str | None
    source: str
    matched: str
    as_known_on: str | None = None  # absent from a service that predates it


class QuestionPeriodOut(_Read):
    income_year: int
    matched: str


class ParameterPeriodOut(_Read):
    income_year: int
    name: str


class PeriodConflictOut(_Read):
    question: QuestionPeriodOut
    parameter: ParameterPeriodOut


class OutcomeOut(_Read):
    request_id: str
    audit_id: int
    decision: str
    answered: bool
    reasons: list[str]
    scope: ScopeOut
    claims: list[ClaimOut]
    reading_list: list[ReadingOut]
    premise_rejected: bool
    note: str
    provider: str
    model: str
    seed: int | None
    corpus_generation: str
    dropped_claims: int
    attribution: str
    period_conflict: PeriodConflictOut | None = None  # absent from a service that predates it


def research_request(
    question: str, income_year: int | None, as_of: str | None, as_known_on: str | None = None
) -> ResearchRequest:
    """The request body, validated by the service's own request model.

    ``as_known_on`` is in the body only when given, so a service that predates it is still asked
    the same way (``post`` sends the fields set here).
    """
    if not question.strip():
        raise AskError("the question is empty: type the question, in quotes")
    body: dict[str, object] = {"question": question, "income_year": income_year, "as_of": as_of}
    if as_known_on is not None:
        body["as_known_on"] = as_known_on
    try:
        return ResearchRequest.model_validate(body)
    except ValidationError as exc:
        flags = {
            "question": "the question",
            "income_year": "--income-year",
            "as_of": "--as-of",
            "as_known_on": "--as-known-on",
        }
        problems = [f"{flags.get(str(e['loc'][0]), e['loc'][0])}: {e['msg']}" for e in exc.errors()]
        raise AskError("; ".join(problems)) from None


def post(url: str, request: ResearchRequest, timeout: float, service_token: str | None = None) -> httpx.Response:
    endpoint = f"{url.rstrip('/')}/v1/research"
    body = request.model_dump(mode="json", exclude_unset=True)
    try:
        return httpx.post(endpoint, json=body, headers=bearer_headers(service_token), timeout=timeout)
    except httpx.TimeoutException:
        raise AskError(
            f"the research service at {url} did not answer within {timeout:g} s; check it with `make status`, "
            "or allow longer with --timeout"
        ) from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise AskError(
            f"could not reach the research service at {url} ({exc or type(exc).__name__}); {START_HINT}, or "
            f"point --url or {URL_ENV} at a running service"
        ) from None


# The 503s of a question while the index is being built or after its build failed (asat_research.index_gate).
INDEX_REFUSALS = ("index_building", "index_build_failed")


def refusal(url: str, response: httpx.Response) -> str:
    """What an error reply says, in a sentence naming the service."""
    try:
        body = response.json()
    except ValueError:
        body = None
    message = body.get("message") if isinstance(body, dict) else None
    if response.status_code == 422:
        return f"the research service refused the question (HTTP 422): {message or response.text[:200]}"
    if response.status_code == 401:
        return (
            f"the research service at {url} refused the request (HTTP 401): {message or response.text[:200]}; "
            f"set {SERVICE_TOKEN_ENV}, e.g. export {SERVICE_TOKEN_ENV}=$(cat var/secrets/service-token)"
        )
    if response.status_code == 503 and isinstance(body, dict) and body.get("error") in INDEX_REFUSALS:
        return f"the research service at {url} cannot answer yet: {message}; `make status` shows the index's build"
    if response.status_code == 503 and isinstance(body, dict):
        dependency = body.get("dependency", "a dependency")
        return (
            f"the research service at {url} cannot answer now: {dependency} is unavailable ({message}); "
            "check it with `make status` (or restart with `make down && make up`)"
        )
    return (
        f"the research service at {url} answered HTTP {response.status_code} to POST /v1/research: "
        f"{message or response.text[:200]}; is --url / {URL_ENV} pointing at the research service?"
    )


def read_outcome(url: str, response: httpx.Response) -> OutcomeOut:
    try:
        outcome = OutcomeOut.model_validate_json(response.content)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise AskError(
            f"the service at {url} answered 200 but not with a research outcome ({where}: {first['msg']}); "
            f"is --url / {URL_ENV} pointing at the research service?"
        ) from None
    if outcome.answered != is_answered(outcome.decision):
        raise AskError(
            f"the service at {url} sent answered={outcome.answered} with decision {outcome.decision!r}; they must "
            "agree, so the reply is not shown"
        )
    if not outcome.answered and outcome.claims:
        raise AskError(f"the service at {url} abstained ({outcome.decision}) but sent claims; they are not shown")
    return outcome


def render(outcome: OutcomeOut) -> str:
    lines = [_heading(outcome), ""]
    if outcome.premise_rejected:
        lines += ["The question's premise does not match the law in force; the claims below say what it is.", ""]
    for number, claim in enumerate(outcome.claims, start=1):
        if [citation.quote for citation in claim.citations] == [claim.text]:
            lines.append(f"{number}. The law's words (verified quote):")  # the extractive generator quotes
        else:
            lines.append(f"{number}. {claim.text}")
        for citation in claim.citations:
            lines += _quote(citation.quote)
            lines.append(f"   {citation.title} [{_version(citation)}]")
        lines.append("")
    if outcome.dropped_claims:
        plural = "s were" if outcome.dropped_claims != 1 else " was"
        lines += [f"{outcome.dropped_claims} further claim{plural} dropped: the quote did not verify.", ""]
    if outcome.answered and outcome.reasons:
        lines.append("Read with this caveat:" if outcome.decision == ANSWERED_AS_THEN_STOOD else "Caveats:")
        lines += [f"- {reason}" for reason in outcome.reasons]
        lines.append("")
    if not outcome.answered:
        lines.append("Why:")
        lines += [f"- {reason}" for reason in outcome.reasons] or ["- (no reason given)"]
        lines.append("")
    if outcome.period_conflict is not None:
        lines += [*_conflict_choices(outcome.period_conflict), ""]
    if outcome.reading_list:
        lines.append("Reading list:")
        lines += [
            f"- {item.title} ({_register(item.register_ids)}, {_interval(item)})" for item in outcome.reading_list
        ]
        lines.append("")
    if outcome.note:
        lines += [f"Note: {outcome.note}", ""]
    seed = "none" if outcome.seed is None else str(outcome.seed)
    lines.append(
        f"Audit id {outcome.audit_id} (request {outcome.request_id}); generator {outcome.provider}, "
        f"model {outcome.model}, seed {seed}; corpus {outcome.corpus_generation[:12]}"
    )
    lines.append(outcome.attribution)
    return "\n".join(lines)


def _heading(outcome: OutcomeOut) -> str:
    scope = outcome.scope
    year = scope.income_year
    period = f"income year {year} ({_span(year)})"
    if scope.as_of:
        period = f"as at {scope.as_of}, {period}"
    if scope.as_known_on:
        period = f"as known on {scope.as_known_on} (the law as it then stood), {period}"
    if scope.source == "question":
        period += f", from the question ({scope.matched!r})"
    elif scope.source != "parameter":
        period += ", the current income year (none was given)"
    if outcome.answered:
        return f"Answer: {period}"
    return f"No answer ({outcome.decision}): {period}"


def _conflict_choices(conflict: PeriodConflictOut) -> list[str]:
    """The two ways of asking again, one for each period."""
    asked, given = conflict.question, conflict.parameter
    return [
        "The question and the period given disagree; nothing was looked up. Ask again with one of them:",
        f"- income year {asked.income_year} ({_span(asked.income_year)}), as the question says "
        f"({asked.matched!r}): --income-year {asked.income_year}",
        f"- income year {given.income_year} ({_span(given.income_year)}), as {given.name} says: reword the "
        f"question without {asked.matched!r} and give --income-year {given.income_year}",
    ]


def _span(year: int) -> str:
    return f"1 July {year - 1} to 30 June {year}"


def _quote(text: str) -> list[str]:
    body = text.splitlines() or [""]
    return ["   > " + line for line in body]


def _version(citation: CitationOut) -> str:
    parts = [f"act {citation.act}, s {citation.provision}" if citation.act and citation.provision else citation.kind]
    parts.append(_register(citation.register_ids))
    parts.append(_interval(citation))
    if not citation.authorised:
        parts.append("third-party conversion, not an authorised version")
    if citation.status:
        parts.append(citation.status)
    return ", ".join(parts)


def _register(register_ids: Sequence[str]) -> str:
    if not register_ids:
        return "no register id"
    return f"register id{'s' if len(register_ids) > 1 else ''} {', '.join(register_ids)}"


def _interval(item: CitationOut | ReadingOut) -> str:
    """``[valid_from, valid_to)`` in words, with the last day in force (``valid_to`` is exclusive)."""
    start = item.valid_from or "an unknown date"
    if item.valid_to is None:
        return f"in force from {start}, still in force"
    try:
        last = (date.fromisoformat(item.valid_to) - timedelta(days=1)).isoformat()
    except ValueError:
        return f"in force from {start} until before {item.valid_to}"
    return f"in force {start} to {last}"


def parser(env: Mapping[str, str]) -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m asat_research.ask",
        description="Ask the running research service a question and print its answer or abstention.",
        epilog="exit codes: 0 answered; 3 abstained; 2 usage error, service unreachable or refusing "
        "(start it with `make up`).",
    )
    result.add_argument("question", help="the question, in quotes")
    when = result.add_mutually_exclusive_group()
    when.add_argument("--income-year", type=int, metavar="N", help="income year N: 1 July N-1 to 30 June N")
    when.add_argument("--as-of", metavar="DATE", help="a day (YYYY-MM-DD): the version in force that day")
    when.add_argument(
        "--as-known-on",
        metavar="DATE",
        help="a day (YYYY-MM-DD): the law as it then stood, i.e. the text as the latest held compilation on or "
        "before that day shows it (e.g. the day a return was lodged)",
    )
    result.add_argument("--json", action="store_true", help="print the service's JSON reply unchanged")
    result.add_argument(
        "--url",
        default=env.get(URL_ENV, "").strip() or DEFAULT_URL,
        help=f"the research service (default ${URL_ENV}, else {DEFAULT_URL})",
    )
    result.add_argument(
        "--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT_S, metavar="SECONDS", help="default %(default)g"
    )
    return result


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    values = os.environ if env is None else env
    args = parser(values).parse_args(argv)
    try:
        request = research_request(args.question, args.income_year, args.as_of, args.as_known_on)
        try:
            token = optional_service_token(values)
        except ServiceTokenError as exc:
            raise AskError(str(exc)) from None
        response = post(args.url, request, args.timeout, token)
        if response.status_code != 200:
            if args.json:
                print(response.text)
            raise AskError(refusal(args.url, response))
        if args.json:
            print(response.text)
        outcome = read_outcome(args.url, response)
    except AskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if not args.json:
        print(render(outcome))
    return EXIT_ANSWERED if outcome.answered else EXIT_ABSTAINED


if __name__ == "__main__":
    sys.exit(main())
