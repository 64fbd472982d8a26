"""Chaos: kill the verifier, ingest and Postgres in turn during a load run, restart each, and
check what was served.

Against a stack started by `make up` (it reads the same settings: ``ASAT_VAR_DIR``, ports).
Clients keep asking research (``--clients``, default 8) for the whole run. For each dependency
in turn: ``--calm`` seconds of normal load, then SIGKILL to its process group, ``--down``
seconds without it, then ``scripts/stack.py up`` (which restarts only what is missing) and the
time until research answers again is its recovery time. The other services' pids must be the
same afterwards (nothing else restarted). Then ``chaos_verdict.judge`` checks every reply against
the audit log (every answer served had verified quotes and an audit row recording it; every
refusal a 429/502/503 with a reason), and research's ``/v1/audit/verify`` must hold.

    .venv/bin/python scripts/chaos.py [--clients 8] [--calm 10] [--down 10] [--json]

Exit 0 when every check holds, 1 otherwise, 2 when the stack is not up.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
from chaos_verdict import Reply, judge
from load_research import bodies
from stack_plan import settings_from_env
from stack_process import read_pid_file, running

REPO_ROOT = Path(__file__).resolve().parents[1]
VICTIMS = ("verifier", "ingest", "postgres")
SERVICES = ("verifier", "ingest", "research", "web", "extraction")


def _kill(pid_file: Path) -> int:
    record = read_pid_file(pid_file)
    if record is None or not running(record):
        raise SystemExit(f"chaos: {pid_file.stem} is not running (no live pid in {pid_file}); run `make up` first")
    os.killpg(record.pgid, signal.SIGKILL)
    return record.pid


async def _ask_until(
    client: httpx.AsyncClient, requests: Sequence[dict[str, Any]], stop: asyncio.Event, began: float, out: list[Reply]
) -> None:
    index = 0
    while not stop.is_set():
        body = requests[index % len(requests)]
        index += 1
        try:
            response = await client.post("/v1/research", json=body)
            try:
                parsed = response.json()
            except ValueError:
                parsed = None
            out.append(Reply(time.monotonic() - began, response.status_code, parsed))
        except httpx.HTTPError:
            out.append(Reply(time.monotonic() - began, None, None))


async def _recovered(client: httpx.AsyncClient, body: Mapping[str, Any], since: float, limit_s: float) -> float | None:
    while time.monotonic() - since < limit_s:
        try:
            if (await client.post("/v1/research", json=dict(body))).status_code == 200:
                return time.monotonic() - since
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.5)
    return None


async def run(args: argparse.Namespace, env: Mapping[str, str]) -> dict[str, Any]:
    settings = settings_from_env(env, REPO_ROOT)
    url = f"http://{settings.host}:{settings.ports['research']}"
    token = env.get("ASAT_SERVICE_TOKEN", "").strip()
    token_file = settings.var_dir / "secrets" / "service-token"
    if not token and token_file.is_file():
        token = token_file.read_text().strip()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    requests = bodies(args.suite)
    replies: list[Reply] = []
    recovery: dict[str, float | None] = {}
    others_restarted: list[str] = []
    async with httpx.AsyncClient(base_url=url, timeout=120, headers=headers) as client:
        if (await client.get("/healthz")).status_code != 200:
            raise SystemExit(f"chaos: research at {url} is not healthy; run `make up` first")
        stop = asyncio.Event()
        began = time.monotonic()
        load = [asyncio.create_task(_ask_until(client, requests, stop, began, replies)) for _ in range(args.clients)]
        for victim in VICTIMS:
            await asyncio.sleep(args.calm)
            before = {s: read_pid_file(settings.pid_file(s)) for s in SERVICES if s != victim}
            print(f"chaos: killing {victim}", file=sys.stderr, flush=True)
            _kill(settings.pid_file(victim))
            await asyncio.sleep(args.down)
            restarted_at = time.monotonic()
            up = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, str(REPO_ROOT / "scripts" / "stack.py"), "up"],
                capture_output=True,
                text=True,
                env=dict(env),
                check=False,
            )
            if up.returncode != 0:
                print(up.stdout[-2000:], up.stderr[-2000:], file=sys.stderr)
            recovery[victim] = await _recovered(client, requests[0], restarted_at, args.recover_limit)
            after = {s: read_pid_file(settings.pid_file(s)) for s in before}
            others_restarted += [f"{s} (when {victim} was killed)" for s in before if before[s] != after[s]]
            print(f"chaos: {victim} recovered in {recovery[victim]}s", file=sys.stderr, flush=True)
        await asyncio.sleep(args.calm)
        stop.set()
        await asyncio.gather(*load)
        ids = {r.body.get("audit_id") for r in replies if r.status == 200 and r.body}
        rows: dict[int, Any] = {}
        for audit_id in sorted(i for i in ids if isinstance(i, int)):
            response = await client.get(f"/v1/audit/{audit_id}")
            rows[audit_id] = response.json() if response.status_code == 200 else None
        chain = (await client.get("/v1/audit/verify")).json()
    verdict = judge(replies, rows)
    problems = list(verdict.problems)
    problems += [f"restarted although not killed: {name}" for name in others_restarted]
    problems += [
        f"{victim} did not recover within {args.recover_limit}s" for victim, t in recovery.items() if t is None
    ]
    if not chain.get("ok"):
        problems.append(f"the audit log does not verify: first bad row {chain.get('first_bad_id')}")
    return {
        "replies": len(replies),
        "answers": verdict.answers,
        "abstentions": verdict.abstentions,
        "refusals": verdict.refusals,
        "recovery_s": {k: (round(v, 1) if v is not None else None) for k, v in recovery.items()},
        "audit_verify": {k: chain.get(k) for k in ("ok", "rows", "first_bad_id", "unanchored_rows")},
        "problems": problems,
        "ok": not problems,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calm", type=float, default=10.0)
    parser.add_argument("--down", type=float, default=10.0)
    parser.add_argument("--recover-limit", type=float, default=300.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(run(args, os.environ))
    except httpx.HTTPError as exc:
        print(f"chaos: cannot reach research: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"replies {report['replies']}: {report['answers']} answers, {report['abstentions']} abstentions, "
            f"refusals {report['refusals']}"
        )
        print(f"recovery (s): {report['recovery_s']}; audit log: {report['audit_verify']}")
        print("every check holds" if report["ok"] else "PROBLEMS:\n  " + "\n  ".join(report["problems"]))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
