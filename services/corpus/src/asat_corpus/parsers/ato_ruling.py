"""Parser for the ATO rulings collection (format ``ato-legal-database-text``).

``rulings/<TYPE>/<TYPE>_<year>_<no>.txt`` (``IT_<no>.txt`` for IT rulings), with a
``.meta.json`` beside every non-AID file. See :mod:`ato_page` for the page layouts,
:mod:`ato_lines` for how split lines are rejoined, :mod:`ato_paragraphs` for paragraph ranges,
:mod:`ato_status` for status and withdrawal date, and :func:`issue_date` below for the issue
date.

Identifiers follow the ATO's citation form: ``TR 2020/1``, ``TR 98/9`` (two-digit years before
1999), ``PS LA 2011/27``, ``LCR 2021/2`` (the ``LCG`` folder holds Law Companion Rulings),
``ATO ID 2010/1``, ``IT 2650`` (IT rulings are cited by number alone; ``year`` is then the year
of the issue date, or 0 when the page gives no date).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.ato_dates import labelled_date, parse_date, sign_off_dates
from asat_corpus.parsers.ato_history import History, find_history
from asat_corpus.parsers.ato_page import ATO_ID, CITATION, Page, split_page
from asat_corpus.parsers.ato_paragraphs import numbered_paragraphs, section_paragraphs
from asat_corpus.parsers.ato_status import decide_status, is_withdrawal_notice, withdrawn_date
from asat_corpus.ruling import Ruling

RULING_TYPES = ("TR", "TD", "GSTR", "PCG", "LCG", "TA", "IT", "MT", "PSLA", "SGR", "AID")
CITATION_PREFIX = {"LCG": "LCR", "PSLA": "PS LA", "AID": "ATO ID"}
_FILE_NAME = re.compile(r"^(?P<type>[A-Z]+)_(?:(?P<year>\d{2,4})_)?(?P<number>D?\d+)\.txt$")
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\ufffd]")
BINARY_SHARE = 0.01
_ORIGINAL_VERSIONS = ("original", "finalised")
FOUR_DIGIT_FROM = 1999  # the ATO cites TR 98/9 but TR 1999/1, GSTR 1999/1


def _four_digit_year(year: int) -> int:
    if year >= 100:
        return year
    return 1900 + year if year >= 50 else 2000 + year


def _ruling_year(cited_year: str | None, issued: date | None) -> int:
    if cited_year is not None:
        return _four_digit_year(int(cited_year))
    return issued.year if issued is not None else 0


def ruling_id(doc_type: str, year: int, number: str) -> str:
    """The ATO citation: ``ruling_id("TR", 1998, "9") == "TR 98/9"``, ``("IT", 1975, "100")``
    gives ``"IT 100"``, ``("PSLA", 2011, "27")`` gives ``"PS LA 2011/27"``."""
    kind = doc_type.upper()
    prefix = CITATION_PREFIX.get(kind, kind)
    if kind == "IT":
        return f"IT {number}"
    full = _four_digit_year(year)
    shown = f"{full % 100:02d}" if full < FOUR_DIGIT_FROM else str(full)
    return f"{prefix} {shown}/{number}"


def _check_text(text: str, file: str) -> None:
    if not text.strip():
        raise CorpusFileError(file, 1, "empty file: re-fetch the document or remove it from the corpus")
    bad = _BINARY.findall(text[:20000])
    if len(bad) > BINARY_SHARE * min(len(text), 20000):
        line = text[: text.find(bad[0])].count("\n") + 1
        raise CorpusFileError(file, line, "binary or undecodable content, not page text: re-fetch the document as text")


def issue_date(page: Page, history: History | None, meta: dict[str, object] | None) -> date | None:
    """The first date the page gives, in this order: the Commissioner's sign-off (unless the page
    is a withdrawal notice, whose sign-off dates the withdrawal); ``Date of Issue:``; for ATO IDs
    ``Date of publication:`` then ``Date of decision:``; the history table's original version;
    the meta ``issue_date``."""
    if not is_withdrawal_notice(page):
        signed = sign_off_dates(page.body)
        if signed:
            return signed[0][1]
    labels = ["Date of Issue:"]
    if page.layout == ATO_ID:
        labels += ["Date of publication:", "Date of decision:"]
    for label in labels:
        found = labelled_date(page.body, label)
        if found is not None:
            return found
    original = history.first(*_ORIGINAL_VERSIONS) if history is not None else None
    if original is not None:
        return original.when
    raw = meta.get("issue_date") if meta else None
    if isinstance(raw, str):
        try:
            return date.fromisoformat(raw)
        except ValueError:
            return parse_date(raw)
    return None


def _title(page: Page, meta: dict[str, object] | None, citation: str) -> str:
    """The page's title; the meta title only when the page has none (meta titles are often
    just the citation)."""
    if page.title and not CITATION.match(page.title):
        return page.title
    raw = meta.get("title") if meta else None
    if isinstance(raw, str) and raw.strip() and not raw.startswith(citation):
        return raw.strip()
    return page.title


def parse_ruling_text(text: str, rel_path: str, meta: dict[str, object] | None, report: ParseReport) -> Ruling:
    """One ruling from its page text; ``rel_path`` is ``rulings/<TYPE>/<file>``.

    Raises ``CorpusFileError`` (file, line, problem) for an empty, binary or truncated file.
    Paragraph numbers that could not be placed are reported through ``report.skip``.
    """
    _check_text(text, rel_path)
    name = Path(rel_path).name
    named = _FILE_NAME.match(name)
    if named is None:
        raise CorpusFileError(rel_path, 1, f"file name {name!r} is not <TYPE>_<year>_<no>.txt")
    doc_type = named.group("type")
    page = split_page(text, rel_path)
    cited = CITATION.match(page.citation)
    assert cited is not None  # split_page only returns a matching citation
    number = cited.group("number") or cited.group("it_number")
    history = find_history(page.lines)
    issued = issue_date(page, history, meta)
    cited_year = cited.group("year")
    year = _ruling_year(cited_year, issued)
    if doc_type == "LCG" or doc_type == cited.group("prefix").replace(" ", ""):
        identifier = ruling_id(doc_type, year, number)
    else:
        identifier = f"{cited.group('prefix')} {cited_year}/{number}" if cited_year else page.citation
    named_year = named.group("year")
    if number != named.group("number") or (
        named_year is not None and cited_year is not None and _four_digit_year(int(named_year)) != year
    ):
        report.skip(
            rel_path,
            page.citation_line,
            f"the file name says {name} but the page cites {page.citation}: the page's citation is used",
            page.citation,
        )
    status = decide_status(meta.get("status") if meta else None, page, history)
    body = "\n".join(page.body)
    paragraphs = section_paragraphs(body) if doc_type == "AID" else numbered_paragraphs(body)
    if not paragraphs:
        report.skip(rel_path, page.citation_line, "no numbered paragraphs or sections found", page.title)
    report.items_parsed += 1
    return Ruling(
        id=identifier,
        doc_type=doc_type,
        year=year,
        number=number,
        title=_title(page, meta, identifier),
        status=status,
        issue_date=issued,
        withdrawn_date=withdrawn_date(page, history, status),
        text=body,
        paragraphs=paragraphs,
        source_file=rel_path,
        current_consolidated_only=True,
    )


def _read_meta(path: Path, rel_path: str) -> dict[str, object] | None:
    meta_path = path.with_name(path.name + ".meta.json")
    if not meta_path.is_file():
        return None
    try:
        loaded = json.loads(meta_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise CorpusFileError(rel_path + ".meta.json", 1, f"not valid JSON ({exc}); re-fetch it") from exc
    if not isinstance(loaded, dict):
        raise CorpusFileError(rel_path + ".meta.json", 1, "expected a JSON object")
    return {str(key): value for key, value in loaded.items()}


def parse_rulings(corpus_dir: Path, report: ParseReport, types: Iterable[str] | None = None) -> list[Ruling]:
    """Every ruling under ``corpus_dir/rulings`` (or only ``types``), sorted by file.

    A file that cannot be parsed is recorded with ``report.fail`` and the walk carries on.
    """
    root = corpus_dir / "rulings"
    if not root.is_dir():
        raise FileNotFoundError(f"{root} not found: set ASAT_CORPUS_DIR to the corpus directory")
    wanted = tuple(types) if types is not None else RULING_TYPES
    rulings: list[Ruling] = []
    for kind in wanted:
        folder = root / kind
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.txt")):
            rel_path = path.relative_to(corpus_dir).as_posix()
            try:
                raw = path.read_bytes()
                text = raw.decode("utf-8", errors="replace")
                rulings.append(parse_ruling_text(text, rel_path, _read_meta(path, rel_path), report))
            except CorpusFileError as error:
                report.fail(error)
    return rulings


def _main() -> None:  # pragma: no cover - a measuring aid: python -m asat_corpus.parsers.ato_ruling
    from collections import Counter

    from asat_corpus.sources import corpus_dir_from_env

    began = time.perf_counter()
    report = ParseReport("rulings")
    rulings = parse_rulings(corpus_dir_from_env(), report)
    elapsed = time.perf_counter() - began
    per_type = Counter(r.doc_type for r in rulings)
    dated = Counter(r.doc_type for r in rulings if r.issue_date is not None)
    with_paragraphs = Counter(r.doc_type for r in rulings if r.paragraphs)
    for kind in RULING_TYPES:
        print(
            f"{kind:5} parsed={per_type[kind]:5} issue_date={dated[kind]:5} with_paragraphs={with_paragraphs[kind]:5}"
        )
    statuses = Counter(r.status for r in rulings)
    print("status:", dict(statuses))
    print("failed files:", len(report.errors))
    for error in report.errors:
        print("  ", error)
    print(f"skips: {report.unparsed_count}; time {elapsed:.1f}s")


if __name__ == "__main__":  # pragma: no cover
    _main()
