"""Statements built from ATO Interpretative Decisions, labelled by the Decision (pure).

An Interpretative Decision asks a yes/no question of the law in its Issue and answers it in its
Decision, citing the provisions that decide it. Its Issue turned into a statement ("Is the
taxpayer entitled to a deduction under section 8-1 ... for speeding fines?" -> "the taxpayer is
entitled to a deduction under section 8-1 ... for speeding fines") is *supported* by those
provisions where the Decision begins "Yes" and *contradicted* where it begins "No"; any other
Decision ("The cost base is ...", "(a) Yes ...") is left out.

The evidence is the text of each cited section the corpus holds, in the version in force on the
decision's date; where the corpus does not hold that text (most decisions predate the earliest
compilation held) the nearest held version stands in (the first in force after the date, else
the last before it), and the statement says so (``in_force`` false).

Statements are split by the sections they are *about* (those the Issue names; else those the
Decision names; else every specific section cited) with the relevance ranker's stable
provision hash, so the test slice asks about sections never trained on. A cited section in
another slice than the statement's is left out of its evidence, so no section's text is
evidence in two slices. Every statement passes the leakage guard against the evaluation suites.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.provision import ProvisionTimeline, ProvisionVersion
from asat_corpus.resolution import Status, resolve
from asat_research.relevance.aid_record import AidRecord, names_provision
from asat_research.relevance.leakage import LeakageGuard
from asat_research.relevance.training_data import CATCH_ALL, aid_records, provision_split


class Label(StrEnum):
    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"


# Sections that define terms for a whole Act: evidence only where the statement is about them.
DEFINITIONS = frozenset(
    {("itaa1997", "995-1"), ("itaa1936", "6"), ("gst1999", "195-1"), ("fbtaa1986", "136"), ("taa1953", "sch1-12-35")}
)

_BE = frozenset({"is", "are", "was", "were"})
_DO = frozenset({"does", "do", "did"})
_HAVE = frozenset({"has", "have", "had"})
_MODAL = frozenset({"can", "could", "will", "would", "should", "shall", "may", "might", "must"})
AUXILIARIES = _BE | _DO | _HAVE | _MODAL
_AUX_AT = re.compile(r"(?:^|(?<=, ))(" + "|".join(sorted(AUXILIARIES)) + r")\b", re.IGNORECASE)
_WHETHER = re.compile(r"^\s*whether\b[\s,]*", re.IGNORECASE)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A word that opens a noun phrase or a prepositional phrase: the word after it is still the subject.
_OPENS_PHRASE = _words(
    """a an the this that these those any each every all some no its their his her our your my such
    of for in to by from under with on at into onto over as about between within without through
    per upon via than other another both either neither which whose same certain and or"""
)
# Where the subject's search stops: a conditional begins, or (after "is/are") a relative clause,
# whose own adjectives ("which is subject to") would be taken for the predicate.
_CONDITIONAL = _words("where when if because while unless")
_RELATIVE = _words("that which who whom whose")
# Predicates that follow "is/are" in the Issues: adjectives and participles that end a subject.
_BE_PREDICATE = _words(
    """entitled assessable deductible liable eligible exempt required able allowed allowable subject included
    includible taxable gst-free treated considered regarded deemed excluded exempted covered precluded
    prevented prohibited permitted capable available payable necessary obliged still also applicable
    relevant creditable non-assessable characterised characterized classified part"""
)
_ARTICLES = frozenset({"a", "an"})
_IRREGULAR_PARTICIPLES = _words(
    """made paid held taken given sold built bought brought met withheld known done seen shown kept spent
    lent left lost won become chosen drawn written borne arisen undertaken been had got gotten begun"""
)
_VERBS = _words(
    """apply be have claim deduct include qualify satisfy make constitute need require receive obtain treat use
    access attribute reduce increase meet come carry continue register remain form exercise count provide pay
    get cease happen stop arise give trigger result fall prevent affect disregard change choose elect cause
    create derive incur hold acquire dispose take lose fail breach contravene exceed offset allow become mean
    operate extend cover entitle own sell supply import export lodge issue withhold report recoup recover
    rely commence exist occur amount belong retain transfer convert accrue roll utilise utilize pass vest
    consider regard classify impose charge limit restrict preclude permit reflect represent rank render
    invalidate extinguish terminate end start begin bring deny not still also only"""
)
_NOT_ING = _words(
    """thing something anything nothing everything during building housing funding offering listing holding
    ruling earnings dwelling accounting boarding clothing planning training meeting lodging trading
    financing advertising banking pricing farming mining shipping string king spring ceiling"""
)
_APPOSITIVE_MAX = 15
_ARTICLE_SUBJECT_MAX = 5


def decision_label(decision: str) -> Label | None:
    """SUPPORTED where the Decision's first word is "Yes", CONTRADICTED where it is "No", else None."""
    words = decision.split()
    if not words:
        return None
    first = words[0].strip(".,;:!-—").casefold()
    return Label.SUPPORTED if first == "yes" else Label.CONTRADICTED if first == "no" else None


