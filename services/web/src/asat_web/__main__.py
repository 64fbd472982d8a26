"""``python -m asat_web``: serve the research workspace (ASAT_WEB_HOST / ASAT_WEB_PORT)."""

from __future__ import annotations

import os
import sys


def main() -> int:
    from asat_corpus.service_token import ServiceTokenError, read_service_token
    from asat_web.settings import WebConfigError, settings_from_env

    try:
        settings = settings_from_env(os.environ)
        # Research and extraction refuse every request without the service token: no token, no start.
        read_service_token(os.environ)
    except (WebConfigError, ServiceTokenError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from asat_web.app import create_app

    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
