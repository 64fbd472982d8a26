"""A reply from another service that research cannot use: the API answers it with a 502.

The HTTP clients of ingest and the verifier raise a subclass of both their port's "unavailable"
error (so the pipeline stops and names the dependency, as for one that is down) and
:class:`UnusableReply` (so the API can tell "it answered, but with an error status or a body
that breaks its contract" — a 502 naming the service — from "it cannot be reached" — a 503).
"""

from __future__ import annotations

from typing import ClassVar


class UnusableReply(Exception):
    """``service`` answered with an error status or a reply that does not match its contract."""

    service: ClassVar[str] = "a service"


def unusable_cause(exc: BaseException) -> UnusableReply | None:
    """The :class:`UnusableReply` behind ``exc`` (itself, or the error it was raised from), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, UnusableReply):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
