"""The body of every error reply (4xx and 5xx) of every service, and how a refused value is worded.

A client reads ``message`` to show a person what went wrong and what to change; ``error`` is a
stable code to branch on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class ErrorBody(BaseModel):
    """Body of every error reply: a stable code, a message saying what to change, and details."""

    model_config = ConfigDict(frozen=True)

    error: str = Field(
        description="A stable code, e.g. 'invalid_request', 'request_too_large', 'bad_request', 'not_found', "
        "'dependency_unavailable' (503) or 'dependency_unusable' (502)."
    )
    message: str = Field(description="What was wrong and what to do, for a person.")
    limit: str | None = Field(default=None, description="For 413: the limit exceeded, e.g. 'max_claims'.")
    maximum: int | None = None
    actual: int | None = None
    details: list[str] = Field(default_factory=list, description="One line per refused field.")
    dependency: str | None = Field(
        default=None, description="For 502 and 503: the service or store that is down or answered unusably."
    )


def error_location(loc: Iterable[object]) -> str:
    """``("body", "claims", 0, "id")`` as ``claims.0.id`` (``body`` when nothing else is left)."""
    parts = [str(part) for part in loc if part != "body"]
    return ".".join(parts) or "body"


def error_details(errors: Sequence[Mapping[str, Any]]) -> list[str]:
    """One ``where: what`` line per error of a pydantic/FastAPI validation error list."""
    return [f"{error_location(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in errors]


def describe_validation_error(exc: ValidationError, shown: int = 3) -> str:
    """The first ``shown`` problems of ``exc`` on one line, each naming the field."""
    details = error_details(exc.errors())
    more = f" (and {len(details) - shown} more)" if len(details) > shown else ""
    return "; ".join(details[:shown]) + more
