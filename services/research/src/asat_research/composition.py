"""The only place research adapters are built. Reads the environment; raises on anything unknown.

The variables below are read as one :class:`~asat_research.settings.ResearchSettings` (a bad value
is a :class:`ResearchConfigError` naming the variable and what is allowed); ``ASAT_RESEARCH_HOST``
and ``ASAT_RESEARCH_PORT`` (where ``python -m asat_research serve`` listens) are read there too.

| variable | meaning | default |
|---|---|---|
| ``ASAT_INGEST_URL`` | the index service | ``http://127.0.0.1:8720`` |
| ``ASAT_VERIFIER_URL`` | the verifier service | ``http://127.0.0.1:8710`` |
| ``ASAT_SERVICE_TOKEN`` | the service token sent to ingest and the verifier (and required of research's callers) | required |
| ``ASAT_DATABASE_URL`` | Postgres as the audit app role (INSERT+SELECT only) | required |
| ``ASAT_RERANKER`` | ``domain`` (the trained ranker in ``ASAT_RERANKER_MODEL_DIR``), ``hybrid``, ``embedding-cosine`` or ``cross-encoder`` (with ``ASAT_RERANKER_MODEL``, a path) | ``domain`` |
| ``ASAT_RERANKER_MODEL_DIR`` | the domain ranker's artifacts and model card | ``models/relevance`` of this checkout |
| ``ASAT_PREMISE_MODEL_DIR`` | the contradiction model the extractive generator reads premises with (artifact, calibration, card; research's own and a request's) | ``models/premise`` of this checkout |
| ``ASAT_GATE_MIN_SCORE`` | the gate's floor on the reranker's scale | measured, per reranker |
| ``ASAT_GATE_CORROBORATION_SCORE`` | below it a second independent source is required | measured, per reranker |
| ``ASAT_GATE_GAP_MARGIN`` | a marker of law not held within this of the best passage abstains | measured, per reranker (0.05 otherwise) |
| ``ASAT_GENERATION_*`` | see ``asat_research.generation.factory``; a request's own ``provider`` replaces it for that request (``ASAT_GENERATION_SEED`` still applies) | extractive |
| ``ASAT_EMBEDDER``, ``ASAT_INDEX_ACTS``, ``ASAT_INDEX_RULINGS`` | must match the index service | |
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from asat_audit.checkpoint_file import KeyFileError, load_public_key
from asat_audit.log_check import AnchorFiles
from asat_audit.reconnecting import ReconnectingAuditStore
from asat_audit.store import AuditStore
from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_corpus.env_settings import SettingsError
from asat_corpus.index_scope import IndexScopeError, index_scope_from_env
from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_corpus.vector_config import VectorConfigError, vector_config_from_env
from asat_research.corpus_view import CorpusView
from asat_research.gate import GateConfig
from asat_research.generation.factory import GenerationConfigError, generator_from, settings_from_env
from asat_research.generation.per_request import ProviderGenerators
from asat_research.index_gate import IndexGate
from asat_research.pipeline import PipelineSettings, ResearchPipeline, ResearchPorts
from asat_research.premise.contradiction_model import DEFAULT_MODEL_DIR as DEFAULT_PREMISE_MODEL_DIR
from asat_research.premise.contradiction_model import ContradictionModel, ContradictionModelError
from asat_research.relevance.domain_reranker import DEFAULT_MODEL_DIR, DomainReranker
from asat_research.relevance.ltr_model import RankerModelError
from asat_research.relevance.stats import relevance_stats
from asat_research.rerank import CrossEncoderReranker, EmbeddingCosineReranker, HybridReranker, Reranker
from asat_research.retrieval_http import HttpRetriever
from asat_research.settings import RERANKERS, ResearchSettings, research_settings
from asat_research.verifier_client import HttpVerifierClient

# Measured on the project's suite with scripts/calibrate_rerank_thresholds.py (gold-set/calibration/<reranker>.json;
# a test keeps these inside the measured window). The cross-encoder has no default: calibrate it.
DEFAULT_MIN_SCORE = {"domain": 0.1135, "hybrid": 0.835, "embedding-cosine": 0.64}
DEFAULT_CORROBORATION = {"domain": 0.1135, "hybrid": 0.847, "embedding-cosine": 0.65}
# The margin within which a marker of law not held (a gap, not yet enacted) beats the best held
# passage. The domain ranker's floor and margin are chosen by cross-validation on the suite
# (scripts/calibrate_gate_cv.py; gold-set/calibration/domain-cv.json, kept equal by a test).
DEFAULT_GAP_MARGIN: dict[str, float] = {"domain": 0.1}
# How many chunks the first stage hands each reranker: the domain ranker reads the top 100 (the
# gold section is among them for 95% of the suite's answerable questions, 85% at 20).
RETRIEVE_LIMIT = {"domain": 100}
DEFAULT_RETRIEVE_LIMIT = 30


class ResearchConfigError(ValueError):
    pass


@dataclass
class ResearchService:
    pipeline: ResearchPipeline
    health: dict[str, Callable[[], Any]]
    closers: list[Callable[[], None]]
    anchors: AnchorFiles | None = None  # the audit log's checkpoints, checked by GET /v1/audit/verify
    max_concurrent: int = 32  # ASAT_RESEARCH_MAX_CONCURRENT
    # The generators of requests' own providers (ResearchRequest.provider), with research's seed.
    generators: ProviderGenerators = field(default_factory=ProviderGenerators)
    index_gate: IndexGate | None = None  # whether the index may answer now (None: the API builds its own)

    def close(self) -> None:
        for close in self.closers:
            close()


def read_settings(values: Mapping[str, str]) -> ResearchSettings:
    """The service's settings from ``values``; raises :class:`ResearchConfigError` on a bad one."""
    try:
        return research_settings(values)
    except SettingsError as exc:
        raise ResearchConfigError(str(exc)) from None