def _bare(token: str) -> str:
    return token.strip(".,;:'\"()[]‘’“”").casefold()


def _candidates(tokens: Sequence[str], stops: frozenset[str]) -> Iterator[tuple[int, bool]]:
    """Where the predicate may begin: (index, whether it follows a closed appositive), up to the
    first relative clause or conditional. An appositive set off by commas after the subject's
    head ("the entity, a food supplier,") is part of the subject."""
    i = 1
    while i < len(tokens):
        after_appositive = False
        if tokens[i - 1].endswith(","):
            closing = next(
                (j for j in range(i, min(len(tokens), i + _APPOSITIVE_MAX)) if tokens[j].endswith(",")), None
            )
            if closing is not None and closing + 1 < len(tokens):
                i, after_appositive = closing + 1, True
        if _bare(tokens[i]) in stops:
            return
        yield i, after_appositive
        i += 1


def _strong(tokens: Sequence[str], i: int, aux: str, after_appositive: bool) -> bool:
    word = _bare(tokens[i])
    if aux in _BE:
        if word in _ARTICLES:
            short = i <= _ARTICLE_SUBJECT_MAX and not any(_bare(t) in _OPENS_PHRASE for t in tokens[1:i])
            return after_appositive or short
        return word in _BE_PREDICATE
    if aux in _HAVE:
        return word in _IRREGULAR_PARTICIPLES or (word.endswith("ed") and len(word) > 4)
    return word in _VERBS


def _weak(tokens: Sequence[str], i: int, aux: str) -> bool:
    word = _bare(tokens[i])
    if aux not in _BE:
        return False
    if word in _IRREGULAR_PARTICIPLES or (word.endswith("ed") and len(word) > 4):
        return True
    return word.endswith("ing") and len(word) > 5 and word not in _NOT_ING


def _predicate_start(tokens: Sequence[str], aux: str) -> int | None:
    """The index of the predicate's first token: the subject is ``tokens[:index]`` (at least one
    token). A strong sign (an adjective such as "deductible", a verb after a modal) anywhere before
    a relative clause wins over a weak one (a participle, which may open a reduced relative clause:
    "a payment received by ... assessable")."""
    if tokens and _bare(tokens[0]) == "there":
        return 1
    candidates = [
        (i, after)
        for i, after in _candidates(tokens, _CONDITIONAL | _RELATIVE if aux in _BE else _CONDITIONAL)
        if after or _bare(tokens[i - 1]) not in _OPENS_PHRASE
    ]
    for i, after in candidates:
        if _strong(tokens, i, aux, after):
            return i
    for i, _ in candidates:
        if _weak(tokens, i, aux):
            return i
    return None


def _question_sentence(issue: str) -> tuple[str, str]:
    """(the sentences before the question, the question) of an Issue, the question without its "?"."""
    text = " ".join(issue.split())
    mark = text.find("?")
    question = text[:mark] if mark >= 0 else text.rstrip(".")
    starts = [m.end() for m in re.finditer(r"[.!] (?=[A-Z])", question)]
    cut = starts[-1] if starts else 0
    return question[:cut], question[cut:].strip()


def issue_statement(issue: str) -> str:
    """The Issue's question as a statement: "Whether X?" -> "X"; "Is X Y?" -> "X is Y"; "Under A,
    can X do Y?" -> "Under A, X can do Y". Where the subject cannot be told from the predicate the
    auxiliary is dropped ("Is X Y?" -> "X Y"): only the words' order changes, never the words."""
    facts, question = _question_sentence(issue)
    whether = _WHETHER.match(question)
    if whether is not None:
        return f"{facts}{question[whether.end() :]}".strip()
    match = _AUX_AT.search(question)
    if match is None:
        return f"{facts}{question}".strip()
    aux = match.group(1)
    lead = question[: match.start()]
    tokens = question[match.end() :].split()
    start = _predicate_start(tokens, aux.casefold())
    body = " ".join(tokens if start is None else [*tokens[:start], aux.casefold(), *tokens[start:]])
    return f"{facts}{lead}{body}".strip()


@dataclass(frozen=True)
class Evidence:
    act: str
    number: str
    version_id: str
    text: str
    in_force: bool  # the version in force on the decision's date (else the nearest held one)

    @property
    def key(self) -> tuple[str, str]:
        return (self.act, self.number)


