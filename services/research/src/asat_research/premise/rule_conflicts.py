"""A premise that a rule of the law excludes, limits or deems otherwise, read against the quoted
law (pure).

Four readings, each a fixed rule with no fitted parameter (the contradiction model trained on the
Interpretative Decisions reads at chance: ``docs/premises.md``):

- **Exclusion.** A statement grants something the law can deny (deductible, GST-free, exempt,
  assessable income, lent: "private expenses are deductible", "hot takeaway chicken is GST-free", "an SMSF could lend money to a member's
  relative") and a line of the law denies that very thing ("you cannot deduct ...", "is not
  GST-free ...", "must not: (a) lend money ...") for what the statement names. What it names is
  the statement's *core*: the subject before the verb (for a grant such as "deductible"), or the
  object after it (for an act such as "lend" or "can deduct"), cut at the first qualifier ("as
  long as", "because", "under" ...); a pronoun subject ("they're deductible") is read from the
  statement before it ("my client's speeding fines"), and a short "it's food" adds its noun. The
  law's line names the core when it holds at least half of the core's words and either its head
  noun (the last word before a preposition or a participle: "penalty interest *on* a loan" is
  interest, not penalty; "penalties *imposed* under ..." are penalties) or two of them; or, read
  with the lines that lead into it, when they hold the head and another of the core's words, one
  of them in the line itself ("(1) ... related to travel, if: (a) ... residential premises ..."
  names "travel to a residential rental property"). A lead-in that makes the denial conditional
  ("..., if:") denies only through the paragraph of its condition. Words are compared without a
  plural ``s`` ("bribes" is the law's "bribe"), and a few words of the law stand for the words
  agents use ("fines" are a "penalty"). Words every expense carries ("expenses", "costs",
  "amounts") and the domain's own nouns ("supply", "benefit", "entity") are not the core. A
  one-word core that two paragraphs of one list name ("food for consumption on the premises",
  "food of a kind specified ...") is what the list is about, not a case it excludes: "food is
  GST-free" is not denied by it; a core of more words is a case of its own, denied by the first
  paragraph naming it ("golf club membership fees": "(a) membership of a recreational club").
- **Eligibility.** A statement gives a benefit to a kind of entity ("a company gets the CGT
  discount", "the company can use the main residence exemption") and the law lists who may have
  it ("must be made by: (a) an individual; ...", "if: (a) you are an individual; and") without
  that kind ("a life insurance company" is not "a company"), the list sharing two topic words with
  the statement.
- **Limitation.** A statement makes a duty conditional ("employers only have to withhold PAYG
  from wages if the employee asks") and a line of the law imposes that duty on what the statement
  names with no condition at all ("An entity must withhold an amount from salary, wages ..."),
  and without a word of the statement's condition.
- **Deeming.** A statement says something can never be treated as something else ("a loan from
  the family company to a shareholder can't be a deemed dividend") and a line of the law treats it
  so when its conditions are met ("... is taken to pay a dividend ... if: (a) the private company
  makes a loan to the entity ..."), the paragraph naming the subject being a plain condition.

Only a plain statement is read for a conflict of exclusion or who may have a benefit: one that
negates ("entertainment is not deductible") or limits with "only" asserts an absence, which a line
of the law does not show. A line that states the grant for the core, or lists the entity, *agrees*:
a question asking to confirm such a statement is answered as any other. A statement that denies
the very thing a predicate names, the negation right before it ("bribes to foreign public
officials are not deductible", "... aren't GST-free"), is agreed by a line that denies it for the
core in the law's own words, and is never rejected: a line that grants it may hold conditions the
statement's case does not meet.

A line is read with the lines that lead into it (a paragraph "(b) hot food ..." under "A supply
is not GST-free under section 38-2 if it is a supply of:"), by
:func:`asat_research.premise.contradiction_features.passage_units`; notes and examples are not
rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from asat_research.premise.contradiction_features import NEGATION, Unit, passage_units
from asat_research.question_words import content_words


@dataclass(frozen=True)
class Predicate:
    """Something the law grants or denies: how a statement asserts it and how a line denies it."""

    name: str  # as the note says it: "deductible"
    asserted: re.Pattern[str]
    denied: re.Pattern[str]
    granted: re.Pattern[str]
    core_after: bool  # the core is the verb's object ("lend money to ...") rather than its subject


_NEG = r"(?:cannot|can\s?not|can't|not|no|never)"
# Up to three words between a negation and what it denies, none a verb of its own ("does not
# *reduce* the deduction" denies nothing).
_GAP = r"(?:\W+(?!(?:reduce|exceed|include|limit|affect|apply|change|increase|alter|prevent)\w*\b)[\w*]+){0,3}?\W+\*?"

_DEDUCTION_DENIED = re.compile(rf"\b{_NEG}{_GAP}(?:deduct(?:ible|ions?|ed|ing)?|allowable deductions?)\b", re.I)
_DEDUCTION_GRANTED = re.compile(
    r"\b(?:you|it|they|an? \w+)\s+(?:can|may)\s+deduct\b|\bis\s+(?:an?\s+)?(?:allowable\s+)?deduct", re.I
)

PREDICATES: tuple[Predicate, ...] = (
    Predicate(
        "deductible",
        re.compile(r"\b(?:tax[- ])?deductible\b", re.I),
        _DEDUCTION_DENIED,
        _DEDUCTION_GRANTED,
        core_after=False,
    ),
    Predicate(
        "deducted",
        re.compile(
            r"\b(?:can|could|may|able to|allowed to)\s+(?:\w+\s+)?deduct\b|\bclaim (?:a )?deduction for\b", re.I
        ),
        _DEDUCTION_DENIED,
        _DEDUCTION_GRANTED,
        core_after=True,
    ),
    Predicate(
        "GST-free",
        re.compile(r"\bgst[- ]free\b", re.I),
        re.compile(rf"\b{_NEG}{_GAP}gst[- ]free\b", re.I),
        re.compile(r"\b(?:is|are)\s+gst[- ]free\b", re.I),
        core_after=False,
    ),
    Predicate(
        "exempt",
        re.compile(r"\b(?:is|are|was|were|be)\s+(?:\w+\s+)?exempt\b|\btax[- ]free\b", re.I),
        re.compile(rf"\b{_NEG}{_GAP}exempt\b", re.I),
        re.compile(r"\b(?:is|are)\s+(?:\*)?exempt\b", re.I),
        core_after=False,
    ),
    Predicate(
        "assessable income",
        re.compile(r"\b(?:is|are|was|were|be)\s+(?:\w+\s+)?\*?assessable\b", re.I),
        re.compile(rf"\b{_NEG}{_GAP}assessable\b|\bnon-assessable\b", re.I),
        re.compile(r"\b(?:is|are)\s+(?:included\s+in\s+)?(?:your\s+)?\*?assessable income\b", re.I),
        core_after=False,
    ),
    Predicate(
        "lent",
        re.compile(r"\b(?:can|could|may|might|is allowed to|are allowed to|able to)\s+(?:\w+\s+)?lend\b", re.I),
        re.compile(rf"\b(?:must|may|shall)\s+not{_GAP}lend\b", re.I),
        re.compile(r"\b(?:may|can)\s+lend\b", re.I),
        core_after=True,
    ),
)

# Words that say nothing of what the statement is about ("private expenses" is about "private"),
# and the domain's own nouns ("a GST-free supply", "an exempt benefit").
_GENERIC_WORDS = (
    "expense expenses cost costs amount amounts outgoing outgoings item items thing things payment payments "
    "money payg supply supplies benefit benefits entity entities person persons making taxpayer taxpayers "
    "my her his their our your its fully entirely always all any every incurred paid year years income tax "
    "business also still just really"
)
# The law's word for the words agents use: the stem of the agent's word to the law's.
_LAW_WORD = {"fines": "penalt", "fine": "penalt", "fined": "penalt"}
_PRONOUN_SUBJECT = re.compile(r"^\s*(?:they|it|this|that|these|those|she|he)(?:'re|'s|\s)", re.I)
_NOUN_STATEMENT = re.compile(r"^\s*(?:it|they)(?:'s|'re|\s+is|\s+are)\s+(?:an?\s+)?(?P<noun>[a-z][a-z -]{1,40})$", re.I)
_QUALIFIER = re.compile(
    r"\b(?:as long as|provided|if|unless|because|since|when|whenever|where|while|so|that|which|who|under|"
    r"as an?|once|after|before|until|even|despite|in \d{4}|in the|during)\b|[,;]",
    re.I,
)
_PREPOSITION = re.compile(r"\b(?:of|to|for|on|from|in|with|by|at|about|against|into|between)\b", re.I)
# A participle after the noun it qualifies, before its own complement, starts a clause the core
# does not take in: "penalties *imposed under* an Australian law", "fees *paid by* a business".
_PARTICIPLE = re.compile(
    r"(?<=\w)\s+(?:[a-z]{3,}ed|paid|made|held|given|owed|charged|spent|bought|sold|incurred)"
    r"(?=\s+(?:by|under|in|for|to|on|from|at|with|during|as|through|over)\b|\s*$)",
    re.I,
)
_VERB_TAIL = re.compile(
    r"\b(?:is|are|was|were|be|been|being|'re|can|could|would|will|should|may|might|must|gets?|got|has|have|"
    r"had|do|does|did|(?:is|are|was|were|ca|could|wo|would|should|does|do|did)n't)(?!\w).*$",
    re.I,
)
_LIMITING = re.compile(r"\bonly\b|\bjust\b|\bsolely\b|\bexclusively\b", re.I)

ENTITIES: dict[str, re.Pattern[str]] = {
    "company": re.compile(r"\bcompan(?:y|ies)\b|\bpty ltd\b|\bcorporat(?:e|ion)\b", re.I),
    "trust": re.compile(r"\btrusts?\b", re.I),
    "partnership": re.compile(r"\bpartnerships?\b", re.I),
    "individual": re.compile(r"\bindividuals?\b|\bsole traders?\b", re.I),
    "superannuation fund": re.compile(r"\bsmsfs?\b|\bsuper(?:annuation)? funds?\b", re.I),
}
# How a list of who may have a benefit names each kind, the whole item ("(c) a trust; or").
LISTED_FORMS: dict[str, re.Pattern[str]] = {
    "company": re.compile(r"(?:private |public )?company"),
    "trust": re.compile(r"(?:unit |discretionary |fixed )?trust"),
    "partnership": re.compile(r"partnership"),
    "individual": re.compile(r"individual"),
    "superannuation fund": re.compile(
        r"(?:complying |regulated |self managed )?superannuation (?:entity|fund)|smsf|super fund"
    ),
}
_ENTITY_SUBJECT = re.compile(
    r"^\s*(?:my client's\s+|her\s+|his\s+|the\s+|an?\s+|their\s+)?(?P<entity>[\w ]{2,40}?)\s+"
    r"(?:gets?|can|could|may|is|qualifies|will|would|has|receives?|claims?|uses?)\b",
    re.I,
)
_REQUIREMENT_LEAD = re.compile(
    r"\b(?:must be (?:made|held|owned|derived|paid) by|only if|if|is entitled|are entitled)\s*:\s*$", re.I
)
_LISTED_ENTITY = re.compile(
    r"^\(\w{1,5}\)\s*(?:you are|the taxpayer is|it is|the entity is|the \w+ is)?\s*(?:an?|the)\s+\*?(?P<phrase>[\w *-]{2,60}?)"
    r"\s*(?:;|,|\.|\bor\b|\band\b|\bthat\b|\bwho\b|\bin relation\b|$)",
    re.I,
)
MIN_SHARED_TOPIC = 2
# Words of a benefit statement that do not say which benefit ("gets", "held", "sells").
_WEAK_TOPIC = frozenset(
    content_words("gets get got use uses using held holds hold sells sell sold owns own has have can")
)


@dataclass(frozen=True)
class RuleReading:
    """A statement read against one line of the law (with its lead-in)."""

    statement: str
    passage: int  # which of the provision texts holds the line
    line: str  # the line, and its lead-in where it has one, verbatim as it stands in the text
    kind: str  # "exclusion" or "eligibility"
    named: str  # what the statement names: its core ("private expenses") or entity ("company")
    predicate: str  # what is granted: "deductible", "GST-free", or the benefit for an entity


@dataclass(frozen=True)
class RuleConflict(RuleReading):
    """The line denies what the statement grants, or lists who may have it without the entity."""


@dataclass(frozen=True)
class RuleAgreement(RuleReading):
    """The line grants what the statement grants, or lists the statement's entity."""


