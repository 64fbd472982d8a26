"""How a generation provider is named in the record: the adapter and the host it asked."""

from __future__ import annotations

from urllib.parse import urlsplit


def provider_label(adapter: str, base_url: str) -> str:
    """``("aggregator", "https://openrouter.ai/api/v1")`` -> ``"aggregator:openrouter.ai"``."""
    host = urlsplit(base_url).netloc or base_url
    return f"{adapter}:{host}"
