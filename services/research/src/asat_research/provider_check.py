"""``POST /v1/provider/check``: the provider probe run against settings given in the request.

The web's provider settings page sends a practice's saved provider (kind, base URL, model and the
key read back from its sealed secret); this runs exactly the probe ``python -m
asat_research.provider_probe`` runs, over those settings instead of research's environment, and
returns its report. The key is used for the probe's own requests only: it is in no reply (any
text that would carry it, such as a provider's error message echoing it, has it replaced) and is
never logged.
"""

from __future__ import annotations

from typing import Any

from asat_corpus.contracts.provider import ProviderCheckReply, ProviderCheckRequest
from asat_corpus.redaction import redact_credentials
from asat_research.generation.factory import API_KEY, BASE_URL, MODEL, PROVIDER
from asat_research.key_scrub import without_key
from asat_research.probe.report import as_json
from asat_research.provider_probe import probe

# The reply's free texts, where a provider's message (or a URL) may quote the key; the enums are left alone.
FREE_TEXT = frozenset({"provider", "endpoint", "model", "summary", "detail"})


def probe_env(request: ProviderCheckRequest) -> dict[str, str]:
    """The settings as the ``ASAT_GENERATION_*`` variables the probe reads (empty ones left out)."""
    env: dict[str, str] = {PROVIDER: str(request.provider)}
    for name, value in ((BASE_URL, request.base_url), (MODEL, request.model)):
        if value.strip():
            env[name] = value.strip()
    if request.api_key is not None and request.api_key.get_secret_value().strip():
        env[API_KEY] = request.api_key.get_secret_value().strip()
    return env


def check_provider(request: ProviderCheckRequest) -> ProviderCheckReply:
    """The probe's report for ``request``'s settings, with the key nowhere in it."""
    report = as_json(probe(probe_env(request), request.timeout_s))
    key = request.api_key.get_secret_value().strip() if request.api_key is not None else ""
    return ProviderCheckReply.model_validate(_scrubbed(report, key))


def _scrubbed(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        return {
            name: redact_credentials(without_key(item, key))
            if name in FREE_TEXT and isinstance(item, str)
            else _scrubbed(item, key)
            for name, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [_scrubbed(item, key) for item in value]
    return value
