from __future__ import annotations

from asat_research.generation.provider_label import provider_label


def test_names_the_adapter_and_the_host_asked() -> None:
    assert provider_label("aggregator", "https://openrouter.ai/api/v1") == "aggregator:openrouter.ai"
    assert provider_label("ollama", "http://127.0.0.1:11434") == "ollama:127.0.0.1:11434"
    assert provider_label("openai_compatible", "localhost:8000") == "openai_compatible:localhost:8000"


def test_a_label_never_carries_credentials() -> None:
    assert provider_label("aggregator", "https://me:s3cretpassword@openrouter.ai/api/v1") == "aggregator:openrouter.ai"
