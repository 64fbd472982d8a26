"""Provision versions with validity intervals, from compilations plus the amendment history.

Pure: observations (one parsed section per compilation that holds it), the compilations of
the Act, and the Endnote 3/4 facts in; a :class:`ProvisionTimeline` out.

The rules, each chosen so that an interval is only ever as wide as the evidence allows:

* Consecutive observations whose texts are equal (by :func:`comparison_key`) are one version,
  seen in every register id that holds it; the authorised text is preferred as canonical.
* An amendment is *reflected* in a compilation when its Act is within the compilation's
  "includes amendments up to" and it had commenced (earliest date) by the compilation date.
* Between two held texts, the amendments reflected in the later compilation but not in the
  earlier one changed the text. The earlier text ends at the *earliest* commencement date of
  the first of them; the later text starts at the *latest* commencement date (not after its
  compilation date) of the last of them. Anything in between is a gap naming those Acts.
* A commencement that could not be read with confidence shrinks the interval: the earlier text
  ends the day after its compilation date at the latest, and the later text starts on its
  compilation date.
* Where the history records no amendment between two compilations and a third-party
  conversion's words are an in-order subsequence of the other text's (it dropped a table or a
  formula), the two are one version with the fuller, preferably authorised, text.
* Other texts that differ where the history records no amendment between them are not merged: the
  earlier text ends the day after its compilation date, the later starts on its compilation
  date, and the days between are a gap.
* Issue 24, item 1 (``DatingRules.merge_conversion_noise``): where no amendment is recorded
  between two compilations, texts that differ only by conversion defects (a reflowed table, a
  dropped ``s 1``, a split word, lost material; :mod:`asat_corpus.conversion_noise`) are one
  version with the authorised text canonical. Every such pair is recorded on the timeline
  (``ProvisionTimeline.comparisons``) with its verdict, similarity, cause and a short diff.
* Item 2 (``DatingRules.narrow_commencements``): candidate commencements the compilations rule
  out are dropped before dating (:mod:`asat_corpus.commencement_evidence`); where no Act is placed
  between two different texts by its earliest commencement, an Act whose candidates straddle the
  earlier compilation explains the change. A gap left by one Act changing the text once is
  between two held texts (``VersionGap.between``): only the day is uncertain.
* Item 3 (known time): every version also carries ``known_from``/``known_to``, when it was the
  text on the books: from its first held compilation (or, before it, from the later of its
  certain commencement and the assent of the Act behind it) until a later compilation shows
  another text or an amending Act changed it (the later of its assent and commencement). An
  uncertain bound keeps the certain day, the widest day, the Act and the candidate dates.
* Before the first held text: the provision starts when the Act that added it (``ad``) or the
  Act itself commenced; amendments reflected in the first held compilation after that start
  mean the earlier text is not held (a gap).
* After the last held text: open if it is in the Act's latest complete compilation and that
  compilation is recent (``current_since``); else it
  ends at the earliest commencement of a recorded repeal, or, with no record, the day after
  the last compilation date that shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from asat_corpus.act import ActRef, Compilation
from asat_corpus.amendment import AmendingAct, AmendmentEntry, AmendmentKind
from asat_corpus.commencement_evidence import NarrowedCommencement, narrow_commencement
from asat_corpus.comparison import comparison_key, content_hash, is_lossy_copy
from asat_corpus.conversion_noise import judge_pair, short_diff
from asat_corpus.income_year import income_years_overlapping
from asat_corpus.provision import (
    Bound,
    BoundMethod,
    ParsedProvision,
    ProvisionTimeline,
    ProvisionVersion,
    TextComparison,
    VersionGap,
)

ONE_DAY = timedelta(days=1)
# Why a gap exists (``VersionGap.reason``).
REASON_AMENDED_BEFORE_EARLIEST = "amended before the earliest compilation held; the earlier text is not held"
REASON_AMENDED_MORE_THAN_ONCE = "amended more than once between held compilations; the text in between is not held"
REASON_COMMENCEMENT_UNCERTAIN = "commencement of the amending Act uncertain; the text on these days is not certain"
REASON_NO_AMENDMENT_RECORDED = "texts differ but the amendment history records no amendment between them"
TEXT_CHANGING = frozenset({AmendmentKind.ADDED, AmendmentKind.AMENDED, AmendmentKind.REPEALED_AND_SUBSTITUTED})


@dataclass(frozen=True)
class ActHistory:
    """The amendment history of one Act, as read from its latest endnotes (if any)."""

    original: AmendingAct | None
    acts: Mapping[ActRef, AmendingAct]
    entries_by_provision: Mapping[str, tuple[AmendmentEntry, ...]]

    @property
    def known(self) -> bool:
        return self.original is not None or bool(self.acts)


EMPTY_HISTORY = ActHistory(original=None, acts={}, entries_by_provision={})


@dataclass(frozen=True)
class DatingRules:
    """Which of issue 24's dating rules apply; all do by default.

    ``merge_conversion_noise``: item 1, texts that differ only by conversion defects where no
    amendment is recorded are one version. ``narrow_commencements``: item 2, candidate
    commencements the compilations rule out are dropped, and an Act whose candidates straddle a
    compilation explains a change no other Act explains. With both off the dating is as it was
    before issue 24 (what ``audit-dates`` reports as "before").
    """

    merge_conversion_noise: bool = True
    narrow_commencements: bool = True


ALL_RULES = DatingRules()
BEFORE_ISSUE_24 = DatingRules(merge_conversion_noise=False, narrow_commencements=False)


@dataclass(frozen=True)
class Observation:
    provision: ParsedProvision
    compilation: Compilation

    @property
    def day(self) -> date:
        assert self.compilation.compilation_date is not None
        return self.compilation.compilation_date


@dataclass
class _Run:
    """Consecutive observations holding the same text."""

    observations: list[Observation]

    @property
    def first(self) -> Observation:
        return self.observations[0]

    @property
    def last(self) -> Observation:
        return self.observations[-1]

    @property
    def canonical(self) -> Observation:
        """The authorised text if held, else the fullest (a conversion may have dropped tables)."""
        authorised = [o for o in self.observations if o.compilation.authorised]
        if authorised:
            return authorised[-1]
        return max(reversed(self.observations), key=lambda o: len(o.provision.text))


def _earliest(history: ActHistory, ref: ActRef) -> date | None:
    act = history.acts.get(ref)
    return act.commencement.earliest if act else None


def reflected(history: ActHistory, entry: AmendmentEntry, compilation: Compilation) -> bool:
    """Whether the amendment is part of the text shown by ``compilation``."""
    day = compilation.compilation_date
    if day is None:
        return False
    cutoff = compilation.amendments_up_to
    if cutoff is not None and entry.act.sort_key > cutoff.sort_key:
        return False
    earliest = _earliest(history, entry.act)
    if earliest is not None:
        return earliest <= day
    # Commencement unknown: only the Act number can place it, and only with a cutoff.
    return cutoff is not None


def _raw_narrowing(history: ActHistory, ref: ActRef) -> NarrowedCommencement | None:
    act = history.acts.get(ref)
    if act is None or not act.commencement.dates:
        return None
    dates = tuple(sorted(set(act.commencement.dates)))
    retrospective = act.assent is not None and dates[0] < act.assent
    return NarrowedCommencement(ref, dates, (), act.commencement.confident, retrospective, act.assent)


def _narrowing(
    history: ActHistory, ref: ActRef, earlier: Compilation | None, later: Compilation | None, rules: DatingRules
) -> NarrowedCommencement | None:
    """The candidate commencements of ``ref``, narrowed by the compilations if the rule is on."""
    act = history.acts.get(ref)
    if act is None or not act.commencement.dates:
        return None
    if not rules.narrow_commencements:
        return _raw_narrowing(history, ref)
    narrowed = narrow_commencement(act, earlier, later)
    return _raw_narrowing(history, ref) if narrowed.contradicted else narrowed


def _narrowed_detail(act: AmendingAct, narrowed: NarrowedCommencement) -> str:
    if not narrowed.excluded:
        return act.commencement.text
    dropped = ", ".join(d.isoformat() for d in narrowed.excluded)
    return f"{act.commencement.text} [the compilations rule out {dropped}]"


def _start_bound(
    history: ActHistory, ref: ActRef, not_after: date, narrowed: NarrowedCommencement | None = None
) -> Bound:
    """The day from which text changed by ``ref`` is certainly in force (latest commencement)."""
    act = history.acts.get(ref)
    if act is None or not act.commencement.dates:
        return Bound(not_after, BoundMethod.COMPILATION_DATE, (ref,), f"commencement of {ref} not held")
    narrowed = narrowed if narrowed is not None else _raw_narrowing(history, ref)
    assert narrowed is not None
    candidates = [d for d in narrowed.candidates if d <= not_after]
    if not candidates:
        return Bound(not_after, BoundMethod.COMPILATION_DATE, (ref,), f"{ref} commences after the compilation")
    latest = max(candidates)
    shown = tuple(candidates)
    retro = narrowed.retrospective
    if (
        narrowed.confident
        and len(set(candidates)) == 1
        and (len(set(act.commencement.dates)) == 1 or narrowed.excluded)
    ):
        return Bound(
            latest, BoundMethod.AMENDMENT_COMMENCEMENT, (ref,), _narrowed_detail(act, narrowed), None, shown, retro
        )
    if not narrowed.confident:
        return Bound(
            not_after,
            BoundMethod.COMMENCEMENT_SHRUNK,
            (ref,),
            f"commencement not read with confidence: {act.commencement.text}",
            min(candidates),
            shown,
            retro,
        )
    return Bound(
        latest,
        BoundMethod.COMMENCEMENT_SHRUNK,
        (ref,),
        f"latest of several commencements: {_narrowed_detail(act, narrowed)}",
        min(candidates),
        shown,
        retro,
    )


def _end_bound(history: ActHistory, ref: ActRef, held_on: date, narrowed: NarrowedCommencement | None = None) -> Bound:
    """The first day text changed by ``ref`` may no longer be in force (earliest commencement)."""
    fallback = held_on + ONE_DAY
    act = history.acts.get(ref)
    if act is None or not act.commencement.dates:
        return Bound(fallback, BoundMethod.COMPILATION_DATE, (ref,), f"commencement of {ref} not held")
    narrowed = narrowed if narrowed is not None else _raw_narrowing(history, ref)
    assert narrowed is not None
    dates = narrowed.candidates
    earliest = min(dates)
    retro = narrowed.retrospective
    if not narrowed.confident:
        return Bound(
            min(earliest, fallback),
            BoundMethod.COMMENCEMENT_SHRUNK,
            (ref,),
            f"commencement not read with confidence: {act.commencement.text}",
            max(dates),
            dates,
            retro,
        )
    if len(set(dates)) == 1:
        return Bound(
            earliest, BoundMethod.AMENDMENT_COMMENCEMENT, (ref,), _narrowed_detail(act, narrowed), None, dates, retro
        )
    return Bound(
        earliest, BoundMethod.COMMENCEMENT_SHRUNK, (ref,), _narrowed_detail(act, narrowed), max(dates), dates, retro
    )


def _group_runs(observations: Sequence[Observation]) -> list[_Run]:
    runs: list[_Run] = []
    last_key: str | None = None
    for obs in observations:
        key = comparison_key(obs.provision.text)
        if runs and key == last_key:
            runs[-1].observations.append(obs)
        else:
            runs.append(_Run([obs]))
        last_key = key
    return runs


def _merge_quiet(
    history: ActHistory, entries: Sequence[AmendmentEntry], runs: list[_Run], rules: DatingRules
) -> tuple[list[_Run], list[TextComparison]]:
    """Join adjacent runs with no amendment between them whose texts differ only by what a
    third-party conversion dropped (always) or by conversion defects (item 1, if the rule is on)."""
    merged: list[_Run] = []
    comparisons: list[TextComparison] = []
    for run in runs:
        if merged:
            previous = merged[-1]
            # Judged before any Act straddling the earlier compilation is taken to explain a
            # difference: texts that are the same law were not changed by it.
            quiet = not _changes_between(history, entries, previous.last.compilation, run.first.compilation)
            a, b = previous.canonical, run.canonical
            lossy = (not a.compilation.authorised and is_lossy_copy(a.provision.text, b.provision.text)) or (
                not b.compilation.authorised and is_lossy_copy(b.provision.text, a.provision.text)
            )
            if quiet and lossy:
                previous.observations.extend(run.observations)
                continue
            if quiet and rules.merge_conversion_noise:
                judgement = judge_pair(
                    a.provision.text, b.provision.text, a.compilation.authorised, b.compilation.authorised
                )
                comparisons.append(
                    TextComparison(
                        a.compilation.register_id,
                        b.compilation.register_id,
                        judgement.merges,
                        judgement.verdict.value,
                        round(judgement.similarity, 4),
                        judgement.cause,
                        short_diff(a.provision.text, b.provision.text),
                    )
                )
                if judgement.merges:
                    previous.observations.extend(run.observations)
                    continue
        merged.append(run)
    return merged, comparisons


def _changes_between(
    history: ActHistory,
    entries: Sequence[AmendmentEntry],
    earlier: Compilation,
    later: Compilation,
    rules: DatingRules = BEFORE_ISSUE_24,
) -> list[AmendmentEntry]:
    """The amendments that changed the text between two compilations holding different texts.

    With the narrowing rule on and no amendment placed between them by the earliest commencement,
    an Act whose candidate commencements straddle ``earlier`` explains the change: a part of it
    can have commenced after ``earlier`` (the compilations then narrow which).
    """
    changes = [
        e
        for e in entries
        if e.kind in TEXT_CHANGING and reflected(history, e, later) and not reflected(history, e, earlier)
    ]
    if changes or not rules.narrow_commencements:
        return changes
    straddling: list[AmendmentEntry] = []
    for e in entries:
        act = history.acts.get(e.act)
        if e.kind not in TEXT_CHANGING or act is None or not act.commencement.confident:
            continue
        day = earlier.compilation_date
        if day is None or act.commencement.latest is None or act.commencement.latest <= day:
            continue
        if not reflected(history, e, later):
            continue
        if not narrow_commencement(act, earlier, later).contradicted:
            straddling.append(e)
    return straddling


def _life_start(
    history: ActHistory, entries: Sequence[AmendmentEntry], first: Compilation
) -> tuple[Bound | None, list[AmendmentEntry], ActRef | None]:
    """Where the provision's present life began, and the changes after it that ``first`` shows."""
    shown = [e for e in entries if e.kind in TEXT_CHANGING and reflected(history, e, first)]
    added = [i for i, e in enumerate(shown) if e.kind is AmendmentKind.ADDED]
    if added:
        start_entry = shown[added[-1]]
        later = shown[added[-1] + 1 :]
        earliest = _earliest(history, start_entry.act)
        start = (
            Bound(earliest, BoundMethod.AMENDMENT_COMMENCEMENT, (start_entry.act,), "added")
            if earliest is not None
            else None
        )
        return start, later, start_entry.act
    original = history.original
    if original is not None and original.commencement.dates:
        start = Bound(
            original.commencement.earliest,
            BoundMethod.ACT_COMMENCEMENT,
            (original.ref,),
            original.commencement.text,
        )
        return start, shown, None
    return None, shown, None


