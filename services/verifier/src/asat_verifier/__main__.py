"""``python -m asat_verifier``: serve the verifier on ASAT_VERIFIER_HOST:ASAT_VERIFIER_PORT."""

from __future__ import annotations

import os
import sys

import uvicorn

from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_verifier.composition import ConfigError, config_from_env, create_app


def main() -> int:
    """Serve; a bad setting (``ASAT_SERVICE_TOKEN`` missing or short included) is a one-line error
    naming the variable (exit 2), never a traceback, and never a verifier open to anyone."""
    try:
        config = config_from_env()
        token = read_service_token(os.environ)
        app = create_app(config, service_token=token)
    except (ConfigError, ServiceTokenError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=config.host, port=config.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
