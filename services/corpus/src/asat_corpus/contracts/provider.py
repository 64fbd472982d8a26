"""``POST /v1/provider/check`` of the research service: probe a generation provider's settings.

The web's provider settings page (owners only) sends a practice's saved settings, with the API
key read back from its sealed secret, over the service-token-guarded channel; research runs its
provider probe (``asat_research.provider_probe``) against exactly those settings and answers
with the probe's report. The key is a ``SecretStr``: its ``repr`` and ``str`` are masked, it is
never echoed back, and the report never contains it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

# ``asat_research.generation.factory.PROVIDERS`` (a test of research keeps them equal); the
# accounts library checks a saved provider against this too.
PROVIDERS: tuple[str, ...] = ("extractive", "openai_compatible", "aggregator", "anthropic", "ollama")
ProviderName = Literal["extractive", "openai_compatible", "aggregator", "anthropic", "ollama"]
MAX_BASE_URL_CHARS = 500
MAX_MODEL_CHARS = 200
MAX_KEY_CHARS = 16_384
MAX_CHECK_TIMEOUT_S = 120.0


class ProviderCheckRequest(BaseModel):
    """The settings to probe: as ``ASAT_GENERATION_PROVIDER``, ``_BASE_URL``, ``_MODEL`` and
    ``_API_KEY`` would give them (empty: unset)."""

    model_config = ConfigDict(extra="forbid")

    provider: ProviderName = Field(description="The generation adapter.")
    base_url: str = Field(default="", max_length=MAX_BASE_URL_CHARS, description="The API root; empty: the default.")
    model: str = Field(default="", max_length=MAX_MODEL_CHARS, description="The model the provider serves.")
    api_key: SecretStr | None = Field(
        default=None, description="The API key (never echoed back, never logged).", max_length=MAX_KEY_CHARS
    )
    timeout_s: float = Field(default=30.0, gt=0, le=MAX_CHECK_TIMEOUT_S, description="Per request; no retries.")


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class ProviderCheckLine(_Reply):
    """One check of the probe: ``reachable``, ``model``, ``enum``, ``seed`` or ``two_pass``."""

    name: str
    status: Literal["pass", "weak", "fail", "info", "skipped"]
    detail: str


class ProviderCheckReply(_Reply):
    """The probe's report (what ``python -m asat_research.provider_probe --json`` prints)."""

    provider: str
    endpoint: str = Field(description="The base URL asked (the adapter's default where unset); empty when none.")
    model: str
    timeout_s: float
    verdict: Literal["ok", "weak", "unusable", "misconfigured", "nothing_to_probe"]
    exit_code: int = Field(description="0 ok or nothing to probe; 1 usable but weak; 2 unusable or misconfigured.")
    summary: str
    checks: tuple[ProviderCheckLine, ...]
