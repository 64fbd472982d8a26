"""``POST /v1/provider/check`` of the research service: probe a generation provider's settings.

The web's provider settings page (owners only) sends a practice's saved settings, with the API
key read back from its sealed secret, over the service-token-guarded channel; research runs its
provider probe (``asat_research.provider_probe``) against exactly those settings and answers
with the probe's report. The key is a ``SecretStr``: its ``repr`` and ``str`` are masked, it is
never echoed back, and the report never contains it.

:class:`GenerationProvider` is the same settings as the optional ``provider`` of a research
request (``ResearchRequest``, ``AcrossYearsRequest``): the practice's own provider (bring your own
key), which research answers that request with instead of its ``ASAT_GENERATION_*`` generator.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

# ``asat_research.generation.factory.PROVIDERS`` (a test of research keeps them equal); the
# accounts library checks a saved provider against this too.
PROVIDERS: tuple[str, ...] = ("extractive", "openai_compatible", "aggregator", "anthropic", "ollama")
ProviderName = Literal["extractive", "openai_compatible", "aggregator", "anthropic", "ollama"]
MAX_BASE_URL_CHARS = 500
MAX_MODEL_CHARS = 200
MAX_KEY_CHARS = 16_384
MAX_CHECK_TIMEOUT_S = 120.0


def http_url(base_url: str) -> str:
    """An http(s) API root with a host (empty: the adapter's default); no value echoed."""
    url = base_url.strip()
    if not url:
        return url
    try:
        parts = urlsplit(url)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port out of range, a broken IPv6 literal
        usable = False
    if not usable or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        raise ValueError("is not an http(s) URL with a host: give the API root, e.g. https://api.openai.com/v1")
    return url


def printable_model(model: str) -> str:
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in model):
        raise ValueError("contains a control character: give the model name as the provider lists it")
    return model.strip()


def header_safe_key(key: SecretStr | None) -> SecretStr | None:
    """The key goes in a request header: a space or control character (a pasted line break)
    would break it, and a header carries ASCII only; refused without saying what the key is."""
    if key is None:
        return None
    value = key.get_secret_value().strip()
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise ValueError("contains a space or control character: save the key again without it")
    if not value.isascii():
        raise ValueError("contains a character that is not ASCII (a request header carries ASCII only): check the key")
    return SecretStr(value) if value else None


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

    # The same checks as a practice's provider: one set of rules for both.
    _base_url = field_validator("base_url")(lambda v: http_url(v))
    _model = field_validator("model")(lambda v: printable_model(v))
    _key = field_validator("api_key")(lambda v: header_safe_key(v))


class GenerationProvider(BaseModel):
    """A practice's own generation provider, for one research request: which adapter, its base URL
    and model, and its API key, as ``ASAT_GENERATION_PROVIDER``, ``_BASE_URL``, ``_MODEL`` and
    ``_API_KEY`` give research's own (empty: unset; the adapter's default where it has one).

    Only the web sends it, from the signed-in practice's saved settings with the key read back from
    its sealed secret at request time, over the service-token-guarded channel (research trusts its
    caller, as it does ``asked_by``). The key is a ``SecretStr``: masked in ``repr``, ``str`` and
    every dump (it never serialises back; :meth:`wire` is the one way out, for the sender), never
    logged and never in the audit row, which records the provider label and model as reported.
    No value is echoed in a refusal: a base URL may carry ``user:password@``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ProviderName = Field(description="The generation adapter.")
    base_url: str = Field(default="", max_length=MAX_BASE_URL_CHARS, description="The API root; empty: the default.")
    model: str = Field(default="", max_length=MAX_MODEL_CHARS, description="The model the provider serves.")
    api_key: SecretStr | None = Field(
        default=None, max_length=MAX_KEY_CHARS, description="The API key (never echoed back, logged or audited)."
    )

    _base_url = field_validator("base_url")(lambda v: http_url(v))
    _model = field_validator("model")(lambda v: printable_model(v))
    _key = field_validator("api_key")(lambda v: header_safe_key(v))

    def wire(self) -> dict[str, Any]:
        """The JSON research reads, the key revealed: for the caller that sends it (the web, at
        request time), never for a reply, a page or a log line."""
        body: dict[str, Any] = {"kind": self.kind, "base_url": self.base_url, "model": self.model}
        if self.api_key is not None:
            body["api_key"] = self.api_key.get_secret_value()
        return body


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