def build_timeline(
    act: str,
    number: str,
    observations: Sequence[Observation],
    compilations: Sequence[Compilation],
    history: ActHistory,
    horizon: int,
    current_since: date | None = None,
    rules: DatingRules = ALL_RULES,
) -> ProvisionTimeline:
    """Date every text of one provision; see the module docstring for the rules.

    ``current_since``: a latest compilation dated before this day is not taken to be current
    (a 2015 compilation with nothing later held says nothing about 2026), so its text ends the
    day after its compilation date instead of staying open.
    """
    dated = sorted((o for o in observations if o.compilation.compilation_date), key=lambda o: o.day)
    entries = list(history.entries_by_provision.get(number, ()))  # Endnote 4's own order
    notes: list[str] = []
    runs, comparisons = _merge_quiet(history, entries, _group_runs(dated), rules)
    complete = sorted(
        (c for c in compilations if c.partial is None and c.compilation_date is not None),
        key=lambda c: c.compilation_date or date.min,
    )
    latest_complete = complete[-1] if complete else None

    bounds: list[tuple[Bound, Bound]] = []
    changes_after: list[list[AmendmentEntry]] = []  # per run: the changes between it and the next
    gaps: list[VersionGap] = []
    added_by: ActRef | None = None
    repealed_by: ActRef | None = None

    for index, run in enumerate(runs):
        if index == 0:
            start, changes, added_by = _life_start(history, entries, run.first.compilation)
            if changes:
                from_bound = _start_bound(history, changes[-1].act, run.first.day)
                if start is not None and start.day is not None and start.day < (from_bound.day or date.max):
                    gaps.append(
                        VersionGap(
                            act,
                            number,
                            start.day,
                            from_bound.day or run.first.day,
                            tuple(dict.fromkeys(e.act for e in changes)),
                            REASON_AMENDED_BEFORE_EARLIEST,
                        )
                    )
            elif start is not None and start.day is not None and start.day <= run.first.day:
                from_bound = start
            else:
                from_bound = Bound(
                    run.first.day,
                    BoundMethod.COMPILATION_DATE,
                    (),
                    f"earliest held compilation {run.first.compilation.register_id}; no amendment history held",
                )
        else:
            previous = runs[index - 1]
            held_before, held_after = previous.last.compilation, run.first.compilation
            changes = _changes_between(history, entries, held_before, held_after, rules)
            changes_after.append(changes)
            if changes:
                first_narrowed = _narrowing(history, changes[0].act, held_before, held_after, rules)
                last_narrowed = _narrowing(history, changes[-1].act, held_before, held_after, rules)
                end = _end_bound(history, changes[0].act, previous.last.day, first_narrowed)
                from_bound = _start_bound(history, changes[-1].act, run.first.day, last_narrowed)
                reason = REASON_AMENDED_MORE_THAN_ONCE
                if len(changes) == 1:
                    reason = REASON_COMMENCEMENT_UNCERTAIN
            else:
                end = Bound(
                    previous.last.day + ONE_DAY,
                    BoundMethod.COMPILATION_DATE,
                    (),
                    f"text differs from {run.first.compilation.register_id} but no amendment is recorded between",
                )
                from_bound = Bound(
                    run.first.day,
                    BoundMethod.COMPILATION_DATE,
                    (),
                    f"text differs from {previous.last.compilation.register_id} but no amendment is recorded",
                )
                reason = REASON_NO_AMENDMENT_RECORDED
                notes.append(
                    f"{previous.last.compilation.register_id} -> {run.first.compilation.register_id}: {reason}"
                )
            prev_from = bounds[-1][0].day or date.min
            end_day = max(end.day or prev_from, prev_from)
            end = replace(end, day=end_day, widest=max(end.widest, end_day) if end.widest else None)
            start_day = max(from_bound.day or end_day, end_day)
            from_bound = replace(
                from_bound, day=start_day, widest=max(from_bound.widest, end_day) if from_bound.widest else None
            )
            bounds[-1] = (bounds[-1][0], end)
            if start_day > end_day:
                acts = tuple(dict.fromkeys(e.act for e in changes))
                between: tuple[str, str] | None = None
                if rules.narrow_commencements and len(changes) == 1:
                    between = (_version_id(act, number, previous), _version_id(act, number, run))
                gaps.append(
                    VersionGap(
                        act,
                        number,
                        end_day,
                        start_day,
                        acts,
                        reason,
                        between,
                        tuple(sorted(set(end.candidates) | set(from_bound.candidates))),
                        end.retrospective or from_bound.retrospective,
                    )
                )
        bounds.append((from_bound, Bound(None, BoundMethod.OPEN)))

    if runs:
        last = runs[-1].last
        is_current = current_since is None or last.day >= current_since
        if latest_complete is not None and last.compilation.register_id == latest_complete.register_id and is_current:
            to_bound = Bound(
                None, BoundMethod.OPEN, (), f"in the latest compilation held ({last.compilation.register_id})"
            )
        else:
            later = [c for c in complete if (c.compilation_date or date.min) > last.day]
            repeals = (
                [
                    e
                    for e in entries
                    if e.kind is AmendmentKind.REPEALED
                    and not reflected(history, e, last.compilation)
                    and reflected(history, e, later[0])
                ]
                if later
                else []
            )
            if repeals:
                repealed_by = repeals[0].act
                to_bound = _end_bound(history, repeals[0].act, last.day)
            else:
                detail = (
                    f"absent from {later[0].register_id} and no repeal recorded"
                    if later
                    else f"latest compilation held is {last.compilation.register_id}; later changes are not known"
                )
                to_bound = Bound(last.day + ONE_DAY, BoundMethod.COMPILATION_DATE, (), detail)
            from_day = bounds[-1][0].day or last.day
            to_bound = replace(to_bound, day=max(to_bound.day or from_day, from_day))
        bounds[-1] = (bounds[-1][0], to_bound)

    known: list[tuple[Bound, Bound]] = []
    for index in range(len(runs)):
        start, end = _known_bounds(history, runs, index, changes_after, bounds[index][1], rules)
        previous_end = known[-1][1].day if known else None
        known.append((_known_start(history, start, bounds[index][0], previous_end), end))
    versions = tuple(
        _version(act, number, run, from_bound, to_bound, horizon, known_bounds)
        for run, (from_bound, to_bound), known_bounds in zip(runs, bounds, known, strict=True)
    )
    return ProvisionTimeline(
        act=act,
        number=number,
        versions=versions,
        gaps=tuple(gaps),
        added_by=added_by,
        repealed_by=repealed_by,
        notes=tuple(notes),
        comparisons=tuple(comparisons),
    )


