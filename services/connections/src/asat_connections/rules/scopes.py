"""What a token's granted scopes lack (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def missing_scopes(required: Sequence[str], granted: Iterable[str]) -> tuple[str, ...]:
    """The scopes of ``required`` not in ``granted``, in ``required``'s order."""
    have = {scope.strip() for scope in granted}
    return tuple(scope for scope in required if scope not in have)
