"""Every Retriever adapter runs the shared contract (:mod:`.retriever_contract`).

The HTTP retriever asks the real ingest app (in process) over an index of ``abn1999`` with the
hash embedder, once on each index backend: Qdrant Edge and ``qdrant-client`` in local mode.
Failures come from a mock transport.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_ingest.runtime import IngestRuntime
from asat_research.retrieval import Retriever
from asat_research.retrieval_http import HttpRetriever

from .retriever_contract import RetrieverContract
from .stack import build_stack

pytestmark = pytest.mark.corpus

ENV = {"ASAT_EMBEDDER": "hash", "ASAT_INDEX_ACTS": "abn1999", "ASAT_INDEX_RULINGS": "none"}
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens


@pytest.fixture(scope="module")
def abn1999(tmp_path_factory: pytest.TempPathFactory) -> CorpusBuild:
    return load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=tmp_path_factory.mktemp("corpus-cache"))


def _served(corpus: CorpusBuild, index: str, root: Path) -> tuple[HttpRetriever, IngestRuntime]:
    stack, runtime = build_stack(corpus, ENV | {"ASAT_INDEX": index}, root)
    return stack.retriever, runtime


class _HttpContract(RetrieverContract):
    def unreachable(self) -> Retriever:
        return HttpRetriever(NOWHERE, timeout_s=2)

    def answering(self, status: int, body: str) -> Retriever:
        transport = httpx.MockTransport(lambda _: httpx.Response(status, text=body))
        return HttpRetriever("http://stub", client=httpx.Client(transport=transport, base_url="http://stub"))


class TestHttpRetrieverOverQdrantEdge(_HttpContract):
    @pytest.fixture(scope="class")
    @classmethod
    def retriever(cls, abn1999: CorpusBuild, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Retriever]:
        retriever, runtime = _served(abn1999, "edge", tmp_path_factory.mktemp("edge"))
        yield retriever
        runtime.close()


class TestHttpRetrieverOverQdrantLocal(_HttpContract):
    @pytest.fixture(scope="class")
    @classmethod
    def retriever(cls, abn1999: CorpusBuild, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Retriever]:
        retriever, runtime = _served(abn1999, "qdrant-local", tmp_path_factory.mktemp("qdrant-local"))
        yield retriever
        runtime.close()
