"""``python -m asat_research serve [--host H] [--port P]``: the research service."""

from __future__ import annotations

import argparse
import os
import sys

from asat_research.audit.store import AuditStartupError
from asat_research.composition import ResearchConfigError, build_service


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m asat_research")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve POST /v1/research")
    serve.add_argument("--host", default=os.environ.get("ASAT_RESEARCH_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("ASAT_RESEARCH_PORT", "8730")))
    args = parser.parse_args()
    try:
        service = build_service()
    except (ResearchConfigError, AuditStartupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    from asat_research.api import create_app

    try:
        uvicorn.run(create_app(service.pipeline, service.health), host=args.host, port=args.port, log_level="warning")
    finally:
        service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
