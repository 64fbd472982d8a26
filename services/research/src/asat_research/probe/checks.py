"""The probe's checks against one generator, over the fixed source set of :mod:`.sources`.

Five requests at most, each the pipeline's own pass (``Generator.select`` / ``Generator.write``):
pass 1 of the round trip (which also measures reachability), the unoffered and the offered key
question, pass 2, and pass 2 again (the seed). Every check ends ``pass``, ``weak`` (usable, but
expect more abstentions or less reproducibility: exit 1), ``fail`` (unreachable, misconfigured or
unusable: exit 2), ``info`` (nothing to judge, e.g. an API with no seed) or ``skipped``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from asat_research.generation.port import Generation, GenerationError, Generator, Selection
from asat_research.generation.reply_parser import SchemaViolation
from asat_research.probe.failures import Failure, classify, no_answer
from asat_research.probe.model_names import reported_name, same_model
from asat_research.probe.sources import (
    OFFERED_KEY,
    ROUND_TRIP_QUESTION,
    SPANS,
    UNOFFERED_KEY,
    key_question,
    offered_keys,
    spans_for,
)

CHECKS = ("reachable", "model", "enum", "seed", "two_pass")
ENUM_CONSEQUENCE = "Expect a higher abstention rate; the verifier still protects you."


class Status(StrEnum):
    PASS = "pass"
    WEAK = "weak"
    FAIL = "fail"
    INFO = "info"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: Status
    detail: str
    data: dict[str, Any] = field(default_factory=dict)


T = TypeVar("T")


@dataclass(frozen=True)
class Attempt(Generic[T]):
    value: T | None
    error: GenerationError | None
    ms: float


def attempt(call: Callable[[], T]) -> Attempt[T]:
    started = time.perf_counter()
    try:
        value = call()
    except GenerationError as exc:
        return Attempt(None, exc, _ms_since(started))
    return Attempt(value, None, _ms_since(started))


def run_checks(generator: Generator, configured_model: str) -> tuple[CheckResult, ...]:
    """Every check, in the order of :data:`CHECKS`; after an unreachable provider the rest are skipped."""
    first = attempt(lambda: generator.select(ROUND_TRIP_QUESTION, SPANS))
    reachable = reachable_check(first)
    if reachable.status is Status.FAIL:
        return (reachable, *(_skipped(name, "the provider gave no answer") for name in CHECKS[1:]))
    unoffered = attempt(lambda: generator.select(key_question(UNOFFERED_KEY), SPANS))
    offered = attempt(lambda: generator.select(key_question(OFFERED_KEY), SPANS))
    write: Attempt[Generation] | None = None
    if first.value is not None and first.value.keys:
        selected = spans_for(first.value.keys)
        write = attempt(lambda: generator.write(ROUND_TRIP_QUESTION, selected))
    replies: list[Selection | Generation | None] = [first.value, unoffered.value, offered.value]
    replies.append(write.value if write else None)
    return (
        reachable,
        model_check(configured_model, replies),
        enum_check(unoffered, offered),
        seed_check(generator, first, write),
        two_pass_check(first, write),
    )


def reachable_check(first: Attempt[Selection]) -> CheckResult:
    data: dict[str, Any] = {"latency_ms": round(first.ms, 1)}
    if first.error is None:
        return CheckResult("reachable", Status.PASS, f"answered in {first.ms:.0f} ms", data)
    failure = classify(first.error)
    data["failure"] = failure.value
    if failure is Failure.UNUSABLE_REPLY:
        return CheckResult("reachable", Status.PASS, f"answered in {first.ms:.0f} ms (the reply is judged below)", data)
    if failure is Failure.TIMED_OUT:
        detail = (
            f"no answer within {first.ms / 1000:.1f} s (--timeout; a cold local model may need more): {first.error}"
        )
    elif failure is Failure.UNREACHABLE:
        detail = f"not reachable: {first.error}"
    else:
        detail = f"answered with an HTTP error: {first.error}"
    return CheckResult("reachable", Status.FAIL, detail, data)


def model_check(configured: str, replies: Sequence[Selection | Generation | None]) -> CheckResult:
    answered = next((reply for reply in replies if reply is not None), None)
    if answered is None:
        return _skipped("model", "no reply was usable, so none named its model")
    reported = reported_name(answered.model)
    data = {"configured": configured, "reported": answered.model, "answered_by": answered.provider}
    if not same_model(configured, answered.model):
        return CheckResult(
            "model",
            Status.FAIL,
            f"ASAT_GENERATION_MODEL is {configured!r} but the reply names {reported!r}: the server answered with "
            "another model (some servers ignore the name and serve whatever is loaded). Serve "
            f"{configured!r} there, or set ASAT_GENERATION_MODEL={reported}.",
            data,
        )
    how = "as configured" if reported == configured else f"the configured {configured!r}"
    return CheckResult("model", Status.PASS, f"the reply names {answered.model!r}, {how}", data)


def enum_check(unoffered: Attempt[Selection], offered: Attempt[Selection]) -> CheckResult:
    data: dict[str, Any] = {
        "unoffered_key": UNOFFERED_KEY,
        "unoffered_reply": _reply(unoffered),
        "offered_key": OFFERED_KEY,
        "offered_reply": _reply(offered),
    }
    for tried in (unoffered, offered):
        if tried.error is not None and no_answer(classify(tried.error)):
            return CheckResult("enum", Status.FAIL, f"could not ask the key questions: {tried.error}", data)
    findings: list[tuple[Status, str]] = []
    if unoffered.error is not None:
        findings.append(
            (
                Status.WEAK,
                f"asked for {UNOFFERED_KEY}, never offered: the reply broke the schema "
                f"({_reason(unoffered.error)}), so the key enum is not enforced",
            )
        )
    elif unoffered.value is not None:
        got = _keys(unoffered.value)
        findings.append((Status.PASS, f"asked for {UNOFFERED_KEY}, never offered: got {got}, the enum held"))
    if offered.error is not None:
        findings.append(
            (
                Status.WEAK,
                f"asked for {OFFERED_KEY}, offered: the reply broke the schema ({_reason(offered.error)})",
            )
        )
    elif offered.value is not None and OFFERED_KEY not in offered.value.keys:
        findings.append(
            (
                Status.FAIL,
                f"asked for {OFFERED_KEY}, offered: got {_keys(offered.value)}, so an offered key was refused and "
                "the provider cannot cite the sources it is shown (every question would abstain). Use a model "
                "that supports JSON-schema enum output, or set ASAT_GENERATION_PROVIDER=extractive",
            )
        )
    elif offered.value is not None:
        findings.append((Status.PASS, f"asked for {OFFERED_KEY}, offered: got {_keys(offered.value)}"))
    status = _worst(finding[0] for finding in findings)
    detail = "; ".join(text for _, text in findings) + "."
    if status is Status.WEAK:
        detail += " " + ENUM_CONSEQUENCE
    return CheckResult("enum", status, detail, data)


def seed_check(generator: Generator, first: Attempt[Selection], write: Attempt[Generation] | None) -> CheckResult:
    if first.value is None or write is None or write.value is None:
        return _skipped("seed", "the two-pass round trip did not complete")
    seed = write.value.seed
    if seed is None:
        return CheckResult(
            "seed",
            Status.INFO,
            "this provider's API takes no seed, so none is sent: answers may differ between runs (the audit "
            "records seed null and the model that answered)",
            {"seed": None},
        )
    selected = spans_for(first.value.keys)
    again = attempt(lambda: generator.write(ROUND_TRIP_QUESTION, selected))
    data: dict[str, Any] = {"seed": seed}
    if again.error is not None:
        status = Status.FAIL if no_answer(classify(again.error)) else Status.WEAK
        return CheckResult("seed", status, f"seed {seed} sent; the same pass 2 again failed: {again.error}", data)
    assert again.value is not None
    if _claims(again.value) == _claims(write.value):
        return CheckResult("seed", Status.PASS, f"seed {seed} sent; the same pass 2 twice gave the same claims", data)
    data["first"], data["second"] = _claims(write.value), _claims(again.value)
    return CheckResult(
        "seed",
        Status.WEAK,
        f"seed {seed} sent, but the same pass 2 twice gave different claims: the provider does not honour the "
        "seed, so answers are not reproducible run to run (each answer is still verified and audited)",
        data,
    )


def two_pass_check(first: Attempt[Selection], write: Attempt[Generation] | None) -> CheckResult:
    if first.error is not None:
        return CheckResult("two_pass", Status.FAIL, f"pass 1 failed: {first.error}", {})
    assert first.value is not None
    selected = list(first.value.keys)
    data: dict[str, Any] = {"selected": selected}
    if write is None:
        return CheckResult(
            "two_pass",
            Status.WEAK,
            f"pass 1 selected none of {', '.join(offered_keys())}, though S3 answers the question: expect "
            "more abstentions",
            data,
        )
    if write.error is not None:
        return CheckResult(
            "two_pass", Status.FAIL, f"pass 1 selected {', '.join(selected)}; pass 2 failed: {write.error}", data
        )
    assert write.value is not None
    data["claims"] = [{"text": text, "span_keys": list(keys)} for text, keys in _claims(write.value)]
    if not write.value.claims:
        return CheckResult(
            "two_pass",
            Status.WEAK,
            f"pass 1 selected {', '.join(selected)}; pass 2 wrote no claim: expect more abstentions",
            data,
        )
    cited = sorted({key for claim in write.value.claims for key in claim.span_keys})
    count = len(write.value.claims)
    return CheckResult(
        "two_pass",
        Status.PASS,
        f"pass 1 selected {', '.join(selected)}; pass 2 wrote {count} claim{'s' if count != 1 else ''} "
        f"citing {', '.join(cited)}",
        data,
    )


def _worst(statuses: Any) -> Status:
    found = set(statuses)
    for status in (Status.FAIL, Status.WEAK):
        if status in found:
            return status
    return Status.PASS


def _skipped(name: str, why: str) -> CheckResult:
    return CheckResult(name, Status.SKIPPED, f"not run: {why}")


def _reply(tried: Attempt[Selection]) -> list[str] | str:
    if tried.value is not None:
        return list(tried.value.keys)
    return _reason(tried.error) if tried.error is not None else ""


def _reason(error: GenerationError) -> str:
    """The contract's own complaint, without the adapter's advice wrapped round it."""
    cause = error.__cause__
    return str(cause) if isinstance(cause, SchemaViolation) else str(error)


def _keys(selection: Selection) -> str:
    return "[" + ", ".join(selection.keys) + "]"


def _claims(generation: Generation) -> list[tuple[str, tuple[str, ...]]]:
    return [(claim.text, claim.span_keys) for claim in generation.claims]


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
