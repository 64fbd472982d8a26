"""Every Reranker adapter runs the shared contract (:mod:`.reranker_contract`).

``embedding-cosine`` and ``hybrid`` are pure; ``domain`` is the shipped model under
``models/relevance`` (with small hand-made corpus statistics); the domain ranker's cascade reads
its top candidates with an ONNX cross-encoder, here a tiny randomly initialised BERT exported the
way ``make models`` exports the real one; ``cross-encoder`` (transformers) loads the same tiny
model from a directory, as ``ASAT_RERANKER_MODEL`` names one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_research.relevance.blend import Blend
from asat_research.relevance.domain_reranker import DEFAULT_MODEL_DIR, Cascade, DomainReranker
from asat_research.relevance.ltr_model import LtrModel
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.stats import RelevanceStats
from asat_research.rerank import CrossEncoderReranker, EmbeddingCosineReranker, HybridReranker, Reranker

from .reranker_contract import RerankerContract

STATS = RelevanceStats(
    documents=1000,
    df={"turnov": 40, "busine": 600, "small": 300, "entity": 500, "aggreg": 35, "thresh": 20},
    citations={("itaa1997", "328-110"): 12, ("itaa1997", "8-1"): 300},
    cited_by={"ATO ID 2001/1": frozenset({("itaa1997", "328-110")})},
    defined={"small business entity": {("itaa1997", "328-110")}, "aggregated turnover": {("itaa1997", "328-115")}},
)


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny BERT cross-encoder saved for transformers (``hf/``) and exported to ONNX int8 (``onnx/``)."""
    from asat_research.relevance.onnx_export import export_onnx

    from .test_onnx_cross_encoder import _tiny

    directory = tmp_path_factory.mktemp("tiny-ce")
    model, tokenizer = _tiny(directory)
    model.save_pretrained(directory / "hf")
    tokenizer.save_pretrained(directory / "hf")
    export_onnx(model, tokenizer, directory / "onnx", quantize=True)
    return directory


class TestEmbeddingCosineReranker(RerankerContract):
    bounds = (-1.0, 1.0)
    reads_input_order = False

    @pytest.fixture(scope="class")
    @classmethod
    def reranker(cls) -> Reranker:
        return EmbeddingCosineReranker()


class TestHybridReranker(RerankerContract):
    bounds = (-1.0, 1.0 + HybridReranker.FUSED_WEIGHT + HybridReranker.HEADING_WEIGHT)
    reads_input_order = False

    @pytest.fixture(scope="class")
    @classmethod
    def reranker(cls) -> Reranker:
        return HybridReranker()


class TestDomainReranker(RerankerContract):
    bounds = (0.0, 1.0)  # a calibrated probability

    @pytest.fixture(scope="class")
    @classmethod
    def reranker(cls) -> Reranker:
        return DomainReranker.load(DEFAULT_MODEL_DIR, STATS)


class TestDomainRerankerWithCascade(RerankerContract):
    bounds = (0.0, 1.0)  # the blend is a probability too

    @pytest.fixture(scope="class")
    @classmethod
    def reranker(cls, tiny_cross_encoder: Path) -> Reranker:
        encoder = OnnxCrossEncoder(tiny_cross_encoder / "onnx", max_length=32)
        cascade = Cascade(encoder, Blend(w_ltr=0.8, w_ce=0.5, bias=-1.0), top_k=3)
        return DomainReranker(LtrModel.load(DEFAULT_MODEL_DIR), STATS, cascade)


class TestCrossEncoderReranker(RerankerContract):
    bounds = None  # a logit
    reads_input_order = False

    @pytest.fixture(scope="class")
    @classmethod
    def reranker(cls, tiny_cross_encoder: Path) -> Reranker:
        return CrossEncoderReranker(tiny_cross_encoder / "hf", max_length=32)