def _known_bounds(
    history: ActHistory,
    runs: Sequence[_Run],
    index: int,
    changes_after: Sequence[Sequence[AmendmentEntry]],
    valid_to: Bound,
    rules: DatingRules,
) -> tuple[Bound, Bound]:
    """When the text of ``runs[index]`` was the text on the books (item 3's known time).

    From its first held compilation until the next held compilation shows another text or, before
    that, an amending Act changed it: on the later of its assent and its commencement (the
    earliest candidate; the latest candidate is kept as the widest end). The end is never before
    the day after the text's last held compilation, which shows it.
    """
    run = runs[index]
    start = Bound(
        run.first.day, BoundMethod.COMPILATION_DATE, (), f"first held compilation {run.first.compilation.register_id}"
    )
    floor = run.last.day + ONE_DAY
    if index + 1 < len(runs):
        following = runs[index + 1]
        ceiling = following.first.day
        changes = changes_after[index]
        if not changes:
            detail = f"{following.first.compilation.register_id} shows another text; no amendment recorded"
            return start, Bound(ceiling, BoundMethod.COMPILATION_DATE, (), detail)
        ref = changes[0].act
        act = history.acts.get(ref)
        narrowed = _narrowing(history, ref, run.last.compilation, following.first.compilation, rules)
        if act is None or narrowed is None:
            detail = f"changed by {ref} (commencement not held); {following.first.compilation.register_id} shows it"
            return start, Bound(floor, BoundMethod.COMPILATION_DATE, (ref,), detail, ceiling)
        assent = act.assent or date.min
        earliest = min(max(max(assent, narrowed.candidates[0]), floor), ceiling)
        latest = min(max(max(assent, narrowed.candidates[-1]), floor), ceiling)
        if not narrowed.confident:
            earliest, latest = floor, ceiling
        method = BoundMethod.AMENDMENT_COMMENCEMENT if earliest == latest else BoundMethod.COMMENCEMENT_SHRUNK
        detail = f"changed by {ref} (assent {act.assent}; commencement {act.commencement.text})"
        return start, Bound(
            earliest,
            method,
            (ref,),
            detail,
            latest if latest != earliest else None,
            narrowed.candidates,
            narrowed.retrospective,
        )
    if valid_to.day is None:
        return start, valid_to
    return start, replace(valid_to, day=max(valid_to.day, floor))


