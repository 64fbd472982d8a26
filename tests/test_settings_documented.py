"""Tested docs: every ``ASAT_*`` setting the code reads is documented (issue 15 item 5)."""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SETTING = re.compile(r"\bASAT_[A-Z0-9_]*[A-Z0-9]\b")


def _read(paths: list[Path]) -> set[str]:
    return {name for path in paths for name in SETTING.findall(path.read_text(encoding="utf-8"))}


def code_settings() -> set[str]:
    sources = [*REPO_ROOT.glob("services/*/src/**/*.py"), *REPO_ROOT.glob("scripts/*.py")]
    return _read(sources)


def documented_settings() -> set[str]:
    return _read([REPO_ROOT / ".env.example", *REPO_ROOT.glob("docs/*.md")])


def test_the_scan_finds_the_settings_it_must() -> None:
    found = code_settings()
    assert {"ASAT_CORPUS_DIR", "ASAT_RERANKER", "ASAT_GATE_MIN_SCORE", "ASAT_INGEST_HOST"} <= found
    assert len(found) > 40


def test_every_setting_read_by_the_code_is_documented() -> None:
    missing = sorted(code_settings() - documented_settings())
    assert missing == [], f"document these in docs/running.md (or .env.example): {missing}"
