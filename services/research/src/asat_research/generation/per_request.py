"""The generator of a research request's own provider (``ResearchRequest.provider``).

A practice may save its own generation provider (bring your own key); the web sends it with each
research request and research answers that request with it, through the same pipeline (the same
verification, gate and audit). :func:`request_settings` reads the request's settings into the
factory's :class:`~asat_research.generation.factory.GenerationSettings` and
:func:`~asat_research.generation.factory.generator_from` builds the generator: the one code path
research's own ``ASAT_GENERATION_*`` generator is built by, its refusals naming the request's
fields (``provider.model``, ``provider.api_key`` ...) and never quoting the key.

:class:`ProviderGenerators` keeps the generators built, per (kind, base URL, model, key digest),
the least recently used dropped beyond a small bound, so a practice's client (and its
connections) is reused from one question to the next. The digest is an HMAC under a key made
for the process: the cache holds no key, nor anything to test a guessed key against elsewhere.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable

from asat_corpus.contracts.provider import GenerationProvider
from asat_research.generation.factory import (
    GenerationConfigError,
    GenerationSettings,
    SettingNames,
    generator_from,
)
from asat_research.generation.port import Generator
from asat_research.generation.two_pass import DEFAULT_SEED
from asat_research.premise.contradiction_port import ContradictionScorer

# The request's fields, as a refusal names them (the 422 of research's routes).
REQUEST_NAMES = SettingNames("provider.kind", "provider.base_url", "provider.model", "provider.api_key")
DEFAULT_MAX_GENERATORS = 16
CacheKey = tuple[str, str, str, str]


def request_settings(provider: GenerationProvider, seed: int = DEFAULT_SEED) -> GenerationSettings:
    """The factory's settings for the request's provider (the key revealed for the adapter only);
    the seed is research's own (``ASAT_GENERATION_SEED``)."""
    key = provider.api_key.get_secret_value() if provider.api_key is not None else ""
    return GenerationSettings(
        provider=provider.kind,
        base_url=provider.base_url.strip(),
        model=provider.model.strip(),
        api_key=key.strip(),
        seed=seed,
    )


def request_generator(settings: GenerationSettings, contradiction: ContradictionScorer | None = None) -> Generator:
    """:func:`generator_from` with the request's field names (the extractive generator reading
    premises with ``contradiction``, as research's own); an adapter that cannot be built from what
    passed the contract is refused the same way, without its error text (it may quote the URL)."""
    try:
        return generator_from(settings, REQUEST_NAMES, contradiction)
    except GenerationConfigError:
        raise
    except (ValueError, TypeError) as exc:
        raise GenerationConfigError(
            f"provider.kind={settings.provider}: the adapter cannot be built from provider.base_url and "
            f"provider.model ({type(exc).__name__}); check them under Settings → Provider."
        ) from None


class ProviderGenerators:
    """Generators for requests' own providers, built once per settings and kept (bounded, LRU)."""

    def __init__(
        self,
        seed: int = DEFAULT_SEED,
        max_size: int = DEFAULT_MAX_GENERATORS,
        build: Callable[[GenerationSettings], Generator] | None = None,
        contradiction: ContradictionScorer | None = None,
    ) -> None:
        """``seed``: research's ``ASAT_GENERATION_SEED``; ``build``: how a generator is made from
        settings (replaceable in tests; by default :func:`request_generator` with ``contradiction``,
        the model research's own extractive generator reads premises with)."""
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        self.seed = seed
        self.max_size = max_size
        self._build = build if build is not None else (lambda settings: request_generator(settings, contradiction))
        self._digest_key = secrets.token_bytes(32)
        self._generators: OrderedDict[CacheKey, Generator] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._generators)

    def get(self, provider: GenerationProvider) -> Generator:
        """The generator for ``provider``, built on first use; raises :class:`GenerationConfigError`
        (a 422 naming the field) for settings it cannot be built from."""
        settings = request_settings(provider, self.seed)
        key = self._key(settings)
        with self._lock:
            found = self._generators.get(key)
            if found is not None:
                self._generators.move_to_end(key)
                return found
        built = self._build(settings)  # outside the lock: building a client may take a moment
        with self._lock:
            found = self._generators.setdefault(key, built)
            self._generators.move_to_end(key)
            while len(self._generators) > self.max_size:
                self._generators.popitem(last=False)
            return found

    def _key(self, settings: GenerationSettings) -> CacheKey:
        digest = hmac.new(self._digest_key, settings.api_key.encode("utf-8"), hashlib.sha256).hexdigest()
        return (settings.provider, settings.base_url, settings.model, digest)
