"""``python -m asat_research serve [--host H] [--port P]``: the research service.

``--host`` and ``--port`` default to ``ASAT_RESEARCH_HOST`` and ``ASAT_RESEARCH_PORT``; a bad
setting is a one-line error naming the variable and what is allowed (exit 2), never a traceback.
``ASAT_SERVICE_TOKEN`` is required: every request but ``/healthz`` must carry it, and research
sends it to ingest and the verifier.
"""

from __future__ import annotations

import argparse
import os
import sys

from asat_audit.store import AuditStartupError
from asat_corpus.env_settings import port_argument
from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_research.composition import ResearchConfigError, build_service, read_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asat_research")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve POST /v1/research")
    serve.add_argument("--host", help="default: ASAT_RESEARCH_HOST, else 127.0.0.1")
    serve.add_argument("--port", type=port_argument, help="default: ASAT_RESEARCH_PORT, else 8730")
    args = parser.parse_args(argv)
    try:
        settings = read_settings(os.environ)
        host, port = args.host or settings.host, args.port or settings.port
        token = read_service_token(os.environ)
        service = build_service()
    except (ResearchConfigError, ServiceTokenError, AuditStartupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from asat_corpus.startup_gc import freeze_startup_objects
    from asat_research.api import create_app

    app = create_app(
        service.pipeline,
        service.health,
        service.anchors,
        service.max_concurrent,
        service_token=token,
        generators=service.generators,
        index_gate=service.index_gate,
    )
    freeze_startup_objects()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
        )
    finally:
        service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