@dataclass(frozen=True)
class _Core:
    text: str
    words: frozenset[str]
    head: str | None


def _form(word: str) -> str:
    """A content word as lines and statements are compared: the law's word for the agent's, and
    without a plural ``s`` ("bribes" is "bribe", "fees" is "fee")."""
    word = _LAW_WORD.get(word, word)
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_GENERIC = frozenset(_form(w) for w in content_words(_GENERIC_WORDS))


def _law_words(text: str) -> frozenset[str]:
    return frozenset(_form(w) for w in content_words(text))


def _core(phrase: str) -> _Core:
    phrase = _QUALIFIER.split(phrase, maxsplit=1)[0].strip()
    words = frozenset(w for w in _law_words(phrase) if w not in _GENERIC and not w[0].isdigit())
    # The head is the last word before a preposition, or before a participle that qualifies it:
    # "penalties imposed under ..." is about penalties.
    noun_phrase = _PARTICIPLE.split(phrase, maxsplit=1)[0]
    before_preposition = _PREPOSITION.split(noun_phrase, maxsplit=1)[0]
    heads = [w for w in (_form(x) for x in _ordered_words(before_preposition)) if w in words]
    if not heads:  # "PAYG from wages", "money to a member's relative": the last word that is not generic
        heads = [w for w in (_form(x) for x in _ordered_words(phrase)) if w in words][-1:]
    return _Core(phrase, words, heads[-1] if heads else None)


