"""Whether a question asserts something about the law, and the statements it asserts (pure).

Tax agents ask by asserting: "Since the threshold was $10 million in 2014-15, my client
qualifies, right?". :func:`detect_premise` recognises four forms and returns the asserted
statements as plain declarative text, the question's own words with the opener, tag or lead
taken off:

- an **opener** (``since``, ``given (that)``, ``as``, ``because``, ``now that``, ``seeing
  that``, ``considering (that)``) and its clause, up to the first comma (or the question word)
  that ends a clause with a verb: "Now that GST is 15%, how much ...?" asserts "GST is 15%";
- a **tag** (``right?``, ``correct?``, ``yes?``, ``true?``, ``isn't it?``, ``doesn't it?``,
  ``couldn't it?``, ``is that right?``, ``am I right?`` ...): everything before it is asserted;
- a **confirmation lead** ("Is it true that ...?", "Am I right that ...?", "Can you confirm
  (that) ...?"): the rest is asserted;
- a **citation ask** ("... Which section says that?", "... Where does the law say so?"):
  the sentences before it are asserted; "Which section says that X?" asserts X.

An asserted text is split into statements at ``so``, ``because``, a dash or a semicolon
("... incurred while driving for work, so they're deductible" is two); a piece without a verb
("Under the spouse contribution offset in 2025-26") is joined to the next, so no statement loses
its subject; a piece that asks (starts with a question word) is no statement. A question with
none of the forms, or whose supposed statements have no verb ("As a sole trader, can I ...?",
"Since 1 July 2017, what ...?"), asserts nothing: None. A tag or lead asserts what it follows
even where the closed verb list finds no verb in it. Only the tag, lead and citation forms ask
to have the statements confirmed; an opener builds on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class PremiseForm(StrEnum):
    OPENER = "opener"  # "Since X, ...?"
    TAG = "tag"  # "X, right?"
    CONFIRM = "confirm"  # "Is it true that X?"
    CITATION = "citation"  # "X. Which section says that?"


@dataclass(frozen=True)
class Premise:
    statements: tuple[str, ...]  # declarative, in the question's words, in order
    form: PremiseForm
    asks_confirmation: bool  # the question asks to have them confirmed (tag, lead, citation), not only builds on them


_PRONOUN = r"(?:it|they|she|he|i|we|you|there|that|this|one)"
_NEGATIVE_TAG = rf"(?:(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|must)n't|can't|won't|shan't|cannot)\s+{_PRONOUN}"
_LONG_TAG = (
    rf"{_NEGATIVE_TAG}|is\s+(?:that|it)\s+(?:right|correct|so|true)|am\s+i\s+(?:right|correct|wrong)"
    r"|isn't\s+that\s+(?:right|so|true|correct)|wouldn't\s+you\s+(?:say|agree)|do(?:n't)?\s+you\s+(?:think|agree)"
)
# A positive tag after a negative statement ("... can't be a deemed dividend, can it?").
_POSITIVE_TAG = (
    r"(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should|must)\s+(?:it|they|she|he|there)"
)
_SHORT_TAG = rf"right|correct|yes|yeah|true|no|ok(?:ay)?|agreed|surely|{_POSITIVE_TAG}"
TAG = re.compile(
    rf"(?:\s*(?:[,;:\u2014\u2013]|\s-)\s*(?:{_LONG_TAG}|{_SHORT_TAG})|\s+(?:{_LONG_TAG}))\s*[?!.]*\s*$",
    re.IGNORECASE,
)
_CITE_NOUN = (
    r"(?:section|sections|subsection|provision|division|part|rule|ruling|law|act|legislation|authority|reference)"
)
CITATION_ASK = re.compile(
    rf"(?:^|(?<=[.?!,;:\u2014\u2013])|\s-)\s*(?:(?:which|what)(?:'s|\s+is)?\s+(?:the\s+)?{_CITE_NOUN}\b[^.?!]*"
    r"|where\s+(?:does|do|is|in)\b[^.?!]*)\?\s*$",
    re.IGNORECASE,
)
CITATION_LEAD = re.compile(
    rf"^\s*(?:which|what)\s+{_CITE_NOUN}\s+(?:says?|provides?|states?)\s+that\s+",
    re.IGNORECASE,
)
CONFIRM_LEAD = re.compile(
    r"^\s*(?:(?:is|isn't)\s+it\s+(?:true|right|correct|the\s+case)\s+that"
    r"|am\s+i\s+(?:right|correct)\s+(?:that|in\s+thinking\s+that|to\s+think\s+that)"
    r"|(?:can|could)\s+you\s+confirm(?:\s+that)?|please\s+confirm(?:\s+that)?|confirm\s+that"
    r"|i\s+(?:understand|believe|think)\s+that|my\s+understanding\s+is\s+that)\s+",
    re.IGNORECASE,
)
OPENER = re.compile(
    r"^\s*(?:since|given(?:\s+that)?|because(?!\s+of\b)|now\s+that|seeing\s+(?:that|as)|considering(?:\s+that)?"
    r"|as(?!\s+(?:at|of|from|for|to|in|on|with|part|per|well|soon|long|far|such)\b))\s+",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    r",\s+|\s+[\u2014\u2013-]\s+|\u2014|\s+(?=(?:how|what|which|when|where|who|whom|whose|why|whether)\b)",
    re.IGNORECASE,
)
_SPLIT = re.compile(
    r"\s*(?:;|[\u2014\u2013]|\s-\s)\s*|,?\s+(?:and\s+)?(?:so(?!\s+(?:long|that|far|as|much|many)\b)|because|which\s+means)\s+",
    re.IGNORECASE,
)
_WH_START = re.compile(r"^(?:how|what|which|when|where|who|whom|whose|why|whether)\b", re.IGNORECASE)
_LEADING = re.compile(r"^(?:and|but|so|that|then|therefore|thus)\s+", re.IGNORECASE)
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?")
_CONTRACTED_VERB = re.compile(r"(?:n't|'re|'ve|'ll|'m|'d)$")
_VERB_LIST = """am is are was were be been being has have had do does did can could will would shall should may
    might must cannot it's that's there's he's she's what's who's applies apply applied qualifies
    qualify qualified gets get got covers covered means mean meant includes include included exceeds
    exceed exceeded needed requires require required allows allow allowed lets gives give gave pays
    paid earns earn earned owns owned holds hold held lived worked makes make made takes take took
    becomes become became changed increased rose fell dropped goes went gone remains remain remained
    stays stayed started ended commenced commences abolished replaced doubled halved incurred acquired
    receives received sells sold buys bought lends lent charged used treated exempts exempted capped
    limited reduces reduced phased"""
_VERBS = frozenset(_VERB_LIST.split())


def _asserts(text: str) -> bool:
    """``text`` has a verb, so it can state something (a noun phrase alone cannot). The verbs are
    a closed list of auxiliaries and of the verbs tax questions assert with, left out where the
    word is as often a noun ("changes", "limits", "pay")."""
    words = _TOKEN.findall(text.casefold().replace("\u2019", "'"))
    return any(w in _VERBS or _CONTRACTED_VERB.search(w) for w in words)


def _clean(text: str) -> str:
    text = text.strip().strip(" ,;:.?!\u2014\u2013-").strip()
    while (lead := _LEADING.match(text)) is not None:
        text = text[lead.end() :]
    return text


def _statements(text: str) -> list[str]:
    """``text`` split at ``so``, ``because``, dashes and semicolons; a verbless piece is joined to
    the next (or, at the end, the previous) piece so that it keeps its context."""
    pieces: list[str] = []
    cursor = 0
    for match in _SPLIT.finditer(text):
        pieces.append(text[cursor : match.start()])
        cursor = match.end()
    pieces.append(text[cursor:])
    joined: list[str] = []
    pending = ""
    for piece in (p for p in pieces if _clean(p)):
        pending = f"{pending}, {piece}" if pending else piece
        if _asserts(pending):
            joined.append(pending)
            pending = ""
    if pending and joined:
        joined[-1] = f"{joined[-1]}, {pending}"
    elif pending:
        joined.append(pending)
    return [s for s in (_clean(piece) for piece in joined) if s and _asserts(s) and not _asks(s)]


# A yes/no question's inverted start ("Can I deduct ...", "Is the company ..."): it asks, it asserts nothing.
_YES_NO_START = re.compile(
    r"^\s*(?:can|could|is|are|was|were|does|do|did|should|will|would|may|might|must|has|have|had|am)\s+"
    r"(?:i|we|you|he|she|it|they|my|our|her|his|their|the|a|an|this|that|there|someone|anyone|[a-z]+'s)\b",
    re.IGNORECASE,
)


def _asks(text: str) -> bool:
    """``text`` is a question (a wh-word or a yes/no question's start), not a statement."""
    return bool(_WH_START.match(text) or _YES_NO_START.match(text))


def _opener_clause(text: str) -> tuple[str, str] | None:
    """The clause after an opener and the rest of the question: the first clause end (comma, dash,
    question word) where the text before it has a verb; None when there is none."""
    if _WH_START.match(text):
        return None  # "Since when ...?"
    for match in _CLAUSE_END.finditer(text):
        clause = text[: match.start()]
        if _asserts(clause):
            return clause, text[match.end() :]
    return None


def _normalised(question: str) -> str:
    return " ".join(question.replace("\u2019", "'").replace("\u2018", "'").split())


def detect_premise(question: str) -> Premise | None:
    """The statements ``question`` asserts about the law, and how it asserts them; None for a
    plain question (see the module docstring)."""
    text = _normalised(question)
    body, form = text, None
    if (tag := TAG.search(text)) is not None:
        body, form = text[: tag.start()], PremiseForm.TAG
    elif (lead := CITATION_LEAD.match(text)) is not None:
        body, form = text[lead.end() :].rstrip(" ?"), PremiseForm.CITATION
    elif (cite := CITATION_ASK.search(text)) is not None:
        body, form = text[: cite.start()], PremiseForm.CITATION
    elif (lead := CONFIRM_LEAD.match(text)) is not None:
        body, form = text[lead.end() :].rstrip(" ?"), PremiseForm.CONFIRM
    statements: list[str] = []
    opener = OPENER.match(body)
    split = _opener_clause(body[opener.end() :]) if opener is not None else None
    if split is not None:
        clause, rest = split
        statements = [s for s in (_clean(clause),) if s]
        if form is not None:
            statements += _statements(rest)
        form = form or PremiseForm.OPENER
    elif form is not None:
        # the tag or lead asserts the body even where no verb of the list is in it ("... reaches $40,000")
        statements = _statements(body) or [s for s in (_clean(body),) if s and not _asks(s)]
    if not statements or form is None:
        return None
    return Premise(tuple(statements), form, asks_confirmation=form is not PremiseForm.OPENER)
