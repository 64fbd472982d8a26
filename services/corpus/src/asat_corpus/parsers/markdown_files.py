"""The files of a Markdown compilation (gitlaw, animus), read and parsed one by one.

A file that cannot be read, or that its parser rejects, is reported and skipped; a section
number that an earlier file of the compilation already gave is reported and dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from asat_corpus.act import Compilation
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.provision import ParsedProvision

__all__ = ["FileParser", "parse_compilation_files", "reject_nul_bytes"]

FileParser = Callable[[str, str, Compilation, ParseReport], list[ParsedProvision]]
"""Parses one file's text: ``(text, rel_path, compilation, report)``; raises ``CorpusFileError``."""


def reject_nul_bytes(text: str, rel_path: str) -> None:
    """Raise ``CorpusFileError`` at the first NUL byte: the file is not text."""
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise CorpusFileError(rel_path, line, "NUL byte: not a text file; re-export it as UTF-8")


def parse_compilation_files(
    compilation: Compilation, corpus_dir: Path, report: ParseReport, parse_file: FileParser
) -> list[ParsedProvision]:
    """The provisions of every file of ``compilation``, in file order, each number once."""
    out: list[ParsedProvision] = []
    seen: set[str] = set()
    for rel_path in compilation.files:
        try:
            text = (corpus_dir / rel_path).read_text(encoding="utf-8")
            parsed = parse_file(text, rel_path, compilation, report)
        except CorpusFileError as err:
            report.fail(err)
            continue
        except (OSError, UnicodeDecodeError) as exc:
            report.fail(CorpusFileError(rel_path, 0, f"cannot read the file: {exc}"))
            continue
        for provision in parsed:
            if provision.number in seen:
                report.skip(
                    rel_path,
                    provision.source_line,
                    "duplicate section number in the compilation",
                    f"{provision.number} {provision.heading}",
                )
                continue
            seen.add(provision.number)
            out.append(provision)
    return out