def _ordered_words(text: str) -> list[str]:
    return [w[:6] for w in re.findall(r"[a-z0-9$%]+(?:[-'][a-z0-9]+)*", text.casefold()) if w[:6] in content_words(w)]


def _subject(statement: str, match: re.Match[str]) -> str:
    return _VERB_TAIL.sub("", statement[: match.start()]).strip()


def _cores(statements: Sequence[str], index: int, predicate: Predicate, match: re.Match[str]) -> _Core:
    statement = statements[index]
    if predicate.core_after:
        return _core(statement[match.end() :])
    subject = _subject(statement, match)
    core = _core(subject)
    if _PRONOUN_SUBJECT.match(statement) or not core.words:
        for earlier in reversed(statements[:index]):
            earlier_core = _core(_VERB_TAIL.sub("", earlier))
            if earlier_core.words:
                core = earlier_core
                break
    nouns = [
        m.group("noun")
        for s in statements
        if (m := _NOUN_STATEMENT.match(s.strip())) and not any(p.asserted.search(s) for p in PREDICATES)
    ]
    if nouns:
        extra = frozenset(w for n in nouns for w in _law_words(n) if w not in _GENERIC)
        core = _Core(f"{core.text} ({', '.join(nouns)})", core.words | extra, core.head)
    return core


