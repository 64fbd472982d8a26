"""What a failing dependency's error may say in a reply (pure, with the full text logged).

A provider's or the database's own error text can quote a key, a connection string or a user
name; it goes to the research service's log in full, under a short reference, and the reply says
which dependency failed and the reference. Other services' errors (ingest, the verifier) are our
own texts: they are kept, with any credential-looking part masked.

:func:`mask_credentials_in_client_logs` does the same to the HTTP clients' own log lines (httpx
logs each request's URL, with a base URL's ``user:password@``, at INFO): a practice's provider
settings are never written to a log as given.
"""

from __future__ import annotations

import logging
import uuid

from asat_corpus.redaction import redact_credentials

LOG = logging.getLogger("asat_research.errors")
# Dependencies whose error texts are someone else's (a model provider, Postgres): never replied.
OPAQUE = ("generator", "audit log (Postgres)")


def reply_text(dependency: str, full: str) -> str:
    """The text a reply may carry for ``dependency`` failing with ``full``."""
    if not any(dependency.startswith(name) for name in OPAQUE):
        return redact_credentials(full)
    reference = uuid.uuid4().hex[:12]
    LOG.error("%s failed (reference %s): %s", dependency, reference, full)
    return (
        f"{dependency} unavailable: its error is in the research service's log under reference {reference} "
        "(an operator can look it up; the generator's and database's own texts are not shown here)"
    )


# The loggers of the HTTP clients the generation adapters use (httpx, and the SDKs' own).
HTTP_CLIENT_LOGGERS = ("httpx", "httpx2", "openai", "anthropic", "ollama")


class CredentialsMasked(logging.Filter):
    """Masks credentials (``redact_credentials``) in every record of the logger it is added to."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = redact_credentials(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def mask_credentials_in_client_logs() -> None:
    """Adds :class:`CredentialsMasked` to the HTTP clients' loggers (once each)."""
    for name in HTTP_CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, CredentialsMasked) for f in logger.filters):
            logger.addFilter(CredentialsMasked())
