"""Whether the model a reply names is the model that was asked for (pure).

Providers name a dated snapshot for an alias (``gpt-4o`` -> ``gpt-4o-2024-08-06``,
``claude-sonnet-4-5`` -> ``claude-sonnet-4-5-20250929``), add a tag (``llama3.1`` ->
``llama3.1:latest``) or a vendor prefix (``openai/gpt-4o``), and the OpenAI adapters append the
backend fingerprint. Those count as the same model; any other difference (``gpt-4o`` ->
``gpt-4o-mini``) does not.
"""

from __future__ import annotations

import re

_FINGERPRINT = re.compile(r"\s+\(system_fingerprint [^)]*\)$")
_SNAPSHOT = re.compile(r"^(-?\d{4}-\d{2}-\d{2}|-?\d{8}|-\d{4}|@\d{8})$")
_ALIAS_TAGS = (":latest", "-latest")


def reported_name(reported: str) -> str:
    """The model name as the reply gave it, without the adapter's fingerprint note."""
    return _FINGERPRINT.sub("", reported.strip())


def same_model(configured: str, reported: str) -> bool:
    asked, got = _normal(configured), _normal(reported_name(reported))
    if not asked or not got:
        return False
    if asked == got:
        return True
    return got.startswith(asked) and bool(_SNAPSHOT.match(got[len(asked) :]))


def _normal(name: str) -> str:
    name = name.strip().lower().rsplit("/", 1)[-1]
    for tag in _ALIAS_TAGS:
        if name.endswith(tag):
            return name[: -len(tag)]
    return name