def _names(core: _Core, law: frozenset[str], path: frozenset[str] = frozenset()) -> bool:
    """The line's words (``law``) name the core: at least half the core's words, with its head or
    two of them. Or, read with the lines that lead into it (``path``), the head and another of the
    core's words, one of them in the line itself: "(1) ... related to travel, if: (a) ... residential
    premises ..." names "travel to a residential rental property"."""
    if not core.words:
        return False
    found = core.words & law
    if 2 * len(found) >= len(core.words) and ((core.head is not None and core.head in found) or len(found) >= 2):
        return True
    in_path = core.words & (law | path)
    return bool(found) and core.head is not None and core.head in in_path and len(in_path) >= 2


def _line(text: str, units: Sequence[Unit], index: int) -> str:
    """The unit and every line that leads into it ("(1) ... must not:", "(a) lend money ... to:",
    "(ii) a relative of a member"), verbatim."""
    unit = units[index]
    top = unit
    seen = {index}
    while top.lead is not None and top.lead not in seen:
        seen.add(top.lead)
        top = units[top.lead]
    return text[top.start : unit.end].strip()


def _path(text: str, units: Sequence[Unit], index: int) -> str:
    """The unit and the lines that lead into it, without the sibling paragraphs between them:
    what the denial or the grant is read from."""
    chain = [units[index]]
    seen = {index}
    while chain[-1].lead is not None and chain[-1].lead not in seen:
        seen.add(chain[-1].lead)
        chain.append(units[chain[-1].lead])
    return "\n".join(text[u.start : u.end].strip() for u in reversed(chain))


