"""Both answerers keep the Answerer contract: in process, and over HTTP through the research API."""

from __future__ import annotations

from fastapi.testclient import TestClient

from asat_research.api import create_app
from asat_research.eval_target import PipelineAnswerer
from asat_research.evaluation.answerers import Answerer, HttpAnswerer
from asat_research.pipeline import ResearchPipeline

from .answerer_contract import AnswererContract


class TestPipelineAnswerer(AnswererContract):
    def answerer(self, pipeline: ResearchPipeline) -> Answerer:
        return PipelineAnswerer(pipeline)


class TestHttpAnswerer(AnswererContract):
    def answerer(self, pipeline: ResearchPipeline) -> Answerer:
        client = TestClient(create_app(pipeline))
        return HttpAnswerer(str(client.base_url), client=client)
