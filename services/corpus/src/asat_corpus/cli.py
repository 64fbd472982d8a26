"""``python -m asat_corpus``: statistics, the version in force on a date, timelines and diffs."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

from asat_corpus.corpus_build import CorpusBuild, date_provisions, load_corpus
from asat_corpus.date_audit import DateAudit, PairListing, YearRow, audit, parse_years
from asat_corpus.index_scope import IndexScopeError, index_scope_from_env
from asat_corpus.provision import Bound, ProvisionTimeline, ProvisionVersion, TextComparison, VersionGap
from asat_corpus.resolution import Resolution, Status, resolve, resolve_as_known
from asat_corpus.sources import SourcesError, load_sources
from asat_corpus.vector_config import VectorConfigError, vector_config_from_env
from asat_corpus.versioning import BEFORE_ISSUE_24

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_USAGE = 2
EXIT_TARGET_MISSED = 3


def _progress(message: str) -> None:
    print(f"[asat_corpus] {message}", file=sys.stderr, flush=True)


def _bound_json(bound: Bound) -> dict[str, Any]:
    return {
        "date": bound.day.isoformat() if bound.day else None,
        "method": bound.method.value,
        "acts": [str(a) for a in bound.acts],
        "detail": bound.detail,
        "widest": bound.widest.isoformat() if bound.widest else None,
        "candidates": [d.isoformat() for d in bound.candidates],
        "retrospective": bound.retrospective,
    }


def version_json(version: ProvisionVersion, with_text: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": version.id,
        "act": version.act,
        "provision": version.number,
        "heading": version.heading,
        "hierarchy": list(version.hierarchy),
        "register_ids": list(version.register_ids),
        "authorised": version.authorised,
        "valid_from": version.valid_from.isoformat(),
        "valid_to": version.valid_to.isoformat() if version.valid_to else None,
        "from_bound": _bound_json(version.from_bound),
        "to_bound": _bound_json(version.to_bound),
        "income_years": list(version.income_years),
        "content_hash": version.content_hash,
        "known_from": version.known_from.isoformat() if version.known_from else None,
        "known_to": version.known_to.isoformat() if version.known_to else None,
        "known_to_bound": _bound_json(version.known_to_bound) if version.known_to_bound else None,
        "compilation_dates": [d.isoformat() for d in version.compilation_dates],
    }
    if with_text:
        out["text"] = version.text
    return out


def gap_json(gap: VersionGap) -> dict[str, Any]:
    return {
        "start": gap.start.isoformat(),
        "end": gap.end.isoformat(),
        "acts": [str(a) for a in gap.acts],
        "reason": gap.reason,
        "between": list(gap.between) if gap.between else None,
        "candidates": [d.isoformat() for d in gap.candidates],
        "retrospective": gap.retrospective,
    }


def _interval(version: ProvisionVersion) -> str:
    end = version.valid_to.isoformat() if version.valid_to else "open (current)"
    return f"[{version.valid_from.isoformat()}, {end})"


def _describe_bound(name: str, bound: Bound) -> str:
    acts = f" by {', '.join(str(a) for a in bound.acts)}" if bound.acts else ""
    detail = f": {bound.detail}" if bound.detail else ""
    return f"  {name}: {bound.method.value}{acts}{detail}"


def _label(version: ProvisionVersion) -> str:
    kind = "authorised" if version.authorised else "third-party conversion, not an authorised version"
    return f"{version.act} s {version.number} {version.heading} ({kind})"


def _stats(build: CorpusBuild, as_json: bool) -> int:
    per_compilation: list[dict[str, Any]] = []
    versions_by_register: dict[str, int] = {}
    gaps_by_act: dict[str, int] = {}
    for timeline in build.timelines.values():
        for version in timeline.versions:
            for register_id in version.register_ids:
                versions_by_register[register_id] = versions_by_register.get(register_id, 0) + 1
        gaps_by_act[timeline.act] = gaps_by_act.get(timeline.act, 0) + len(timeline.gaps)
    for result in build.compilations:
        c = result.compilation
        reports = [result.report] + ([result.endnotes_report] if result.endnotes_report else [])
        per_compilation.append(
            {
                "act": c.act,
                "register_id": c.register_id,
                "format": c.format.value,
                "authorised": c.authorised,
                "compilation_date": c.compilation_date.isoformat() if c.compilation_date else None,
                "partial": c.partial,
                "provisions_parsed": len(result.provisions),
                "versions": versions_by_register.get(c.register_id, 0),
                "endnote_rows": len(result.endnotes.acts) if result.endnotes else None,
                "endnote_entries": len(result.endnotes.entries) if result.endnotes else None,
                "unparsed": sum(r.unparsed_count for r in reports),
                "unparsed_examples": [
                    {"file": e.file, "line": e.line, "reason": e.reason, "excerpt": e.excerpt}
                    for r in reports
                    for e in r.examples
                ],
                "errors": [e for r in reports for e in r.errors],
            }
        )
    versions = sum(len(t.versions) for t in build.timelines.values())
    try:
        vector_config = vector_config_from_env()
        scope = index_scope_from_env()
    except (VectorConfigError, IndexScopeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    rulings_report = build.rulings_report
    summary: dict[str, Any] = {
        "corpus_dir": str(build.sources.corpus_dir),
        "horizon_income_year": build.horizon,
        "provisions": len(build.timelines),
        "versions": versions,
        "gaps": sum(len(t.gaps) for t in build.timelines.values()),
        "gaps_by_act": gaps_by_act,
        "compilations": per_compilation,
        "rulings": {
            "parsed": len(build.rulings),
            "unparsed": rulings_report.unparsed_count if rulings_report else 0,
            "unparsed_examples": [
                {"file": e.file, "line": e.line, "reason": e.reason, "excerpt": e.excerpt}
                for e in (rulings_report.examples if rulings_report else [])
            ],
            "errors": rulings_report.errors if rulings_report else [],
        },
        "vector_config": vector_config.as_dict(),
        "index_scope": scope.as_dict(),
        "corpus_generation": build.generation(vector_config, scope),
    }
    if as_json:
        print(json.dumps(summary, indent=2))
        return EXIT_OK
    print(f"corpus: {summary['corpus_dir']}  generation: {summary['corpus_generation']}")
    print(f"provisions: {summary['provisions']}  versions: {versions}  gaps: {summary['gaps']}")
    header = (
        f"{'act':<13} {'register id':<12} {'date':<10} {'format':<25} {'parsed':>7} {'versions':>8} {'unparsed':>8}"
    )
    print(header)
    for row in per_compilation:
        print(
            f"{row['act']:<13} {row['register_id']:<12} {row['compilation_date'] or '-':<10} {row['format']:<25} "
            f"{row['provisions_parsed']:>7} {row['versions']:>8} {row['unparsed']:>8}"
        )
        for example in row["unparsed_examples"][:3]:
            print(f"    unparsed {example['file']}:{example['line']}: {example['reason']}: {example['excerpt'][:70]!r}")
        for error in row["errors"]:
            print(f"    ERROR {error}")
    print(f"rulings parsed: {summary['rulings']['parsed']}  unparsed: {summary['rulings']['unparsed']}")
    return EXIT_OK


def _timeline_or_error(build: CorpusBuild, act: str, provision: str) -> ProvisionTimeline | None:
    timeline = build.timeline(act, provision)
    if timeline is None:
        acts = build.sources.acts
        if act not in acts:
            print(f"error: unknown act {act!r}; known acts: {', '.join(acts)}", file=sys.stderr)
        else:
            close = difflib.get_close_matches(provision, build.provision_numbers(act), n=5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            print(f"error: provision {provision!r} not found in {act}{hint}", file=sys.stderr)
    return timeline


def resolution_json(resolution: Resolution) -> dict[str, Any]:
    return {
        "status": resolution.status.value,
        "as_of": resolution.day.isoformat(),
        "message": resolution.message,
        "version": version_json(resolution.version) if resolution.version else None,
        "gap": gap_json(resolution.gap) if resolution.gap else None,
    }


def _show(build: CorpusBuild, act: str, provision: str, as_of: date, as_json: bool, known: bool = False) -> int:
    timeline = _timeline_or_error(build, act, provision)
    if timeline is None:
        return EXIT_NOT_FOUND
    resolution = resolve_as_known(timeline, as_of) if known else resolve(timeline, as_of)
    if as_json:
        print(json.dumps(resolution_json(resolution), indent=2))
    elif resolution.version is not None:
        version = resolution.version
        print(_label(version))
        print(f"in force {_interval(version)}  register ids: {', '.join(version.register_ids)}")
        print(_describe_bound("from", version.from_bound))
        print(_describe_bound("to", version.to_bound))
        print(f"income years: {', '.join(str(y) for y in version.income_years)}")
        if resolution.status is Status.AS_THEN_STOOD:
            print(resolution.message)
        print()
        print(version.text)
    else:
        print(resolution.message)
    return EXIT_OK if resolution.status in (Status.IN_FORCE, Status.AS_THEN_STOOD) else EXIT_NOT_FOUND


def _versions(build: CorpusBuild, act: str, provision: str, as_json: bool) -> int:
    timeline = _timeline_or_error(build, act, provision)
    if timeline is None:
        return EXIT_NOT_FOUND
    events: list[tuple[date, str, dict[str, Any]]] = []
    for version in timeline.versions:
        events.append((version.valid_from, "version", version_json(version, with_text=False)))
    for gap in timeline.gaps:
        events.append((gap.start, "gap", gap_json(gap)))
    events.sort(key=lambda e: e[0])
    if as_json:
        print(
            json.dumps(
                {
                    "act": act,
                    "provision": provision,
                    "added_by": str(timeline.added_by) if timeline.added_by else None,
                    "repealed_by": str(timeline.repealed_by) if timeline.repealed_by else None,
                    "timeline": [{"type": kind, **body} for _, kind, body in events],
                    "notes": list(timeline.notes),
                    "comparisons": [comparison_json(c) for c in timeline.comparisons],
                },
                indent=2,
            )
        )
        return EXIT_OK
    print(f"{act} s {provision}" + (f" (added by {timeline.added_by})" if timeline.added_by else ""))
    for _, kind, body in events:
        if kind == "version":
            end = body["valid_to"] or "open"
            print(f"  version [{body['valid_from']}, {end})  {body['id']}  seen in {', '.join(body['register_ids'])}")
        else:
            print(f"  gap     [{body['start']}, {body['end']})  text not held: {', '.join(body['acts'])}")
    for note in timeline.notes:
        print(f"  note: {note}")
    for c in timeline.comparisons:
        state = "one version" if c.merged else "kept apart"
        print(
            f"  {c.earlier_register_id} -> {c.later_register_id}: {state} ({c.verdict}, similarity {c.similarity:.3f})"
        )
    return EXIT_OK


def _diff(build: CorpusBuild, act: str, provision: str, day_from: date, day_to: date, as_json: bool) -> int:
    timeline = _timeline_or_error(build, act, provision)
    if timeline is None:
        return EXIT_NOT_FOUND
    left, right = resolve(timeline, day_from), resolve(timeline, day_to)
    for side in (left, right):
        if side.version is None:
            print(f"error: cannot diff: {side.message}", file=sys.stderr)
            return EXIT_NOT_FOUND
    assert left.version is not None and right.version is not None
    lines = list(
        difflib.unified_diff(
            left.version.text.splitlines(),
            right.version.text.splitlines(),
            fromfile=f"{left.version.id} {_interval(left.version)}",
            tofile=f"{right.version.id} {_interval(right.version)}",
            lineterm="",
        )
    )
    if as_json:
        print(
            json.dumps(
                {
                    "from": version_json(left.version, with_text=False),
                    "to": version_json(right.version, with_text=False),
                    "same_version": left.version.id == right.version.id,
                    "diff": lines,
                },
                indent=2,
            )
        )
    elif left.version.id == right.version.id:
        print(f"same version on both dates: {left.version.id} {_interval(left.version)}")
    else:
        print("\n".join(lines))
    return EXIT_OK


def _row_json(row: YearRow) -> dict[str, Any]:
    return {
        "income_year": row.year,
        "provisions": row.provisions,
        "none_servable": row.none_servable,
        "by_cause": row.by_cause,
        "servable_with_caveat": row.servable_with_caveat,
        "unservable": row.unservable,
        "unservable_by_cause": row.unservable_by_cause,
        "unexplained": row.unexplained,
    }


def comparison_json(c: TextComparison) -> dict[str, Any]:
    """One judged pair of texts (conversion noise or a real change), as the CLI prints it."""
    return {
        "earlier": c.earlier_register_id,
        "later": c.later_register_id,
        "merged": c.merged,
        "verdict": c.verdict,
        "similarity": c.similarity,
        "cause": c.cause,
        "diff": list(c.diff),
    }


def _pair_json(pair: PairListing) -> dict[str, Any]:
    return {
        "act": pair.act,
        "provision": pair.number,
        **comparison_json(pair.comparison),
        "dated_by": pair.dated_by or None,
    }


def audit_json(result: DateAudit, merges: bool, kept_apart: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "years": list(result.years),
        "before": [_row_json(r) for r in result.before],
        "after": [_row_json(r) for r in result.after],
        "gaps": {"before": result.gaps_before, "after": result.gaps_after},
        "item1_merges": {"before": 0, "after": len(result.merges)},
        "item1_kept_apart": {"before": result.kept_apart_before, "after": len(result.kept_apart)},
        "item2_narrowed_gaps": result.narrowed_gaps,
        "item3_known_time": {
            "pairs": result.known_after.pairs,
            "outside_validity_before": result.known_before.outside_validity,
            "outside_validity_after": result.known_after.outside_validity,
            "servable_on_known_axis_before": result.known_before.servable_on_known_axis,
            "servable_on_known_axis_after": result.known_after.servable_on_known_axis,
        },
        "target_met": result.target_met,
    }
    if merges:
        out["merges"] = [_pair_json(p) for p in result.merges]
    if kept_apart:
        out["kept_apart"] = [_pair_json(p) for p in result.kept_apart]
    return out


_COLUMNS = ("no_amendment_recorded", "commencement_uncertain", "amended_more_than_once", "amended_before_earliest")


def _print_table(title: str, rows: Sequence[YearRow], caveats: bool) -> None:
    print(title)
    head = "| income year | provisions | none servable | texts differ, no amendment recorded | commencement uncertain"
    head += " | amended more than once between compilations | amended before the earliest compilation |"
    if caveats:
        head += " servable with a caveat | none servable at all | unexplained |"
    print(head)
    for row in rows:
        cells = [str(row.year), f"{row.provisions:,}", str(row.none_servable)]
        cells += [str(row.by_cause.get(c, 0)) for c in _COLUMNS]
        if caveats:
            cells += [str(row.servable_with_caveat), str(row.unservable), str(row.unexplained)]
        print("| " + " | ".join(cells) + " |")
    print()


def _print_pairs(title: str, pairs: Sequence[PairListing]) -> None:
    print(f"{title} ({len(pairs)})")
    for pair in sorted(pairs, key=lambda p: (p.comparison.similarity, p.act, p.number)):
        c = pair.comparison
        print(
            f"  {pair.act} s {pair.number}  {c.earlier_register_id} -> {c.later_register_id}  "
            f"similarity {c.similarity:.3f}  {c.verdict}: {c.cause}"
        )
        if pair.dated_by:
            print(f"      dated by {pair.dated_by}: a part of it commenced after the earlier compilation")
        for line in c.diff[:3]:
            print(f"      {line}")
    print()


def _audit_dates(build: CorpusBuild, years_text: str, as_json: bool, merges: bool, kept_apart: bool) -> int:
    try:
        years = parse_years(years_text)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    before = date_provisions(build.compilations, build.horizon, BEFORE_ISSUE_24)
    result = audit(before, build.timelines, years, build.horizon)
    if as_json:
        print(json.dumps(audit_json(result, merges, kept_apart), indent=2))
    else:
        _print_table(
            "Before issue 24 (provisions with nothing servable on any day of the year, by cause)", result.before, False
        )
        _print_table("After", result.after, True)
        print(
            f"item 1: texts merged as one version {0} -> {len(result.merges)}; "
            f"pairs with no amendment recorded kept apart {result.kept_apart_before} -> {len(result.kept_apart)}"
        )
        print(
            f"item 2: uncertain or multi-amendment gaps narrowed or closed: {result.narrowed_gaps}; "
            f"gaps by cause {result.gaps_before} -> {result.gaps_after}"
        )
        kb, ka = result.known_before, result.known_after
        print(
            f"item 3: version-in-compilation pairs {ka.pairs:,}; compilation date outside the text's validity "
            f"{kb.outside_validity} -> {ka.outside_validity}; of those servable on the known-time axis "
            f"{kb.servable_on_known_axis} -> {ka.servable_on_known_axis}"
        )
        print(
            f"target (nothing unservable but texts not held or pairs kept apart with a reason): "
            f"{'met' if result.target_met else 'MISSED'}"
        )
        if merges:
            print()
            _print_pairs("Merged (no amendment recorded; texts differ only by conversion defects)", result.merges)
        if kept_apart:
            print()
            _print_pairs("Kept apart (no amendment recorded; texts differ)", result.kept_apart)
    return EXIT_OK if result.target_met else EXIT_TARGET_MISSED


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from exc


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m asat_corpus", description=__doc__)
    parser.add_argument("--no-cache", action="store_true", help="re-parse even if a cached build exists")
    sub = parser.add_subparsers(dest="command", required=True)
    stats = sub.add_parser("stats", help="per compilation: provisions parsed, versions, gaps, unparsed items")
    stats.add_argument("--json", action="store_true")
    for name, helptext in (("show", "the version in force on a date"), ("versions", "the timeline of a provision")):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("--act", required=True)
        cmd.add_argument("--provision", required=True)
        if name == "show":
            cmd.add_argument("--as-of", required=True, type=_date)
            cmd.add_argument(
                "--as-known",
                action="store_true",
                help="the text on the books on that day (known time), not the law as it now stands for it",
            )
        cmd.add_argument("--json", action="store_true")
    diff = sub.add_parser("diff", help="what changed between the versions in force on two dates")
    diff.add_argument("--act", required=True)
    diff.add_argument("--provision", required=True)
    diff.add_argument("--from", dest="day_from", required=True, type=_date)
    diff.add_argument("--to", dest="day_to", required=True, type=_date)
    diff.add_argument("--json", action="store_true")
    audit_cmd = sub.add_parser(
        "audit-dates",
        help="per income year, provisions with nothing servable by cause, before and after issue 24's rules",
    )
    audit_cmd.add_argument("--years", default="2016-2026", help="income years, e.g. 2016-2026 or 2016,2025")
    audit_cmd.add_argument("--merges", action="store_true", help="list the pairs merged as one version")
    audit_cmd.add_argument("--kept-apart", action="store_true", help="list the pairs kept apart, with the cause")
    audit_cmd.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        sources = load_sources()
    except SourcesError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    started = time.perf_counter()
    acts = [args.act] if getattr(args, "act", None) else None
    if acts and acts[0] not in sources.acts:
        print(f"error: unknown act {acts[0]!r}; known acts: {', '.join(sources.acts)}", file=sys.stderr)
        return EXIT_USAGE
    include_rulings = args.command == "stats"
    if args.no_cache:
        from asat_corpus.corpus_build import build_corpus

        build = build_corpus(sources, acts, include_rulings, progress=_progress)
    else:
        build = load_corpus(sources, acts, include_rulings, progress=_progress)
    _progress(f"corpus ready in {time.perf_counter() - started:.1f}s")
    if args.command == "stats":
        return _stats(build, args.json)
    if args.command == "show":
        return _show(build, args.act, args.provision, args.as_of, args.json, args.as_known)
    if args.command == "versions":
        return _versions(build, args.act, args.provision, args.json)
    if args.command == "audit-dates":
        return _audit_dates(build, args.years, args.json, args.merges, args.kept_apart)
    return _diff(build, args.act, args.provision, args.day_from, args.day_to, args.json)