_LEADER = re.compile(r"\.{4,}|…{2,}")
# A lead-in that makes its rule conditional ("... insofar as it is related to travel, if:") denies
# only with the paragraph of the condition the statement meets: read through that paragraph.
_CONDITIONAL_LEAD = re.compile(r"\b(?:if|where|unless|when)\s*:\s*$", re.I)


def _rule_line(text: str, unit: Unit) -> bool:
    """A line that can state a rule: not a note or example, and not an entry of a finding table
    ("accrued leave transfer payments ........ 26-10"), which points to the rule elsewhere."""
    return not unit.note and _LEADER.search(text[unit.start : unit.end]) is None


def _plain(statement: str) -> bool:
    return NEGATION.search(statement) is None and _LIMITING.search(statement) is None


# The negation of a predicate's own verb phrase: "are not deductible", "aren't GST-free", "is
# never exempt", "is not tax deductible" (the predicate's match follows it).
_DENIES_PREDICATE = re.compile(r"(?:\b(?:not|never)|n't)\s+(?:\w+\s+)?$", re.I)


def _denial(statement: str, match: re.Match[str]) -> bool:
    """The statement denies what the predicate names, and negates or limits nothing else: "bribes
    ... are not deductible" does; "expenses not related to work are deductible" does not."""
    before = statement[: match.start()]
    negation = _DENIES_PREDICATE.search(before)
    if negation is None or _LIMITING.search(statement) is not None:
        return False
    return NEGATION.search(f"{before[: negation.start()]} {statement[match.end() :]}") is None


def _exclusions(statements: Sequence[str], passages: Sequence[str]) -> tuple[list[RuleConflict], list[RuleAgreement]]:
    conflicts: list[RuleConflict] = []
    agreements: list[RuleAgreement] = []
    for index, statement in enumerate(statements):
        plain = _plain(statement)
        for predicate in PREDICATES:
            match = predicate.asserted.search(statement)
            if match is None:
                continue
            denial = not plain  # read only for an agreement, where it denies the predicate itself
            if denial and not _denial(statement, match):
                continue
            core = _cores(statements, index, predicate, match)
            for p, text in enumerate(passages):
                units = passage_units(text)
                denying: dict[int | None, list[str]] = {}
                for i, unit in enumerate(units):
                    if not _rule_line(text, unit) or _CONDITIONAL_LEAD.search(text[unit.start : unit.end]):
                        continue
                    line = _line(text, units, i)
                    path = _path(text, units, i)
                    if not _names(core, _law_words(text[unit.start : unit.end]), _law_words(path)):
                        continue
                    if predicate.denied.search(path):
                        if denial:  # the law denies it too, in its own words
                            agreements.append(
                                RuleAgreement(statement, p, line, "exclusion", core.text, f"not {predicate.name}")
                            )
                        else:
                            denying.setdefault(unit.lead if unit.lead is not None else -1 - i, []).append(line)
                    elif predicate.granted.search(path) and NEGATION.search(path) is None and not denial:
                        agreements.append(RuleAgreement(statement, p, line, "exclusion", core.text, predicate.name))
                for lines in denying.values():
                    # A one-word core named by two paragraphs of one list ("food for consumption on
                    # the premises", "food of a kind specified ...") is what the whole list is about,
                    # not the case one paragraph excludes: "food is GST-free" is not denied by it.
                    # A core of more words is a case of its own, denied by the first paragraph
                    # naming it ("golf club membership fees": "(a) membership of a recreational club").
                    if len(lines) == 1 or len(core.words) > 1:
                        conflicts.append(RuleConflict(statement, p, lines[0], "exclusion", core.text, predicate.name))
    return conflicts, agreements


def _entity(statement: str) -> str | None:
    match = _ENTITY_SUBJECT.match(statement)
    if match is None:
        return None
    # "the trustee of a discretionary trust" is a trustee: the kind is read before a preposition.
    subject = _PREPOSITION.split(match.group("entity"), maxsplit=1)[0]
    found = [name for name, pattern in ENTITIES.items() if pattern.search(subject)]
    return found[0] if len(found) == 1 else None


