"""Reading one compilation's Endnote 3 and Endnote 4 from its volumes in the corpus.

The endnotes are found by their headings, not by volume number: every volume whose text holds
an ``Endnote 3—Legislation history`` or ``Endnote 4—Amendment history`` heading is handed to
both parsers, which keep only the pages of their own endnote. A volume that is missing or
truncated is recorded with ``report.fail`` and the other volumes are still read.
"""

from __future__ import annotations

import re
from pathlib import Path

from asat_corpus.act import Compilation
from asat_corpus.amendment import AmendingAct, AmendmentEntry
from asat_corpus.endnotes import Endnotes
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.endnote3 import parse_endnote3
from asat_corpus.parsers.endnote4 import parse_endnote4

_ENDNOTE_HEADING = re.compile(r"^\s*Endnote [34]—(?:Legislation|Amendment) history\s*$", re.MULTILINE)


def parse_endnotes(compilation: Compilation, corpus_dir: Path, report: ParseReport) -> Endnotes:
    """Endnote 3 rows and Endnote 4 entries of ``compilation`` (empty for one without endnotes)."""
    acts: list[AmendingAct] = []
    entries: list[AmendmentEntry] = []
    for rel_path in compilation.files:
        try:
            text = _read(corpus_dir, rel_path)
            if not _ENDNOTE_HEADING.search(text):
                continue
            file_acts = parse_endnote3(text, rel_path, compilation.act, report)
            file_entries = parse_endnote4(text, rel_path, compilation.act, report)
        except CorpusFileError as error:
            report.fail(error)
            continue
        acts.extend(file_acts)
        entries.extend(file_entries)
    original = acts[0] if acts else None
    return Endnotes(
        register_id=compilation.register_id,
        original=original,
        acts=tuple(acts),
        entries=tuple(entries),
    )


def _read(corpus_dir: Path, rel_path: str) -> str:
    path = corpus_dir / rel_path
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise CorpusFileError(rel_path, 0, f"file not found under {corpus_dir}: check ASAT_CORPUS_DIR") from exc
    except UnicodeDecodeError as exc:
        raise CorpusFileError(rel_path, 0, f"not UTF-8 text ({exc.reason}); re-export the volume as UTF-8") from exc