def build_contradiction(settings: ResearchSettings) -> ContradictionModel:
    """The contradiction model in ``ASAT_PREMISE_MODEL_DIR`` (``models/premise``); a missing or
    stale one is a :class:`ResearchConfigError`, never a generator without it."""
    directory = settings.premise_model_dir or DEFAULT_PREMISE_MODEL_DIR
    try:
        return ContradictionModel.load(directory)
    except ContradictionModelError as exc:
        raise ResearchConfigError(f"ASAT_PREMISE_MODEL_DIR: {exc}") from exc


def build_reranker(settings: ResearchSettings, view: CorpusView) -> Reranker:
    name = settings.reranker
    if name == "domain":
        directory = settings.reranker_model_dir or DEFAULT_MODEL_DIR
        try:
            return DomainReranker.load(directory, relevance_stats(view))
        except RankerModelError as exc:
            raise ResearchConfigError(f"ASAT_RERANKER=domain: {exc}") from exc
    if name == "embedding-cosine":
        return EmbeddingCosineReranker()
    if name == "hybrid":
        return HybridReranker()
    if name == "cross-encoder":
        path = settings.reranker_model
        if path is None or not path.is_dir():
            shown = str(path) if path is not None else ""
            raise ResearchConfigError(
                f"ASAT_RERANKER=cross-encoder needs ASAT_RERANKER_MODEL set to a local model directory (got {shown!r})"
            )
        return CrossEncoderReranker(path)
    raise ResearchConfigError(f"unknown ASAT_RERANKER={name!r}; use one of: {', '.join(RERANKERS)}")


