"""The one place the verifier's adapters are built, from the environment.

Environment (all optional):

- ``ASAT_GROUNDEDNESS``: ``deterministic`` (default) or ``nli``; anything else refuses to start.
- ``ASAT_GROUNDEDNESS_MODEL``: local model directory, required for ``nli``; must exist.
- ``ASAT_GROUNDEDNESS_ENTAILED_LABEL`` (default 1, HHEM's "consistent"), ``ASAT_GROUNDEDNESS_THRESHOLD``
  (0.5), ``ASAT_GROUNDEDNESS_PROMPT`` (template with ``{premise}`` and ``{hypothesis}``),
  ``ASAT_GROUNDEDNESS_TRUST_REMOTE_CODE`` (``1`` to run code shipped with the model, e.g. HHEM).
- ``ASAT_GROUNDEDNESS_MIN_OVERLAP``: deterministic scorer's content-word overlap (0.5).
- ``ASAT_VERIFIER_MAX_BODY_BYTES`` (2000000), ``ASAT_VERIFIER_MAX_CLAIMS`` (100),
  ``ASAT_VERIFIER_MAX_SOURCES`` (200), ``ASAT_VERIFIER_MAX_QUOTES_PER_CLAIM`` (20).
- ``ASAT_VERIFIER_HOST`` (127.0.0.1), ``ASAT_VERIFIER_PORT`` (8710).
- ``ASAT_SERVICE_TOKEN``: required by ``python -m asat_verifier`` (``asat_corpus.service_token``).

Read as one :class:`~asat_verifier.settings.VerifierSettings`: a bad value is a
:class:`ConfigError` naming the variable and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from fastapi import FastAPI

from asat_corpus.env_settings import SettingsError, read_settings
from asat_verifier.api import build_app
from asat_verifier.config import NliSettings, ScorerName, VerifierConfig
from asat_verifier.groundedness.deterministic import DeterministicScorer
from asat_verifier.groundedness.port import GroundednessScorer
from asat_verifier.limits import Limits
from asat_verifier.settings import VerifierSettings


class ConfigError(ValueError):
    """The environment does not describe a verifier that can start; the message says what to set."""


def config_from_env(env: Mapping[str, str] | None = None) -> VerifierConfig:
    """Read the configuration; raise ConfigError on an unknown scorer or a missing model path."""
    try:
        settings = read_settings(VerifierSettings, os.environ if env is None else env)
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    nli: NliSettings | None = None
    if settings.scorer is ScorerName.NLI:
        model_path = settings.model_path
        if model_path is None:
            raise ConfigError("ASAT_GROUNDEDNESS=nli needs ASAT_GROUNDEDNESS_MODEL, a local model directory")
        if not model_path.is_dir():
            raise ConfigError(
                f"ASAT_GROUNDEDNESS_MODEL={str(model_path)!r} does not exist or is not a directory; "
                "models are never downloaded: point it at a model saved on this machine"
            )
        nli = NliSettings(
            model_path=model_path,
            entailed_label=settings.entailed_label,
            threshold=settings.threshold,
            prompt=settings.prompt,
            trust_remote_code=settings.trust_remote_code == "1",
        )
    limits = Limits(
        max_body_bytes=settings.max_body_bytes,
        max_claims=settings.max_claims,
        max_sources=settings.max_sources,
        max_quotes_per_claim=settings.max_quotes_per_claim,
    )
    return VerifierConfig(
        scorer=settings.scorer,
        nli=nli,
        min_overlap=settings.min_overlap,
        limits=limits,
        host=settings.host,
        port=settings.port,
    )


def build_scorer(config: VerifierConfig) -> GroundednessScorer:
    """The groundedness adapter the configuration names (the NLI one loads its model now)."""
    if config.scorer is ScorerName.DETERMINISTIC:
        return DeterministicScorer(min_overlap=config.min_overlap)
    if config.nli is None:
        raise ConfigError("the nli scorer needs NLI settings with a model path (ASAT_GROUNDEDNESS_MODEL)")
    try:
        from asat_verifier.groundedness.nli import NliScorer
    except ImportError as error:
        raise ConfigError(
            f"the nli scorer needs torch and transformers ({error}): install asat-verifier[nli]"
        ) from error
    return NliScorer(config.nli)


def create_app(config: VerifierConfig | None = None, service_token: str | None = None) -> FastAPI:
    """The verifier app for ``config`` (read from the environment when not given); with
    ``service_token``, every request but ``/healthz`` must carry it (``python -m asat_verifier``
    always passes ``ASAT_SERVICE_TOKEN``; ``None`` is for in-process tests)."""
    config = config_from_env() if config is None else config
    return build_app(build_scorer(config), config.limits, service_token)
