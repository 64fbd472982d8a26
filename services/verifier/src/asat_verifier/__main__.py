"""``python -m asat_verifier``: serve the verifier on ASAT_VERIFIER_HOST:ASAT_VERIFIER_PORT."""

from __future__ import annotations

import uvicorn

from asat_verifier.composition import config_from_env, create_app


def main() -> None:
    config = config_from_env()
    uvicorn.run(create_app(config), host=config.host, port=config.port)


if __name__ == "__main__":
    main()
