"""``python -m asat_ingest``: build the index, show its status, or serve it.

python -m asat_ingest build [--acts itaa1997,gst1999] [--rulings public|all|none] [--json]
python -m asat_ingest status [--json]
python -m asat_ingest serve [--host 127.0.0.1] [--port 8720] [--build-if-needed]   (needs ASAT_SERVICE_TOKEN)

``serve --build-if-needed`` (what ``make up`` runs): when the index cannot serve (missing,
incomplete, stale, another embedder's), a build starts at once in the background and the service
serves meanwhile: ``GET /healthz`` is a 503 ``building`` with the build's progress, searches are
refused (503 ``index_building``) until it is done, and a failed build is said in ``/healthz``,
``GET /v1/index`` and the log.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from asat_corpus.corpus_build import load_corpus
from asat_corpus.env_settings import port_argument
from asat_corpus.index_scope import IndexScope, RulingScope
from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_corpus.sources import SourcesError
from asat_ingest.build import BuildError, build_index, index_status
from asat_ingest.composition import (
    ConfigError,
    IngestConfig,
    build_cache,
    build_embedder,
    build_term_cache,
    config_from_env,
)
from asat_ingest.composition import build_index as open_index
from asat_ingest.embedder import EmbedderError
from asat_ingest.index_errors import VectorIndexError

EXIT_FAILED = 1
EXIT_USAGE = 2


class _Progress:
    """One self-overwriting line on stderr: phase, count, rate."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.last = 0.0
        self.phase = ""

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if phase != self.phase:
            if self.phase:
                sys.stderr.write("\n")
            self.phase = phase
        if now - self.last < 0.5 and done < total:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        sys.stderr.write(f"\r[asat_ingest] {phase}: {done}/{total} ({100 * done / max(total, 1):.0f}%, {rate:.1f}/s)")
        sys.stderr.flush()
        if done >= total:
            sys.stderr.write("\n")


def _scope(config: IngestConfig, acts: str | None, rulings: str | None) -> IndexScope:
    scope = config.scope
    if acts is not None:
        scope = replace(scope, acts=tuple(a.strip() for a in acts.split(",") if a.strip()) or None)
    if rulings is not None:
        scope = replace(scope, rulings=RulingScope(rulings))
    return scope


def _build(config: IngestConfig, as_json: bool) -> int:
    started = time.perf_counter()
    corpus = load_corpus(progress=lambda m: print(f"[asat_ingest] {m}", file=sys.stderr, flush=True))
    unknown = sorted(set(config.scope.acts or ()) - set(corpus.sources.acts))
    if unknown:
        print(f"error: unknown act(s) {', '.join(unknown)}; known: {', '.join(corpus.sources.acts)}", file=sys.stderr)
        return EXIT_USAGE
    index = open_index(config)
    cache = build_cache(config)
    term_cache = build_term_cache(config)
    try:
        summary = build_index(
            corpus,
            config.scope,
            config.vector_config,
            build_embedder(config),
            cache,
            term_cache,
            index,
            config.collection,
            _Progress(),
        )
    finally:
        index.close()
        cache.close()
        term_cache.close()
    result = summary.__dict__ | {"total_seconds": round(time.perf_counter() - started, 2)}
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"built {summary.points} points ({', '.join(f'{k} {v}' for k, v in sorted(summary.by_kind.items()))}) "
            f"in {summary.seconds:.1f}s; embedded {summary.embedded}, cache hits {summary.cache_hits}; "
            f"generation {summary.corpus_generation}"
        )
    return 0


def _status(config: IngestConfig, as_json: bool) -> int:
    corpus = load_corpus()
    from asat_ingest.build import generation_of

    expected = generation_of(list(corpus.index_items(config.scope)), config.vector_config)
    index = open_index(config)
    try:
        status = index_status(index.read_stamp(), expected, build_embedder(config).identity)
    finally:
        index.close()
    if as_json:
        print(json.dumps({"state": status.state.value, "message": status.message, "expected": expected}, indent=2))
    else:
        print(status.message)
    return 0 if status.ready else EXIT_FAILED


def _say(line: str) -> None:
    print(f"[asat_ingest] {line}", file=sys.stderr, flush=True)


def _serve(config: IngestConfig, host: str, port: int, build_if_needed: bool) -> int:
    import uvicorn

    from asat_corpus.startup_gc import freeze_startup_objects
    from asat_ingest.app import create_app
    from asat_ingest.runtime import IngestRuntime

    token = read_service_token(os.environ)  # never served open: no token, no start
    runtime = IngestRuntime(config, log=_say)
    status = runtime.status()
    _say(status.message)
    app = create_app(runtime, service_token=token)
    freeze_startup_objects()  # before a build allocates anything
    if build_if_needed and not status.ready:
        job = runtime.start_build()
        _say(f"building the index in the background (build {job.id}); serving meanwhile, searches refused until done")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        runtime.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m asat_ingest", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the index from the corpus (cached embeddings)")
    build.add_argument("--acts", help="comma-separated act slugs (default: ASAT_INDEX_ACTS or every Act)")
    build.add_argument(
        "--rulings", choices=[r.value for r in RulingScope], help="default: ASAT_INDEX_RULINGS or public"
    )
    build.add_argument("--json", action="store_true")
    status = sub.add_parser("status", help="is the index ready for the corpus as it is now?")
    status.add_argument("--json", action="store_true")
    serve = sub.add_parser("serve", help="serve builds and searches over HTTP")
    serve.add_argument("--host", help="default: ASAT_INGEST_HOST, else 127.0.0.1")
    serve.add_argument("--port", type=port_argument, help="default: ASAT_INGEST_PORT, else 8720")
    serve.add_argument(
        "--build-if-needed",
        action="store_true",
        help="when the index cannot serve, build it in the background at once (serving meanwhile; searches wait)",
    )
    args = parser.parse_args(argv)
    try:
        config = config_from_env()
        if args.command == "build":
            config = replace(config, scope=_scope(config, args.acts, args.rulings))
            return _build(config, args.json)
        if args.command == "status":
            return _status(config, args.json)
        return _serve(config, args.host or config.host, args.port or config.port, args.build_if_needed)
    except (ConfigError, ServiceTokenError, SourcesError, BuildError, EmbedderError, VectorIndexError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED if isinstance(exc, (BuildError, VectorIndexError)) else EXIT_USAGE
