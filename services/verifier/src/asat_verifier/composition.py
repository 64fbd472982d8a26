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
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from fastapi import FastAPI

from asat_verifier.api import build_app
from asat_verifier.config import HHEM_CONSISTENT_LABEL, NliSettings, ScorerName, VerifierConfig
from asat_verifier.groundedness.deterministic import DEFAULT_MIN_OVERLAP, DeterministicScorer
from asat_verifier.groundedness.port import GroundednessScorer
from asat_verifier.limits import Limits


class ConfigError(ValueError):
    """The environment does not describe a verifier that can start; the message says what to set."""


def _integer(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer") from None
    if value < 1:
        raise ConfigError(f"{name}={raw!r} must be at least 1")
    return value


def _fraction(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name}={raw!r} must be between 0 and 1")
    return value


def config_from_env(env: Mapping[str, str] | None = None) -> VerifierConfig:
    """Read the configuration; raise ConfigError on an unknown scorer or a missing model path."""
    env = os.environ if env is None else env
    raw_scorer = env.get("ASAT_GROUNDEDNESS", "").strip() or ScorerName.DETERMINISTIC.value
    try:
        scorer = ScorerName(raw_scorer)
    except ValueError:
        known = ", ".join(name.value for name in ScorerName)
        raise ConfigError(f"ASAT_GROUNDEDNESS={raw_scorer!r} is not a known scorer; use one of: {known}") from None

    nli: NliSettings | None = None
    if scorer is ScorerName.NLI:
        raw_path = env.get("ASAT_GROUNDEDNESS_MODEL", "").strip()
        if not raw_path:
            raise ConfigError("ASAT_GROUNDEDNESS=nli needs ASAT_GROUNDEDNESS_MODEL, a local model directory")
        model_path = Path(raw_path)
        if not model_path.is_dir():
            raise ConfigError(
                f"ASAT_GROUNDEDNESS_MODEL={raw_path!r} does not exist or is not a directory; "
                "models are never downloaded: point it at a model saved on this machine"
            )
        raw_label = env.get("ASAT_GROUNDEDNESS_ENTAILED_LABEL", "").strip()
        try:
            entailed_label = int(raw_label) if raw_label else HHEM_CONSISTENT_LABEL
        except ValueError:
            raise ConfigError(f"ASAT_GROUNDEDNESS_ENTAILED_LABEL={raw_label!r} is not an integer") from None
        nli = NliSettings(
            model_path=model_path,
            entailed_label=entailed_label,
            threshold=_fraction(env, "ASAT_GROUNDEDNESS_THRESHOLD", 0.5),
            prompt=env.get("ASAT_GROUNDEDNESS_PROMPT") or None,
            trust_remote_code=env.get("ASAT_GROUNDEDNESS_TRUST_REMOTE_CODE", "").strip() == "1",
        )

    limits = Limits(
        max_body_bytes=_integer(env, "ASAT_VERIFIER_MAX_BODY_BYTES", Limits.max_body_bytes),
        max_claims=_integer(env, "ASAT_VERIFIER_MAX_CLAIMS", Limits.max_claims),
        max_sources=_integer(env, "ASAT_VERIFIER_MAX_SOURCES", Limits.max_sources),
        max_quotes_per_claim=_integer(env, "ASAT_VERIFIER_MAX_QUOTES_PER_CLAIM", Limits.max_quotes_per_claim),
    )
    return VerifierConfig(
        scorer=scorer,
        nli=nli,
        min_overlap=_fraction(env, "ASAT_GROUNDEDNESS_MIN_OVERLAP", DEFAULT_MIN_OVERLAP),
        limits=limits,
        host=env.get("ASAT_VERIFIER_HOST", "").strip() or "127.0.0.1",
        port=_integer(env, "ASAT_VERIFIER_PORT", 8710),
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


def create_app(config: VerifierConfig | None = None) -> FastAPI:
    """The verifier app for ``config`` (read from the environment when not given)."""
    config = config_from_env() if config is None else config
    return build_app(build_scorer(config), config.limits)
