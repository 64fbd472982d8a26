"""How a generation provider is named in the record: the adapter and the host it asked."""

from __future__ import annotations

from urllib.parse import urlsplit

from asat_corpus.redaction import redact_credentials, url_without_credentials


def provider_label(adapter: str, base_url: str) -> str:
    """``("aggregator", "https://openrouter.ai/api/v1")`` -> ``"aggregator:openrouter.ai"``; never
    the ``user:password@`` of a URL (the label is shown and audited)."""
    host = urlsplit(url_without_credentials(base_url)).netloc or redact_credentials(base_url)
    return f"{adapter}:{host}"
