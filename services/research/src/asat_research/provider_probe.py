"""``python -m asat_research.provider_probe [--json] [--timeout S]``: probe the configured generator.

Reads the settings the research service reads (``ASAT_GENERATION_PROVIDER``, ``_BASE_URL``,
``_MODEL``, ``_API_KEY``, ``_SEED``; see :mod:`asat_research.generation.factory`) and sends the
provider the pipeline's own two passes over a tiny fixed source set. One line per check:

* ``reachable``: it answered, and how fast;
* ``model``: the reply's model field names the model configured (a dated snapshot counts);
* ``enum``: asked for a span key never offered, the reply must not cite it; asked for an offered
  key, the reply must return it (a refused offered key is a failure too);
* ``seed``: the same pass 2 twice with the seed gives the same claims (info where the API has no seed);
* ``two_pass``: pass 1 selects spans, pass 2 writes claims citing them.

Exit codes: 0 every check passed (or the extractive default: nothing to probe); 1 usable but weak
(the enum is not enforced: expect a higher abstention rate, the verifier still protects you; or
the seed is not honoured); 2 unreachable, misconfigured or unusable, with the line that says what
to fix. The API key is never printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence

from asat_research.cli_arguments import positive_seconds
from asat_research.generation import aggregator, anthropic_adapter, ollama_adapter
from asat_research.generation.factory import BASE_URL, MODEL
from asat_research.probe.build import DEFAULT_TIMEOUT_S, GenerationConfigError, configured_provider, probe_generator
from asat_research.probe.checks import run_checks
from asat_research.probe.report import ProbeReport, as_json, render_text

DEFAULT_BASE_URLS = {
    "aggregator": aggregator.DEFAULT_BASE_URL,
    "anthropic": anthropic_adapter.DEFAULT_BASE_URL,
    "ollama": ollama_adapter.DEFAULT_BASE_URL,
}


def probe(env: Mapping[str, str], timeout: float = DEFAULT_TIMEOUT_S) -> ProbeReport:
    provider = configured_provider(env)
    model = env.get(MODEL, "").strip()
    endpoint = env.get(BASE_URL, "").strip() or DEFAULT_BASE_URLS.get(provider, "")
    if provider == "extractive":
        endpoint, model = "", ""
    try:
        generator = probe_generator(env, timeout)
    except GenerationConfigError as exc:
        return ProbeReport(provider, endpoint, model, timeout, problem=str(exc))
    if provider == "extractive":
        return ProbeReport(provider, endpoint, model, timeout)
    return ProbeReport(provider, endpoint, model, timeout, checks=run_checks(generator, model))


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m asat_research.provider_probe",
        description="Probe the configured generation provider (ASAT_GENERATION_*) the way the pipeline uses it.",
        epilog="exit codes: 0 every check passed, or extractive (nothing to probe); 1 usable but weak; "
        "2 unreachable, misconfigured or unusable (the output says what to fix).",
    )
    result.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    result.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"per request; no retries (default {DEFAULT_TIMEOUT_S:g})",
    )
    return result


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    args = parser().parse_args(argv)
    report = probe(os.environ if env is None else env, args.timeout)
    if args.json:
        print(json.dumps(as_json(report), indent=2))
    else:
        print(render_text(report))
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
