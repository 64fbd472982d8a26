"""``python -m asat_web``: serve the research workspace (ASAT_WEB_HOST / ASAT_WEB_PORT).

The accounts (users, sessions, clients, provider settings) are in Postgres: ``ASAT_DATABASE_URL``
(the app role) and ``ASAT_SECRET_KEY`` (for the provider key); the web refuses to start, saying
why, when the store would not be safe or the schema is behind (``python -m asat_accounts migrate``).
"""

from __future__ import annotations

import os
import sys


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

    app = create_app(settings, accounts=accounts)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
