"""Schemathesis over the OpenAPI of every service, in process: how many cases ran, how many 5xx.

Each service's app is built as its fuzz test builds it (the test modules' schemas and builders:
``services/<service>/tests/test_openapi_fuzz.py``), and every operation of its schema is run
through the same phases as the tests (explicit examples, coverage, then ``--examples`` generated
cases per operation, positive and negative), with Hypothesis's default health checks on. A case
is counted when its request is sent; a server error is a reply of 500 or more, or an exception the
app raised (a 500 where it is served). The web is run twice: signed in as a practice's owner, and
anonymous.

Needs what the tests need: the corpus (``ASAT_CORPUS_DIR``, else ``../shared/corpus``) for ingest
and research, the local Postgres (``ASAT_TEST_DATABASE_URL``, else
``postgresql://postgres@127.0.0.1:5432/postgres``) and Tesseract for extraction. Exits 1 when any
server error was found (each is printed), or a service's run failed (a health check, say).

    .venv/bin/python scripts/fuzz_counts.py [--examples 50] [--service web] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import hypothesis
from schemathesis import Case
from schemathesis.core.result import Ok
from schemathesis.core.transport import Response
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test
from schemathesis.schemas import APIOperation, BaseSchema

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_EXAMPLES = 50
SERVICES = ("verifier", "ingest", "research", "web", "extraction")

Operation = APIOperation[Any, Any, Any, Any]
Call = Callable[[Case[Any]], Response]


@dataclass(frozen=True)
class Target:
    """One schema to fuzz and how each of its cases is sent (headers, a fresh world, ...)."""

    name: str
    schema: BaseSchema
    call: Call


@dataclass
class Count:
    """What a target's run found."""

    name: str
    operations: int = 0
    cases: int = 0
    server_errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # a run that failed (not a server error)
    seconds: float = 0.0


def test_module(service: str, module: str = "test_openapi_fuzz") -> ModuleType:
    """``services/<service>/tests/<module>.py``, imported as the tests import it (with its package)."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    return import_module(f"services.{service}.tests.{module}")


# --- the services, built as their fuzz tests build them ------------------------------------------


@contextmanager
def verifier() -> Iterator[list[Target]]:
    fuzz = test_module("verifier")
    yield [Target("verifier", fuzz.schema, lambda case: case.call())]


@contextmanager
def ingest() -> Iterator[list[Target]]:
    """As the ``ingest_index`` fixture: a real index of the ABN Act (hash embedder), built first."""
    from fastapi.testclient import TestClient

    from asat_corpus.corpus_build import load_corpus
    from asat_ingest.app import create_app
    from asat_ingest.composition import config_from_env
    from asat_ingest.runtime import IngestRuntime

    fuzz = test_module("ingest")
    with tempfile.TemporaryDirectory(prefix="fuzz-ingest-") as tmp:
        root = Path(tmp)
        env = {
            "ASAT_INDEX_DIR": str(root / "index"),
            "ASAT_VECTOR_CACHE_DIR": str(root / "cache"),
            "ASAT_EMBEDDER": "hash",
            "ASAT_INDEX_ACTS": fuzz.ACT,
            "ASAT_INDEX_RULINGS": "none",
        }
        corpus = load_corpus(acts=[fuzz.ACT], include_rulings=False, cache_dir=root / "corpus-cache")
        runtime = IngestRuntime(config_from_env(env), corpus)
        app = create_app(runtime)
        if TestClient(app).post("/v1/builds").status_code != 202:
            raise RuntimeError("ingest did not start its index build")
        fuzz._settle(runtime)
        fuzz.INGEST.app = app
        try:
            yield [Target("ingest", fuzz.schema, lambda case: case.call())]
        finally:
            fuzz.INGEST.app = None
            fuzz._settle(runtime)
            runtime.close()


@contextmanager
def research() -> Iterator[list[Target]]:
    """As the ``research_stack`` fixture: the ABN Act slice, the real ingest and verifier apps."""
    from asat_corpus.corpus_build import load_corpus
    from asat_research.api import create_app
    from asat_research.generation.per_request import ProviderGenerators

    fuzz = test_module("research")
    stack = test_module("research", "stack")
    with tempfile.TemporaryDirectory(prefix="fuzz-research-") as tmp:
        root = Path(tmp)
        corpus = load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=root / "corpus-cache")
        built, runtime = stack.build_stack(corpus, fuzz.ENV, root / "fuzz-stack")
        fuzz.RESEARCH.app = create_app(
            built.pipeline(),
            health={"index": lambda: True, "verifier": built.verifier.healthy},
            generators=ProviderGenerators(build=fuzz._offline),
        )
        try:
            yield [Target("research", fuzz.schema, lambda case: case.call())]
        finally:
            fuzz.RESEARCH.app = None
            runtime.close()


@contextmanager
def web() -> Iterator[list[Target]]:
    """A fresh world per case (``fuzz_world``), signed in as the practice's owner, and anonymous."""
    fuzz = test_module("web")
    world_module = test_module("web", "fuzz_world")
    with world_module.fuzz_world() as world:
        fuzz.WEB.app = world.app

        def signed_in(case: Case[Any]) -> Response:
            world.fresh(case.path)
            response: Response = case.call(headers=world.signed_in_headers(), max_redirects=0)
            return response

        def anonymous(case: Case[Any]) -> Response:
            world.fresh(case.path)
            response: Response = case.call(headers=world.anonymous_headers(), max_redirects=0)
            return response

        try:
            yield [Target("web (signed in)", fuzz.schema, signed_in), Target("web (anonymous)", fuzz.schema, anonymous)]
        finally:
            fuzz.WEB.app = fuzz.SHAPE


