"""From a fresh clone to the first answered question, timed by stage; then a warm rebuild.

Cold: the repository is cloned into a scratch directory, with empty caches (its own
``XDG_CACHE_HOME``, so no vector is in the shared vector cache, and a new ``var/``, so the corpus
is parsed afresh); then ``make install`` (a new virtual environment; pip's own download cache is
left as it is: packages are the one thing fetched), ``make up`` (which returns while the index is
built in the background), the wait until research's ``GET /v1/index/status`` says ``ready``, and
the first question answered (``POST /v1/research``, decision ``answer``).

Warm: ``make down``, the index directory removed (the vector and parse caches kept), ``make up``
again, and the same wait and question: a rebuild after a code change.

With ``--shared-cache`` the clone uses this user's cache directory (``XDG_CACHE_HOME`` or
``~/.cache``) instead of an empty one: a second clone on a machine that has built the index before,
which embeds and tokenizes nothing it has done before (the first run is then labelled
``second_clone``).

The stack runs on its own ports (``--port-base``, default 18700) beside any other stack. The
default scope and embedder are the defaults of the clone (legislation and public rulings);
``--env NAME=VALUE`` sets more. The clone is removed at the end unless ``--keep``.

    .venv/bin/python scripts/bench_cold_start.py [--repo .] [--port-base 18700] [--env ASAT_EMBEDDER=minilm] [--shared-cache] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("verifier", "ingest", "research", "web", "extraction")
QUESTION = {
    "question": "What aggregated turnover made a business a small business entity in the 2015 income year?",
    "income_year": 2015,
}
ANSWERED = frozenset({"answer", "answer_as_then_stood"})


@dataclass
class Run:
    label: str
    stages: dict[str, float] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        return round(sum(self.stages.values()), 1)


def timed(run: Run, stage: str, work: Callable[[], Any]) -> Any:
    print(f"[{run.label}] {stage} ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    value = work()
    run.stages[stage] = round(time.monotonic() - started, 1)
    print(f"[{run.label}] {stage}: {run.stages[stage]} s", file=sys.stderr, flush=True)
    return value


def stack_env(cache: Path, port_base: int, extra: Mapping[str, str], keep_cache_dir: bool = False) -> dict[str, str]:
    """The clone's environment: none of this shell's ``ASAT_*`` settings (but, for a second clone,
    the build cache directory where this user set one), the cache home ``cache``, its own ports."""
    kept = ("ASAT_VECTOR_CACHE_DIR",) if keep_cache_dir else ()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASAT_") or k in kept}
    env |= {
        "XDG_CACHE_HOME": str(cache),
        "ASAT_CORPUS_DIR": os.environ.get("ASAT_CORPUS_DIR") or str((REPO_ROOT.parent / "shared" / "corpus").resolve()),
        "ASAT_EMBEDDED_PG_PORT": str(port_base + 99),
    }
    for offset, name in enumerate(SERVICES):
        env[f"ASAT_{name.upper()}_PORT"] = str(port_base + 10 * (offset + 1))
    return env | dict(extra)


def sh(argv: Sequence[str], cwd: Path, env: Mapping[str, str], log: Path) -> None:
    with log.open("a") as out:
        done = subprocess.run(list(argv), cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"cold start: {' '.join(argv)} failed (exit {done.returncode}); see {log}")


def research(env: Mapping[str, str], clone: Path) -> httpx.Client:
    token = (clone / "var" / "secrets" / "service-token").read_text().strip()
    return httpx.Client(
        base_url=f"http://127.0.0.1:{env['ASAT_RESEARCH_PORT']}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )


def wait_ready(client: httpx.Client, limit_s: float) -> dict[str, Any]:
    ends = time.monotonic() + limit_s
    last: dict[str, Any] = {}
    while time.monotonic() < ends:
        try:
            last = client.get("/v1/index/status").json()
        except (httpx.HTTPError, ValueError):
            last = {"state": "unreachable"}
        if last.get("state") == "ready":
            return last
        if last.get("state") == "failed":
            raise SystemExit(f"cold start: the index build failed: {last}")
        time.sleep(2)
    raise SystemExit(f"cold start: the index was not ready within {limit_s:.0f} s: {last}")


def first_answer(client: httpx.Client) -> str:
    reply = client.post("/v1/research", json=QUESTION)
    if reply.status_code != 200 or reply.json().get("decision") not in ANSWERED:
        raise SystemExit(f"cold start: the first question was not answered: {reply.status_code} {reply.text[:400]}")
    return str(reply.json()["decision"])


def shared_cache_dir() -> Path:
    """This user's cache directory, where the vector and term-count caches live by default."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def measure(args: argparse.Namespace) -> list[Run]:
    extra = dict(item.split("=", 1) for item in args.env)
    scratch = Path(tempfile.mkdtemp(prefix="asat-cold-start-"))
    scratch.chmod(0o755)  # the embedded Postgres runs as its own user, which must enter the clone
    clone, log = scratch / "main", scratch / "log.txt"
    cache = shared_cache_dir() if args.shared_cache else scratch / "cache"
    env = stack_env(cache, args.port_base, extra, keep_cache_dir=args.shared_cache)
    cold, warm = Run("second_clone" if args.shared_cache else "cold"), Run("warm")
    try:
        timed(cold, "clone", lambda: sh(["git", "clone", "-q", str(args.repo), str(clone)], scratch, env, log))
        timed(cold, "install", lambda: sh(["make", "install"], clone, env, log))
        timed(cold, "up", lambda: sh(["make", "up"], clone, env, log))
        client = research(env, clone)
        cold.notes["index"] = timed(cold, "index_build", lambda: wait_ready(client, args.limit))
        cold.notes["decision"] = timed(cold, "first_answer", lambda: first_answer(client))
        timed(warm, "down", lambda: sh(["make", "down"], clone, env, log))
        shutil.rmtree(clone / "var" / "index")
        timed(warm, "up", lambda: sh(["make", "up"], clone, env, log))
        warm.notes["index"] = timed(warm, "index_build", lambda: wait_ready(client, args.limit))
        warm.notes["decision"] = timed(warm, "first_answer", lambda: first_answer(client))
    finally:
        subprocess.run(["make", "down"], cwd=clone, env=env, capture_output=True, check=False)
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            print(f"kept {scratch}", file=sys.stderr)
    return [cold, warm]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=REPO_ROOT)
    parser.add_argument("--port-base", type=int, default=18700)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the stack (repeatable)")
    parser.add_argument("--limit", type=float, default=3600.0, help="seconds to wait for the index")
    parser.add_argument("--keep", action="store_true", help="keep the scratch clone")
    parser.add_argument(
        "--shared-cache", action="store_true", help="use this user's cache directory, not an empty one (a second clone)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if any("=" not in item for item in args.env):
        parser.error("--env takes NAME=VALUE")
    runs = measure(args)
    if args.json:
        print(json.dumps([{"run": r.label, "stages_s": r.stages, "total_s": r.total_s, **r.notes} for r in runs]))
    else:
        for r in runs:
            stages = ", ".join(f"{k} {v} s" for k, v in r.stages.items())
            print(f"{r.label}: {r.total_s} s in all ({stages}); first question: {r.notes.get('decision')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
