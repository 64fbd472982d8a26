"""The research service's settings, read from the environment in one place.

Read by ``asat_research.composition`` (the adapters) and ``__main__`` (where to listen). A bad value
is a :class:`~asat_corpus.env_settings.SettingsError` naming the variable and what is allowed.
The generator's settings (``ASAT_GENERATION_*``, ``asat_research.generation.factory``) and the
index's (``ASAT_EMBEDDER``, ``ASAT_INDEX_ACTS``, ``ASAT_INDEX_RULINGS``, ``asat_corpus``) have
readers of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from asat_corpus.env_settings import HOST_ALLOWED, PORT_ALLOWED, EnvSettings, HttpUrl, Port, read_settings
from asat_research.deadline import DEFAULT_DEADLINE_S

RerankerName = Literal["domain", "hybrid", "embedding-cosine", "cross-encoder"]
RERANKERS: tuple[RerankerName, ...] = ("domain", "hybrid", "embedding-cosine", "cross-encoder")
SCORE_ALLOWED = "a number on the reranker's scale (measure it with scripts/calibrate_rerank_thresholds.py)"


class ResearchSettings(EnvSettings):
    host: str = Field(default="127.0.0.1", validation_alias="ASAT_RESEARCH_HOST", description=HOST_ALLOWED)
    port: Port = Field(default=8730, validation_alias="ASAT_RESEARCH_PORT", description=PORT_ALLOWED)
    ingest_url: HttpUrl = Field(
        default="http://127.0.0.1:8720",
        validation_alias="ASAT_INGEST_URL",
        description="the ingest (index) service's http(s) URL, e.g. http://127.0.0.1:8720",
    )
    verifier_url: HttpUrl = Field(
        default="http://127.0.0.1:8710",
        validation_alias="ASAT_VERIFIER_URL",
        description="the verifier's http(s) URL, e.g. http://127.0.0.1:8710",
    )
    database_url: str | None = Field(
        default=None,
        validation_alias="ASAT_DATABASE_URL",
        description="Postgres as the audit app role, e.g. postgresql://asat_app@127.0.0.1:5432/asat",
    )
    audit_checkpoint_file: Path | None = Field(
        default=None,
        validation_alias="ASAT_AUDIT_CHECKPOINT_FILE",
        description="the audit log's signed checkpoint file (read only), with ASAT_AUDIT_PUBLIC_KEY_FILE",
    )
    audit_public_key_file: Path | None = Field(
        default=None,
        validation_alias="ASAT_AUDIT_PUBLIC_KEY_FILE",
        description="the checkpoints' public key (PEM), with ASAT_AUDIT_CHECKPOINT_FILE; never the signing key",
    )
    max_concurrent: int = Field(
        default=32,
        ge=1,
        le=1024,
        validation_alias="ASAT_RESEARCH_MAX_CONCURRENT",
        description="the most questions answered at once (1 to 1024); one more is a 429 with Retry-After",
    )
    deadline_s: float = Field(
        default=DEFAULT_DEADLINE_S,
        gt=0,
        le=600,
        allow_inf_nan=False,
        validation_alias="ASAT_RESEARCH_DEADLINE_S",
        description=(
            "seconds a question's model calls may take (over 0, at most 600); past it the call is cancelled "
            "and the question ends in an audited abstention"
        ),
    )
    reranker: RerankerName = Field(
        default="domain", validation_alias="ASAT_RERANKER", description=f"one of {', '.join(RERANKERS)}"
    )
    reranker_model_dir: Path | None = Field(
        default=None,
        validation_alias="ASAT_RERANKER_MODEL_DIR",
        description="the domain ranker's directory (artifacts and model card)",
    )
    premise_model_dir: Path | None = Field(
        default=None,
        validation_alias="ASAT_PREMISE_MODEL_DIR",
        description="the contradiction model's directory (artifact, calibration and model card)",
    )
    reranker_model: Path | None = Field(
        default=None, validation_alias="ASAT_RERANKER_MODEL", description="the cross-encoder's local model directory"
    )
    gate_min_score: float | None = Field(
        default=None, validation_alias="ASAT_GATE_MIN_SCORE", description=SCORE_ALLOWED, allow_inf_nan=False
    )
    gate_corroboration_score: float | None = Field(
        default=None, validation_alias="ASAT_GATE_CORROBORATION_SCORE", description=SCORE_ALLOWED, allow_inf_nan=False
    )
    gate_gap_margin: float | None = Field(
        default=None, validation_alias="ASAT_GATE_GAP_MARGIN", description=SCORE_ALLOWED, allow_inf_nan=False
    )

    @model_validator(mode="after")
    def _anchors_together(self) -> ResearchSettings:
        if (self.audit_checkpoint_file is None) != (self.audit_public_key_file is None):
            raise ValueError(
                "ASAT_AUDIT_CHECKPOINT_FILE and ASAT_AUDIT_PUBLIC_KEY_FILE go together (the checkpoints and the key "
                "that checks them): set both, or neither"
            )
        return self


def research_settings(env: Mapping[str, str]) -> ResearchSettings:
    """The research service's settings; raises ``SettingsError`` naming a bad variable."""
    return read_settings(ResearchSettings, env)