def _listed(phrase: str) -> str | None:
    """The entity a list item names when the whole item is that kind ("an individual", "a
    complying superannuation entity"), else None ("a life insurance company" is a kind of its own)."""
    phrase = " ".join(phrase.replace("*", " ").casefold().split())
    return next((name for name, form in LISTED_FORMS.items() if form.fullmatch(phrase)), None)


def _eligibility(statements: Sequence[str], passages: Sequence[str]) -> tuple[list[RuleConflict], list[RuleAgreement]]:
    conflicts: list[RuleConflict] = []
    agreements: list[RuleAgreement] = []
    for statement in statements:
        entity = benefit_entity(statement)
        if entity is None or not _plain(statement):
            continue
        topic = frozenset(
            w
            for w in content_words(ENTITIES[entity].sub(" ", statement))
            if _form(w) not in _GENERIC and w not in _WEAK_TOPIC and not w[0].isdigit()
        )
        for p, text in enumerate(passages):
            units = passage_units(text)
            for lead_index, lead in enumerate(units):
                if not _REQUIREMENT_LEAD.search(text[lead.start : lead.end].strip()):
                    continue
                items = [(i, u) for i, u in enumerate(units) if u.lead == lead_index]
                block = frozenset().union(lead.words, *(u.words for _, u in items))
                if len(topic & block) < MIN_SHARED_TOPIC:
                    continue  # a list for another benefit than the statement's
                listed: list[tuple[int, str]] = []
                for i, item in items:
                    match = _LISTED_ENTITY.match(text[item.start : item.end].strip())
                    if match is not None:
                        listed.append((i, match.group("phrase")))
                if not listed:
                    continue
                kinds = {_listed(phrase) for _, phrase in listed}
                if kinds == {None}:
                    continue  # a list of conditions, not of who may have the benefit
                first = listed[0][0]
                line = _line(text, units, first)
                if entity in kinds:
                    agreements.append(RuleAgreement(statement, p, line, "eligibility", entity, "eligible"))
                else:
                    conflicts.append(RuleConflict(statement, p, line, "eligibility", entity, "eligible"))
    return conflicts, agreements


_NOT_DEEMED = re.compile(
    r"\b(?:can't|cannot|can not|isn't|is not|aren't|are not|won't|will not|never)\s+(?:be\s+)?(?:an?\s+)?"
    r"(?:deemed|treated as|taken to be|taken as|counted as)\s+(?:an?\s+)?\*?(?P<what>[a-z][\w-]+)",
    re.I,
)


def _deemings(statements: Sequence[str], passages: Sequence[str]) -> list[RuleConflict]:
    """A statement that something can never be treated as something else ("a loan from the
    family company to a shareholder can't be a deemed dividend") against a line of the law that
    treats it so when its conditions are met ("A private company is taken to pay a dividend ...
    if: (a) the private company makes a loan to the entity ..."): the paragraph naming the
    statement's subject states a condition (it negates nothing), and its lead-in deems the same
    thing ("dividend")."""
    conflicts: list[RuleConflict] = []
    for statement in statements:
        match = _NOT_DEEMED.search(statement)
        if match is None or _LIMITING.search(statement) is not None:
            continue
        core = _core(_VERB_TAIL.sub("", statement[: match.start()]))
        noun = match.group("what").casefold()
        what = noun[:6]
        deems = re.compile(
            rf"\b(?:is|are)\s+(?:taken|treated|deemed|counted)\s+(?:to\s+(?:pay|be|have\s+paid|have)|as)\s+"
            rf"(?:an?\s+|the\s+)?\*?{re.escape(what)}",
            re.I,
        )
        for p, text in enumerate(passages):
            units = passage_units(text)
            for i, unit in enumerate(units):
                own = text[unit.start : unit.end]
                words = _law_words(own)
                if (
                    not _rule_line(text, unit)
                    or NEGATION.search(own) is not None
                    or not _names(core, words)
                    or core.head not in words
                ):
                    continue  # the paragraph must name the subject itself ("loan"), as a plain condition
                if deems.search(_path(text, units, i)):
                    conflicts.append(RuleConflict(statement, p, _line(text, units, i), "deeming", core.text, noun))
                    break
    return conflicts


