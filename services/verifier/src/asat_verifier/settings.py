"""The verifier's settings, read from the environment in one place (``composition``).

A bad value is a :class:`~asat_corpus.env_settings.SettingsError` naming the variable and what
is allowed; ``composition`` turns these into the plain :class:`~asat_verifier.config.VerifierConfig`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from asat_corpus.env_settings import HOST_ALLOWED, PORT_ALLOWED, EnvSettings, Port
from asat_verifier.config import HHEM_CONSISTENT_LABEL, ScorerName
from asat_verifier.groundedness.deterministic import DEFAULT_MIN_OVERLAP
from asat_verifier.limits import Limits

AT_LEAST_ONE = "a whole number, at least 1"
FRACTION = "a number from 0 to 1"


class VerifierSettings(EnvSettings):
    scorer: ScorerName = Field(
        default=ScorerName.DETERMINISTIC,
        validation_alias="ASAT_GROUNDEDNESS",
        description=f"one of {', '.join(name.value for name in ScorerName)}",
    )
    model_path: Path | None = Field(
        default=None, validation_alias="ASAT_GROUNDEDNESS_MODEL", description="a local model directory"
    )
    entailed_label: int = Field(
        default=HHEM_CONSISTENT_LABEL,
        ge=0,
        validation_alias="ASAT_GROUNDEDNESS_ENTAILED_LABEL",
        description="the index of the model's 'entailed' output, a whole number from 0",
    )
    threshold: float = Field(
        default=0.5, ge=0.0, le=1.0, validation_alias="ASAT_GROUNDEDNESS_THRESHOLD", description=FRACTION
    )
    prompt: str | None = Field(
        default=None,
        validation_alias="ASAT_GROUNDEDNESS_PROMPT",
        description="a template with {premise} and {hypothesis}",
    )
    trust_remote_code: Literal["0", "1"] = Field(
        default="0",
        validation_alias="ASAT_GROUNDEDNESS_TRUST_REMOTE_CODE",
        description="1 to run code shipped with the model (e.g. HHEM), 0 not to",
    )
    min_overlap: float = Field(
        default=DEFAULT_MIN_OVERLAP,
        ge=0.0,
        le=1.0,
        validation_alias="ASAT_GROUNDEDNESS_MIN_OVERLAP",
        description=FRACTION,
    )
    max_body_bytes: int = Field(
        default=Limits.max_body_bytes, ge=1, validation_alias="ASAT_VERIFIER_MAX_BODY_BYTES", description=AT_LEAST_ONE
    )
    max_claims: int = Field(
        default=Limits.max_claims, ge=1, validation_alias="ASAT_VERIFIER_MAX_CLAIMS", description=AT_LEAST_ONE
    )
    max_sources: int = Field(
        default=Limits.max_sources, ge=1, validation_alias="ASAT_VERIFIER_MAX_SOURCES", description=AT_LEAST_ONE
    )
    max_quotes_per_claim: int = Field(
        default=Limits.max_quotes_per_claim,
        ge=1,
        validation_alias="ASAT_VERIFIER_MAX_QUOTES_PER_CLAIM",
        description=AT_LEAST_ONE,
    )
    host: str = Field(default="127.0.0.1", validation_alias="ASAT_VERIFIER_HOST", description=HOST_ALLOWED)
    port: Port = Field(default=8710, validation_alias="ASAT_VERIFIER_PORT", description=PORT_ALLOWED)
