"""``python -m asat_extraction extract FILE_OR_DIR... --out DIR [--json]``, ``serve`` and ``migrate``.

``extract`` writes ``DIR/<stem>.json`` per document (the extraction, or the error naming file and
cause), shows progress on stderr, and exits 1 when any document failed (the others are still
written), 2 on bad arguments or configuration. It reads files and stores nothing, so it needs no
database and no practice.

``migrate [--app-role NAME] [--existing-rows-practice ID]`` (the practice also from
``ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE``, which ``make up`` passes through) brings schema ``extraction`` up to
date as the owner role (``ASAT_EXTRACTION_MIGRATE_URL``, else ``ASAT_AUDIT_MIGRATE_URL``) and
grants the app role (``--app-role``, else ``ASAT_EXTRACTION_APP_ROLE``, ``ASAT_AUDIT_APP_ROLE``, or
the user of the service's URL) what the service needs: exit 0 done, 1 refused (the message says
why), 2 not configured or the database cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import psycopg

from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_extraction.composition import ConfigError, build_pipeline, config_from_env
from asat_extraction.config import ExtractionConfig
from asat_extraction.pipeline import Failed, Pipeline, Processed
from asat_extraction.schema import extraction_out
from asat_extraction.store.migrate import SCHEMA, MigrationError, latest_version, migrate


def _files(targets: Sequence[Path]) -> Iterator[Path]:
    for target in targets:
        if target.is_dir():
            yield from sorted(p for p in target.rglob("*") if p.is_file() and not p.name.endswith(".truth.json"))
        else:
            yield target


def result_json(path: Path, result: Processed | Failed) -> dict[str, object]:
    if isinstance(result, Failed):
        return {"file": str(path), "sha256": result.sha256, "status": "error", "cause": result.cause,
                "error": f"{path}: {result.message}"}  # fmt: skip
    return {
        "file": str(path),
        "sha256": result.sha256,
        "status": "ok",
        "media_type": result.media_type,
        "input_kind": result.input_kind.value,
        "seconds": round(result.seconds, 4),
        "extraction": extraction_out(result.extraction).model_dump(mode="json"),
    }


def _unique_stem(path: Path, used: set[str]) -> str:
    stem = path.stem or path.name
    candidate, n = stem, 2
    while candidate in used:
        candidate, n = f"{stem}-{n}", n + 1
    used.add(candidate)
    return candidate


def run_extract(pipeline: Pipeline, targets: Sequence[Path], out: Path, as_json: bool) -> int:
    missing = [t for t in targets if not t.exists()]
    if missing:
        print(f"error: not found: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    files = list(_files(targets))
    failed = 0
    used: set[str] = set()
    summary: list[dict[str, object]] = []
    for number, path in enumerate(files, start=1):
        try:
            data = path.read_bytes()
        except OSError as error:
            result: Processed | Failed = Failed(
                path.name, "", "unreadable", f"cannot read the file ({error.strerror})", 0.0
            )
        else:
            result = pipeline.process(path.name, data)
        body = result_json(path, result)
        (out / f"{_unique_stem(path, used)}.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        if isinstance(result, Failed):
            failed += 1
            print(f"[{number}/{len(files)}] FAILED {path}: {result.cause}: {result.message}", file=sys.stderr)
        else:
            warnings = len(result.extraction.warnings)
            print(f"[{number}/{len(files)}] ok {path} ({result.seconds:.2f} s, {warnings} warnings)", file=sys.stderr)
        summary.append(body)
    if as_json:
        print(json.dumps(summary, indent=2))
    print(f"{len(files) - failed} of {len(files)} documents extracted to {out}; {failed} failed", file=sys.stderr)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asat_extraction", description="Extract invoices and receipts.")
    commands = parser.add_subparsers(dest="command", required=True)
    extract = commands.add_parser("extract", help="extract documents to DIR/<stem>.json")
    extract.add_argument("targets", nargs="+", type=Path, metavar="FILE_OR_DIR")
    extract.add_argument("--out", type=Path, required=True, metavar="DIR")
    extract.add_argument("--json", action="store_true", help="also print every result as one JSON list on stdout")
    commands.add_parser("serve", help="serve the HTTP API on ASAT_EXTRACTION_HOST:ASAT_EXTRACTION_PORT")
    migrate_command = commands.add_parser(
        "migrate", help="bring schema extraction up to date as the owner role (ASAT_EXTRACTION_MIGRATE_URL)"
    )
    migrate_command.add_argument(
        "--app-role", metavar="NAME", help="the role the service connects as (default: ASAT_EXTRACTION_APP_ROLE)"
    )
    migrate_command.add_argument(
        "--existing-rows-practice",
        type=int,
        metavar="ID",
        help="the practice that owns documents stored before documents belonged to a practice (needed once, "
        "when there are any; default: ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE)",
    )
    args = parser.parse_args(argv)
    try:
        config = config_from_env()
        if args.command == "serve":
            return _serve(config)
        if args.command == "migrate":
            return _migrate(config, args.app_role, args.existing_rows_practice)
        pipeline = build_pipeline(config)
    except (ConfigError, ServiceTokenError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return run_extract(pipeline, args.targets, args.out, args.json)


def _migrate(config: ExtractionConfig, app_role: str | None, existing_rows_practice: int | None) -> int:
    if config.migrate_url is None:
        print(
            "error: no owner-role URL: set ASAT_EXTRACTION_MIGRATE_URL (or ASAT_AUDIT_MIGRATE_URL) to the URL of the "
            f"role that owns schema {SCHEMA}, e.g. postgresql://asat_owner@127.0.0.1:5432/asat",
            file=sys.stderr,
        )
        return 2
    role = app_role or config.app_role
    if not role:
        print(
            "error: no app role to grant: pass --app-role, or set ASAT_EXTRACTION_APP_ROLE (or "
            "ASAT_EXTRACTION_DATABASE_URL, whose user is the app role)",
            file=sys.stderr,
        )
        return 2
    try:
        applied = migrate(config.migrate_url, role, existing_rows_practice or config.existing_rows_practice)
    except MigrationError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except psycopg.Error as error:
        print(f"error: ASAT_EXTRACTION_MIGRATE_URL: cannot use the database: {str(error).strip()}", file=sys.stderr)
        return 2
    print(
        f"schema {SCHEMA}: {applied} migration(s) applied, now at {latest_version():04d}; app role {role} granted, "
        "under row-level security"
    )
    return 0


def _serve(config: ExtractionConfig) -> int:
    import uvicorn

    from asat_extraction.composition import create_app

    token = read_service_token(os.environ)  # never served open: no token, no start
    uvicorn.run(create_app(config, service_token=token), host=config.host, port=config.port)
    return 0