def _known_start(history: ActHistory, first_held: Bound, valid_from: Bound, previous_end: date | None) -> Bound:
    """The known-time start, reaching back before the first held compilation to the day the text
    was made law (the later of its certain commencement and the assent of the Acts behind it), never
    before the previous text stopped being the text on the books."""
    if valid_from.method not in (BoundMethod.AMENDMENT_COMMENCEMENT, BoundMethod.ACT_COMMENCEMENT):
        return first_held
    if valid_from.day is None or first_held.day is None or valid_from.day >= first_held.day:
        return first_held
    assents: list[date] = []
    for ref in valid_from.acts:
        original = history.original if history.original is not None and history.original.ref == ref else None
        act = history.acts.get(ref) or original
        if act is None or act.assent is None:
            return first_held
        assents.append(act.assent)
    day = max([valid_from.day, *assents])
    if previous_end is not None:
        day = max(day, previous_end)
    if day >= first_held.day:
        return first_held
    detail = f"made law on {day} ({valid_from.detail}); first held in {first_held.detail}"
    return replace(valid_from, day=day, detail=detail)


def _version_id(act: str, number: str, run: _Run) -> str:
    return f"{act}:{number}@{run.first.compilation.register_id}"


def _version(
    act: str,
    number: str,
    run: _Run,
    from_bound: Bound,
    to_bound: Bound,
    horizon: int,
    known: tuple[Bound, Bound] | None = None,
) -> ProvisionVersion:
    canonical = run.canonical
    provision = canonical.provision
    assert from_bound.day is not None
    return ProvisionVersion(
        id=_version_id(act, number, run),
        act=act,
        number=number,
        heading=provision.heading,
        hierarchy=provision.hierarchy,
        text=provision.text,
        subsections=provision.subsections,
        register_ids=tuple(dict.fromkeys(o.compilation.register_id for o in run.observations)),
        authorised=canonical.compilation.authorised,
        valid_from=from_bound.day,
        valid_to=to_bound.day,
        from_bound=from_bound,
        to_bound=to_bound,
        income_years=income_years_overlapping(from_bound.day, to_bound.day, horizon),
        content_hash=content_hash(provision.text),
        known_from=known[0].day if known else None,
        known_to=known[1].day if known else None,
        known_from_bound=known[0] if known else None,
        known_to_bound=known[1] if known else None,
        compilation_dates=tuple(dict.fromkeys(o.day for o in run.observations)),
    )
