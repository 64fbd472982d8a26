"""Schemathesis over research's OpenAPI, in process: every reply matches its documented model.

The app answers over the small real stack of ``test_api_replies`` (ABN Act slice, hash embedder,
the real ingest and verifier apps); a few examples per route keep the run short.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import Receive, Scope, Send

from asat_corpus.corpus_build import load_corpus
from asat_research.api import create_app
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.factory import GenerationSettings
from asat_research.generation.per_request import ProviderGenerators, request_generator
from asat_research.generation.port import Generator
from asat_research.pipeline import ResearchPipeline

from .stack import build_stack
from .test_api_replies import ENV

pytestmark = pytest.mark.corpus


class _Research:
    """The research app: its schema before the stack exists, every route over the stack once built."""

    def __init__(self) -> None:
        self.shape = create_app(cast(ResearchPipeline, None))  # the routes and models only
        self.app: FastAPI | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (self.app or self.shape)(scope, receive, send)


RESEARCH = _Research()
schema = schemathesis.openapi.from_asgi("/openapi.json", RESEARCH)


def _offline(settings: GenerationSettings) -> Generator:
    """A request's own provider checked as research checks it (a 422 where it cannot be built),
    then answered offline: a fuzzed base URL is never called."""
    request_generator(settings)
    return ExtractiveGenerator()


@pytest.fixture(scope="module")
def research_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    corpus = load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=tmp_path_factory.mktemp("corpus-cache"))
    built, runtime = build_stack(corpus, ENV, Path(tmp_path_factory.mktemp("fuzz-stack")))
    RESEARCH.app = create_app(
        built.pipeline(),
        health={"index": lambda: True, "verifier": built.verifier.healthy},
        generators=ProviderGenerators(build=_offline),
    )
    yield
    RESEARCH.app = None
    runtime.close()


@schema.parametrize()
@settings(max_examples=8, deadline=None)
def test_every_reply_matches_the_documented_model(research_stack: None, case: schemathesis.Case) -> None:
    case.call_and_validate(
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    )
