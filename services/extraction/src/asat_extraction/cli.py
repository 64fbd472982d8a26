"""``python -m asat_extraction extract FILE_OR_DIR... --out DIR [--json]``.

Writes ``DIR/<stem>.json`` per document (the extraction, or the error naming file and cause), shows
progress on stderr, and exits 1 when any document failed (the others are still written), 2 on bad
arguments or configuration.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from asat_corpus.service_token import ServiceTokenError, read_service_token
from asat_extraction.composition import ConfigError, build_pipeline, config_from_env
from asat_extraction.config import ExtractionConfig
from asat_extraction.pipeline import Failed, Pipeline, Processed
from asat_extraction.schema import extraction_out


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
    args = parser.parse_args(argv)
    try:
        config = config_from_env()
        if args.command == "serve":
            return _serve(config)
        pipeline = build_pipeline(config)
    except (ConfigError, ServiceTokenError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return run_extract(pipeline, args.targets, args.out, args.json)


def _serve(config: ExtractionConfig) -> int:
    import uvicorn

    from asat_extraction.composition import create_app

    token = read_service_token(os.environ)  # never served open: no token, no start
    uvicorn.run(create_app(config, service_token=token), host=config.host, port=config.port)
    return 0