@dataclass(frozen=True)
class IdStatement:
    id: str  # "aid:ATO ID 2003/217"
    ruling_id: str
    issue: str
    statement: str
    label: Label
    decided: date | None
    about: tuple[tuple[str, str], ...]  # the sections it asks about (act, number)
    evidence: tuple[Evidence, ...]
    split: str  # train | dev | test, by ``about``

    @property
    def contradicted(self) -> bool:
        return self.label is Label.CONTRADICTED

    @property
    def in_force(self) -> bool:
        """Whether every evidence text is the version in force on the decision's date."""
        return all(e.in_force for e in self.evidence)

    @property
    def group(self) -> str:
        """The provision that groups it for cross-validation (its first ``about`` section)."""
        act, number = min(self.about)
        return f"{act}:{number}"


@dataclass
class StatementSet:
    statements: list[IdStatement]
    counts: Counter[str] = field(default_factory=Counter)

    def digest(self) -> str:
        """A hash of every statement: the training data's identity in the model card."""
        return statements_digest(self.statements)


def statements_digest(statements: Iterable[IdStatement]) -> str:
    h = hashlib.sha256()
    for s in statements:
        evidence = ";".join(f"{e.version_id}:{int(e.in_force)}" for e in s.evidence)
        h.update(f"{s.id}\t{s.statement}\t{s.label.value}\t{s.split}\t{evidence}\n".encode())
    return h.hexdigest()


def version_for(timeline: ProvisionTimeline, day: date | None) -> tuple[ProvisionVersion, bool] | None:
    """The version in force on ``day`` (``True``), else the nearest held one (``False``): the first
    in force after ``day``, else the last before it. None when no text is held."""
    versions = sorted(timeline.versions, key=lambda v: v.valid_from)
    if not versions:
        return None
    if day is None:
        return versions[0], False
    resolved = resolve(timeline, day)
    if resolved.status is Status.IN_FORCE and resolved.version is not None:
        return resolved.version, True
    later = [v for v in versions if v.valid_from > day]
    return (later[0] if later else versions[-1]), False


def about_sections(record: AidRecord, held: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The held sections the decision is about: those its Issue names, else those its Decision
    names, else every specific one it cites."""
    for text in (record.issue, record.decision):
        named = tuple(k for k in held if names_provision(text, k[1]))
        if named:
            return named
    return tuple(k for k in held if k not in CATCH_ALL)


def statement_of(
    record: AidRecord, corpus: CorpusBuild, counts: Counter[str], guard: LeakageGuard
) -> IdStatement | None:
    """The labelled statement an Interpretative Decision gives, or None (the reason counted)."""
    label = decision_label(record.decision)
    if label is None:
        counts["aid: Decision neither Yes nor No"] += 1
        return None
    statement = issue_statement(record.issue)
    if guard.leaks(record.issue) or guard.leaks(statement):
        counts["aid: dropped by the leakage guard"] += 1
        return None
    held = tuple(
        dict.fromkeys(
            (str(r.act), str(r.number))
            for r in record.held_references
            if corpus.timeline(str(r.act), str(r.number)) is not None
        )
    )
    if not held:
        counts["aid: cites no section the corpus holds"] += 1
        return None
    about = about_sections(record, held)
    splits = {provision_split(*k) for k in about}
    if len(splits) != 1:
        counts[
            "aid: no section it is about" if not splits else "aid: dropped, sections asked about in different slices"
        ] += 1
        return None
    split = splits.pop()
    evidence: list[Evidence] = []
    for key in held:
        if key in DEFINITIONS and key not in about:
            counts["evidence: a definitions section left out (not asked about)"] += 1
            continue
        if provision_split(*key) != split:
            counts["evidence: a cited section in another slice left out"] += 1
            continue
        timeline = corpus.timeline(*key)
        found = version_for(timeline, record.decided) if timeline is not None else None
        if found is None:
            counts["evidence: a cited section with no text held left out"] += 1
            continue
        version, in_force = found
        evidence.append(Evidence(key[0], key[1], version.id, version.text, in_force))
    if not evidence:
        counts["aid: no evidence text"] += 1
        return None
    return IdStatement(
        id=f"aid:{record.ruling_id}",
        ruling_id=record.ruling_id,
        issue=record.issue,
        statement=statement,
        label=label,
        decided=record.decided,
        about=about,
        evidence=tuple(evidence),
        split=split,
    )


def build_statement_set(corpus: CorpusBuild, evaluation_questions: Iterable[str]) -> StatementSet:
    """Every labelled statement the corpus's Interpretative Decisions give, in corpus order."""
    guard = LeakageGuard.of(evaluation_questions)
    counts: Counter[str] = Counter()
    statements: list[IdStatement] = []
    for record in aid_records(corpus, counts):
        statement = statement_of(record, corpus, counts, guard)
        if statement is None:
            continue
        statements.append(statement)
        counts[f"{statement.split}: {statement.label.value}"] += 1
        counts[
            f"{statement.split}: evidence in force on the decision's date"
            if statement.in_force
            else f"{statement.split}: evidence the nearest held text"
        ] += 1
    return StatementSet(statements, counts)