def gate_config(settings: ResearchSettings, reranker: Reranker) -> GateConfig:
    key = "cross-encoder" if reranker.name.startswith("cross-encoder") else reranker.name
    thresholds = {}
    for name, given, defaults in (
        ("ASAT_GATE_MIN_SCORE", settings.gate_min_score, DEFAULT_MIN_SCORE),
        ("ASAT_GATE_CORROBORATION_SCORE", settings.gate_corroboration_score, DEFAULT_CORROBORATION),
    ):
        if given is None and key not in defaults:
            raise ResearchConfigError(
                f"{name} has no default for the {key} reranker: measure it with scripts/calibrate_rerank_thresholds.py"
            )
        thresholds[name] = given if given is not None else defaults[key]
    margin = settings.gate_gap_margin
    if margin is None:
        margin = DEFAULT_GAP_MARGIN.get(key, GateConfig.gap_margin)
    return GateConfig(
        min_score=thresholds["ASAT_GATE_MIN_SCORE"],
        corroboration_score=thresholds["ASAT_GATE_CORROBORATION_SCORE"],
        gap_margin=margin,
        scale=reranker.scale,
    )


def build_service(
    env: Mapping[str, str] | None = None,
    corpus: CorpusBuild | None = None,
    audit: AuditStore | None = None,
) -> ResearchService:
    values = dict(os.environ if env is None else env)
    settings = read_settings(values)
    try:
        # Ingest and the verifier refuse a request without it: fail here, not on the first question.
        service_token = read_service_token(values)
        vector_config = vector_config_from_env(values)
        scope = index_scope_from_env(values)
        generation = settings_from_env(values)
        contradiction = build_contradiction(settings)
        generator = generator_from(generation, contradiction=contradiction)
    except (ServiceTokenError, VectorConfigError, IndexScopeError, GenerationConfigError) as exc:
        raise ResearchConfigError(str(exc)) from exc
    view = CorpusView(corpus if corpus is not None else load_corpus(), scope, vector_config)
    reranker = build_reranker(settings, view)
    gate = gate_config(settings, reranker)
    closers: list[Callable[[], None]] = []
    if audit is None:
        url = settings.database_url
        if not url:
            raise ResearchConfigError(
                "ASAT_DATABASE_URL is not set: point it at Postgres as the audit app role "
                "(INSERT and SELECT only), e.g. postgresql://asat_app@127.0.0.1:5432/asat"
            )
        store = ReconnectingAuditStore(url)
        closers.append(store.close)
        audit = store
    retriever = HttpRetriever(settings.ingest_url, service_token=service_token)
    verifier = HttpVerifierClient(settings.verifier_url, service_token=service_token)
    closers += [retriever.close, verifier.close]
    pipeline = ResearchPipeline(
        ResearchPorts(
            retriever=retriever, verifier=verifier, generator=generator, reranker=reranker, audit=audit, corpus=view
        ),
        PipelineSettings(
            gate=gate,
            retrieve_limit=RETRIEVE_LIMIT.get(reranker.name, DEFAULT_RETRIEVE_LIMIT),
            deadline_s=settings.deadline_s,
        ),
    )

    # Whether the index may answer now (ready, being built, its build failed): read by every
    # question and by /healthz, asked of ingest at most every two seconds.
    index_gate = IndexGate(retriever.index_report, view.generation)
    health: dict[str, Callable[[], Any]] = {"verifier": verifier.healthy, "index": index_gate.ready}
    if isinstance(audit, ReconnectingAuditStore):
        health["audit_db"] = audit.healthy
    anchors = None
    if settings.audit_checkpoint_file is not None and settings.audit_public_key_file is not None:
        anchors = AnchorFiles(settings.audit_checkpoint_file, settings.audit_public_key_file)
        try:
            load_public_key(anchors.public_key)
        except (KeyFileError, ValueError) as exc:
            raise ResearchConfigError(f"ASAT_AUDIT_PUBLIC_KEY_FILE: {exc}") from exc
    generators = ProviderGenerators(seed=generation.seed, contradiction=contradiction)
    return ResearchService(pipeline, health, closers, anchors, settings.max_concurrent, generators, index_gate)
