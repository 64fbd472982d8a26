"""Where the web service listens and where it finds research (from the environment)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_RESEARCH_URL = "http://127.0.0.1:8730"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8740


class WebConfigError(ValueError):
    """A setting in the environment is unusable."""


@dataclass(frozen=True)
class WebSettings:
    research_url: str = DEFAULT_RESEARCH_URL
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    audit_rows: int = 50


def settings_from_env(env: Mapping[str, str]) -> WebSettings:
    url = env.get("ASAT_RESEARCH_URL", DEFAULT_RESEARCH_URL).strip()
    if not url.startswith(("http://", "https://")):
        raise WebConfigError(f"ASAT_RESEARCH_URL must be an http(s) URL such as {DEFAULT_RESEARCH_URL}, got {url!r}")
    raw_port = env.get("ASAT_WEB_PORT", str(DEFAULT_PORT))
    try:
        port = int(raw_port)
    except ValueError:
        raise WebConfigError(f"ASAT_WEB_PORT must be a port number, got {raw_port!r}") from None
    if not 0 < port < 65536:
        raise WebConfigError(f"ASAT_WEB_PORT must be between 1 and 65535, got {port}")
    return WebSettings(research_url=url, host=env.get("ASAT_WEB_HOST", DEFAULT_HOST), port=port)