_ONLY_IF = re.compile(
    r"\bonly\s+(?:have|has|need|needs|are required|is required|must|are obliged|is obliged)\s+to\s+"
    r"(?P<verb>withhold|lodge|pay|register|report|notify|remit|give|keep)\b(?P<object>.*?)"
    r"\b(?:if|when|where|once)\b(?P<condition>.+)$",
    re.I,
)
_CONDITIONAL = re.compile(r"\b(?:if|unless|where|when|only|except|provided)\b", re.I)


def _duties(statements: Sequence[str], passages: Sequence[str]) -> list[RuleConflict]:
    """A statement that makes a duty conditional ("employers only have to withhold from wages if
    the employee asks") against a line of the law that imposes the duty on what it names without
    any condition ("An entity must withhold an amount from salary, wages ..."), where the
    statement's condition has a word the line does not."""
    conflicts: list[RuleConflict] = []
    for statement in statements:
        match = _ONLY_IF.search(statement)
        if match is None or NEGATION.search(statement) is not None:
            continue
        core = _core(match.group("object"))
        condition = frozenset(
            w for w in _law_words(match.group("condition")) if w not in _GENERIC and not w[0].isdigit()
        )
        duty = re.compile(rf"\bmust\s+{match.group('verb')}\b", re.I)
        for p, text in enumerate(passages):
            units = passage_units(text)
            for i, unit in enumerate(units):
                line = _line(text, units, i)
                path = _path(text, units, i)
                if not _rule_line(text, unit) or not duty.search(path) or _CONDITIONAL.search(path):
                    continue
                words = _law_words(path)
                if _names(core, words) and condition - words:
                    conflicts.append(RuleConflict(statement, p, line, "limitation", core.text, match.group("verb")))
    return conflicts


def rule_readings(
    statements: Sequence[str], passages: Sequence[str]
) -> tuple[tuple[RuleConflict, ...], tuple[RuleAgreement, ...]]:
    """Every line of ``passages`` (provision texts) that denies or grants what ``statements``
    assert, in the statements' order, then the passages'."""
    ex_conflicts, ex_agreements = _exclusions(statements, passages)
    el_conflicts, el_agreements = _eligibility(statements, passages)
    conflicts = ex_conflicts + el_conflicts + _duties(statements, passages) + _deemings(statements, passages)
    return tuple(conflicts), tuple(ex_agreements + el_agreements)


def rule_conflicts(statements: Sequence[str], passages: Sequence[str]) -> tuple[RuleConflict, ...]:
    """The lines that deny a statement, in order, except where another line grants the same
    statement the same thing (the law is then read both ways, and neither is shown as the answer)."""
    conflicts, agreements = rule_readings(statements, passages)
    agreed = {(a.statement, a.kind) for a in agreements}
    return tuple(c for c in conflicts if (c.statement, c.kind) not in agreed)


def rule_conflict(statements: Sequence[str], passages: Sequence[str]) -> RuleConflict | None:
    """The first of :func:`rule_conflicts`, or None."""
    conflicts = rule_conflicts(statements, passages)
    return conflicts[0] if conflicts else None


_BENEFIT = re.compile(
    r"\b(?:gets?|got|qualif\w*|entitled|receives?|claims?|uses?|use|access(?:es)?|eligible|benefits? from)\b", re.I
)


def benefit_entity(statement: str) -> str | None:
    """The kind of entity a statement gives a benefit to ("a company gets the CGT discount", "the
    company can use the main residence exemption"), or None ("an SMSF could have up to 4 members"
    gives nothing)."""
    entity = _entity(statement)
    return entity if entity is not None and _BENEFIT.search(statement) else None


def rule_conflict_note(conflict: RuleConflict) -> str:
    """Which statement of the question is wrong and why, in the law's words."""
    if conflict.kind == "deeming":
        return (
            f'The question says "{conflict.statement}"; the law in force treats it as a {conflict.predicate} '
            f"when the conditions quoted are met."
        )
    if conflict.kind == "limitation":
        return (
            f'The question says "{conflict.statement}"; the law in force says it must {conflict.predicate} '
            f"without that condition, in the words quoted."
        )
    if conflict.kind == "eligibility":
        return (
            f'The question says "{conflict.statement}"; the law in force lists who may have it, and a '
            f"{conflict.named} is not among them, as quoted."
        )
    return (
        f'The question says "{conflict.statement}"; the law in force says otherwise: it does not allow '
        f'"{conflict.named}" to be {conflict.predicate}, in the words quoted.'
    )
