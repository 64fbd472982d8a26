"""The probe's verdict, exit code and output (text lines, or one JSON object)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from asat_research.probe.checks import CHECKS, ENUM_CONSEQUENCE, CheckResult, Status

EXIT_OK = 0  # every check passed, or the extractive default: nothing to probe
EXIT_WEAK = 1  # usable but weak: the enum is not enforced, the seed not honoured, the round trip empty
EXIT_UNUSABLE = 2  # unreachable, misconfigured, or a check failed: the output names what to fix

CONSEQUENCES = {
    "enum": ENUM_CONSEQUENCE,
    "seed": "Answers may differ from run to run.",
    "two_pass": "Expect more abstentions.",
}


@dataclass(frozen=True)
class ProbeReport:
    provider: str  # ASAT_GENERATION_PROVIDER as configured
    endpoint: str  # the base URL asked (the adapter's default where unset); "" when none
    model: str  # ASAT_GENERATION_MODEL; "" when none
    timeout_s: float
    checks: tuple[CheckResult, ...] = ()
    problem: str = ""  # a configuration error: nothing was sent

    @property
    def exit_code(self) -> int:
        if self.problem:
            return EXIT_UNUSABLE
        statuses = {check.status for check in self.checks}
        if Status.FAIL in statuses:
            return EXIT_UNUSABLE
        if Status.WEAK in statuses:
            return EXIT_WEAK
        return EXIT_OK

    @property
    def verdict(self) -> str:
        if self.problem:
            return "misconfigured"
        if not self.checks:
            return "nothing_to_probe"
        return {EXIT_OK: "ok", EXIT_WEAK: "weak", EXIT_UNUSABLE: "unusable"}[self.exit_code]

    @property
    def summary(self) -> str:
        verdict = self.verdict
        if verdict == "misconfigured":
            return f"misconfigured (exit 2): {self.problem}"
        if verdict == "nothing_to_probe":
            return (
                "ASAT_GENERATION_PROVIDER is extractive (the default): no model is used, so there is nothing "
                "to probe (exit 0). Set ASAT_GENERATION_PROVIDER and its settings to probe a provider."
            )
        if verdict == "ok":
            return "every check passed (exit 0)."
        if verdict == "weak":
            weak = [check.name for check in self.checks if check.status is Status.WEAK]
            advice = " ".join(CONSEQUENCES[name] for name in weak if name in CONSEQUENCES)
            return f"usable but weak (exit 1): {', '.join(weak)}. {advice}".rstrip()
        failed = [check.name for check in self.checks if check.status is Status.FAIL]
        return (
            f"not usable as configured (exit 2): fix what the {', '.join(failed)} line{_s(failed)} say{_verb(failed)}."
        )


def render_text(report: ProbeReport) -> str:
    lines: list[str] = []
    width = max(len(name) for name in ("provider", *CHECKS))
    if report.provider != "extractive" or report.problem:
        where = f" at {report.endpoint}" if report.endpoint else ""
        model = f", model {report.model}" if report.model else ""
        lines.append(f"{'provider':<{width}}  {report.provider}{where}{model} (timeout {report.timeout_s:g} s)")
    for check in report.checks:
        lines.append(f"{check.name:<{width}}  {check.status.value.upper():<7}  {check.detail}")
    lines.append(f"{'result':<{width}}  {report.summary}")
    return "\n".join(lines)


def as_json(report: ProbeReport) -> dict[str, Any]:
    return {
        "provider": report.provider,
        "endpoint": report.endpoint,
        "model": report.model,
        "timeout_s": report.timeout_s,
        "verdict": report.verdict,
        "exit_code": report.exit_code,
        "summary": report.summary,
        "checks": [dataclasses.asdict(check) | {"status": check.status.value} for check in report.checks],
    }


def _s(items: list[str]) -> str:
    return "s" if len(items) > 1 else ""


def _verb(items: list[str]) -> str:
    return "" if len(items) > 1 else "s"
