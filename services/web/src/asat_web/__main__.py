"""``python -m asat_web``: serve the research workspace (ASAT_WEB_HOST / ASAT_WEB_PORT).

The accounts (users, sessions, clients, provider settings) are in Postgres: ``ASAT_DATABASE_URL``
(the app role) and ``ASAT_SECRET_KEY`` (for the provider key); the web refuses to start, saying
why, when the store would not be safe or the schema is behind (``python -m asat_accounts migrate``).

The connections (Settings → Connections, Push to Xero; ``asat_connections``) are built from the
same environment (``ASAT_XERO_*``, ``ASAT_HUBSPOT_API_URL``, ``ASAT_APP_URL``; the connection
tables of the same database). When they cannot be (a bad setting, the tables missing), the web
still starts, says why on stderr, and the Connections page and the Push form say it too.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from asat_connections import Connections


def main() -> int:
    from asat_accounts import AccountsStartupError, PostgresAccountsStore, SecretKeyError
    from asat_corpus.service_token import ServiceTokenError, read_service_token
    from asat_web.settings import WebConfigError, settings_from_env

    try:
        settings = settings_from_env(os.environ)
        # Research and extraction refuse every request without the service token: no token, no start.
        read_service_token(os.environ)
        accounts = PostgresAccountsStore.from_env(os.environ)
    except (WebConfigError, ServiceTokenError, AccountsStartupError, SecretKeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from asat_web.app import create_app

    connections, problem = _connections(settings.extraction_url, settings.service_token, accounts)
    if connections is None:
        print(f"warning: {problem}", file=sys.stderr)
    app = create_app(settings, accounts=accounts, connections=connections, connections_problem=problem)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    return 0


def _connections(extraction_url: str, service_token: str | None, accounts: Any) -> tuple[Connections | None, str]:
    """The connections of the environment, or ``None`` and why not (shown on the pages)."""
    from asat_connections import (
        ConnectionsStartupError,
        HttpTransactionSource,
        PostgresConnectionsStore,
        build_connections,
        install,
        read_connections_settings,
    )
    from asat_corpus.env_settings import SettingsError

    try:
        settings = read_connections_settings(os.environ)
        store = PostgresConnectionsStore.from_env(os.environ)
    except (SettingsError, ConnectionsStartupError) as exc:
        return None, f"Connections are not available on this server: {exc}"
    for target in (logging.getLogger(), logging.getLogger("asat_connections"), logging.getLogger("httpx")):
        install(target)  # masks any token that reaches a log line
    for handler in logging.getLogger().handlers:
        install(handler)
    source = HttpTransactionSource(extraction_url, service_token)
    return build_connections(settings, accounts, store, source), ""


if __name__ == "__main__":
    sys.exit(main())
