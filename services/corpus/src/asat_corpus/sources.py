"""Reading ``SOURCES.json``: the manifest of every compilation and the rulings collection."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from asat_corpus.act import ActRef, Compilation, SourceFormat

DEFAULT_CORPUS_DIR = Path("../shared/corpus")
_ACT_REF = re.compile(r"Act No\.?\s*(\d+),\s*(\d{4})")


class SourcesError(Exception):
    """``SOURCES.json`` is missing or does not describe the corpus as expected."""


@dataclass(frozen=True)
class RulingsSource:
    format: SourceFormat
    path_pattern: str
    licence: str
    known_defects: tuple[str, ...]


@dataclass(frozen=True)
class Sources:
    corpus_dir: Path
    compilations: tuple[Compilation, ...]
    rulings: RulingsSource | None
    raw: dict[str, Any]

    @property
    def acts(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.act for c in self.compilations))


def corpus_dir_from_env() -> Path:
    """``ASAT_CORPUS_DIR`` or the default ``../shared/corpus``."""
    return Path(os.environ.get("ASAT_CORPUS_DIR", str(DEFAULT_CORPUS_DIR)))


def parse_act_ref(text: str | None) -> ActRef | None:
    """The last ``Act No. N, YYYY`` in ``text`` (``Act No. 8, 2026 and Act No. 12, 2026``)."""
    if not text:
        return None
    refs = [ActRef(int(n), int(y)) for n, y in _ACT_REF.findall(text)]
    return max(refs, key=lambda r: r.sort_key) if refs else None


def _compilation(entry: dict[str, Any]) -> Compilation:
    raw_date = entry.get("compilation_date")
    return Compilation(
        act=entry["act_slug"],
        title=entry["title"],
        register_id=entry["register_id"],
        number=entry.get("compilation_no"),
        compilation_date=date.fromisoformat(raw_date) if raw_date else None,
        amendments_up_to=parse_act_ref(entry.get("includes_amendments_up_to")),
        amendments_up_to_text=entry.get("includes_amendments_up_to"),
        format=SourceFormat(entry["format"]),
        files=tuple(entry["files"]),
        partial=entry.get("partial"),
        has_endnotes=bool(entry.get("endnotes")),
    )


def load_sources(corpus_dir: Path | None = None) -> Sources:
    """Read and validate ``SOURCES.json`` in ``corpus_dir`` (default: from the environment)."""
    root = corpus_dir if corpus_dir is not None else corpus_dir_from_env()
    manifest = root / "SOURCES.json"
    if not manifest.is_file():
        raise SourcesError(
            f"{manifest} not found: set ASAT_CORPUS_DIR to the corpus directory (the one holding SOURCES.json)"
        )
    try:
        raw = json.loads(manifest.read_text(encoding="utf-8"))
        compilations = tuple(_compilation(e) for e in raw["legislation"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SourcesError(f"{manifest}: not a valid corpus manifest ({exc!r})") from exc
    rulings_raw = raw.get("rulings")
    rulings = (
        RulingsSource(
            format=SourceFormat(rulings_raw["format"]),
            path_pattern=rulings_raw["path"],
            licence=rulings_raw.get("licence", ""),
            known_defects=tuple(rulings_raw.get("known_defects", ())),
        )
        if rulings_raw
        else None
    )
    return Sources(corpus_dir=root, compilations=compilations, rulings=rulings, raw=raw)