@contextmanager
def extraction() -> Iterator[list[Target]]:
    """Over a scratch Postgres database and the real pipeline (Tesseract), with the service token."""
    from asat_extraction.extractor.deterministic import DeterministicExtractor
    from asat_extraction.inputs.limits import InputLimits
    from asat_extraction.inputs.ocr import TesseractOcr
    from asat_extraction.pipeline import Pipeline

    fuzz = test_module("extraction")
    pipeline = Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits())
    with fuzz.extraction_world(pipeline) as world:
        fuzz.EXTRACTION.app = world.app

        def call(case: Case[Any]) -> Response:
            world.prepare(case)
            response: Response = case.call(headers=fuzz.AUTHORISED)
            return response

        try:
            yield [Target("extraction", fuzz.schema, call)]
        finally:
            fuzz.EXTRACTION.app = fuzz.SHAPE


BUILDERS: dict[str, Callable[[], AbstractContextManager[list[Target]]]] = {
    "verifier": verifier,
    "ingest": ingest,
    "research": research,
    "web": web,
    "extraction": extraction,
}


# --- the run ---------------------------------------------------------------------------------------


def phases(operation: Operation) -> list[HypothesisTestMode]:
    """The phases the schema's config enables for ``operation`` (as the pytest plugin reads them)."""
    enabled = operation.schema.config.phases_for(operation=operation)
    modes = []
    if enabled.examples.enabled:
        modes.append(HypothesisTestMode.EXAMPLES)
    if enabled.fuzzing.enabled:
        modes.append(HypothesisTestMode.FUZZING)
    if enabled.coverage.enabled:
        modes.append(HypothesisTestMode.COVERAGE)
    return modes


def fuzz_operation(operation: Operation, call: Call, examples: int, count: Count) -> None:
    """Every case of ``operation`` sent; each answer counted, each 5xx recorded."""

    def send(case: Case[Any]) -> None:
        count.cases += 1
        try:
            response = call(case)
        except Exception as exc:  # raised through the in-process transport: a 500 where the app is served
            count.server_errors.append(f"{case.method} {case.formatted_path}: raised {type(exc).__name__}: {exc}")
            return
        if response.status_code >= 500:
            count.server_errors.append(f"{case.method} {case.formatted_path}: {response.status_code}")

    settings = hypothesis.settings(max_examples=examples, deadline=None, database=None)
    config = HypothesisTestConfig(project=operation.schema.config, modes=phases(operation), settings=settings)
    test: Callable[[], None] = create_test(operation=operation, test_func=send, config=config)
    test()


def fuzz_target(target: Target, examples: int) -> Count:
    count = Count(target.name)
    started = time.perf_counter()
    for result in target.schema.get_all_operations():
        count.operations += 1
        if not isinstance(result, Ok):
            count.problems.append(f"an operation the schema does not describe validly: {result.err()}")
            continue
        operation = result.ok()
        try:
            fuzz_operation(operation, target.call, examples, count)
        except Exception as exc:  # a health check, or an error before any reply: said, and the run goes on
            count.problems.append(f"{operation.label}: {type(exc).__name__}: {str(exc).strip()[:400]}")
    count.seconds = round(time.perf_counter() - started, 1)
    return count


def run(services: list[str], examples: int) -> list[Count]:
    counts: list[Count] = []
    for service in services:
        try:
            with BUILDERS[service]() as targets:
                counts += [fuzz_target(target, examples) for target in targets]
        except Exception as exc:
            failed = Count(service)
            failed.problems.append(f"could not build {service}: {type(exc).__name__}: {exc}")
            traceback.print_exc()
            counts.append(failed)
    return counts


def table(counts: list[Count], examples: int) -> str:
    lines = [
        f"schemathesis in process, {examples} generated examples per operation (plus explicit and coverage cases)",
        "",
        f"{'service':<18} {'operations':>10} {'cases':>8} {'server errors':>14} {'seconds':>8}",
    ]
    for c in counts:
        lines.append(f"{c.name:<18} {c.operations:>10} {c.cases:>8} {len(c.server_errors):>14} {c.seconds:>8}")
    total = sum(c.cases for c in counts)
    lines.append(f"{'total':<18} {sum(c.operations for c in counts):>10} {total:>8} "
                 f"{sum(len(c.server_errors) for c in counts):>14}")  # fmt: skip
    for c in counts:
        lines += [f"server error, {c.name}: {error}" for error in c.server_errors]
        lines += [f"run failed, {c.name}: {problem}" for problem in c.problems]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--examples", type=int, default=DEFAULT_EXAMPLES, help="generated examples per operation (default 50)"
    )
    parser.add_argument(
        "--service", action="append", choices=SERVICES, help="fuzz only this service (repeatable; default all)"
    )
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    counts = run(list(args.service or SERVICES), args.examples)
    if args.json:
        print(json.dumps({"examples": args.examples, "services": [asdict(c) for c in counts]}, indent=2))
    else:
        print(table(counts, args.examples))
    failed = any(c.server_errors or c.problems for c in counts)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
