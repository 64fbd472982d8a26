"""The extractive generator: no model. It quotes the most relevant subsections; it does not conclude.

Pass 1 scores every offered span by the reranker's score for its subsection (where it scored
one), plus the share of the question's content words it contains, plus a prior for the order it
was offered in (retrieval rank), plus a bonus when the question asks for an amount, rate or date
and the span states one. It keeps the subsection (the chunk) of the
best span of each of the first three sections offered (and that section's opening subsection, where a provision states its rule), so every strongly retrieved provision is
quoted, then the subsections of the best remaining spans, up to ``MAX_SUBSECTIONS``. A
subsection is quoted whole, so a lead-in ("The amount of the producer offset is:") comes with the
paragraphs it introduces. Pass 2 makes one claim per subsection whose text *is* its spans, each
cited, so a claim never says more than its quotes.

A question that asserts something of the law (:func:`asat_research.premise.detection.detect_premise`:
``Since the threshold was $10 million ...``, ``... is 15%, isn't it?``) is checked figure by
figure against the quoted law: where the law gives the concept of a figure the question states
(turnover, holding period, members ...) only another figure of its kind
(:func:`asat_research.premise.figure_conflicts.figure_conflict`), the answer is a rejected
premise: one claim, the subsection that states the law's figure, and a note naming both figures.
A premise the quoted law does not contradict is never rejected: a question built on it ("Since
..., how much ...?") is answered as any other; one that asks to have it confirmed ("..., right?")
is declined, since quoting is not confirming. Deterministic: same input, same output.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from asat_corpus.chunking import chunk_id_of
from asat_corpus.contracts.verification import too_short_to_quote
from asat_corpus.text.numbers import number_text
from asat_research.answer_types import AMOUNT, ASKS_AMOUNT, ASKS_WHEN, TIME
from asat_research.generation.port import GeneratedClaim, Generation, NumberedSpan, Selection
from asat_research.generation.quantities import Quantity, quantities
from asat_research.premise.clients_case import CLIENTS_CASE
from asat_research.premise.contradiction_port import ContradictionScorer
from asat_research.premise.detection import detect_premise
from asat_research.premise.figure_conflicts import (
    FigureConflict,
    figure_agreements,
    figure_conflicts,
    states_a_comparable_figure,
)
from asat_research.premise.rule_conflicts import benefit_entity, rule_conflict_note, rule_conflicts, rule_readings
from asat_research.question_words import content_words

NAME = "extractive"
MODEL = "none (extractive)"
NOTE = (
    "Extractive mode: these are the law's own words, ranked by relevance to the question. "
    "AsAt quotes rather than concludes; read the cited provisions before relying on them."
)
MAX_SUBSECTIONS = 6
SECTIONS_QUOTED = 3
QUOTES_PER_CLAIM = 12  # the verifier takes at most 20 quotes a claim
MODEL_RULE = "model"  # premise_rule of a rejection by the contradiction model
REJECTION_QUOTES = 3  # subsections of different sections quoted to show a premise wrong
FIGURE_SECTIONS = 4  # the sections ranked first, where a figure of the question is compared
ANSWER_TYPE_BONUS = 0.3
# The reranker's score for the span's subsection (a probability for the domain ranker): the
# subsection the ranker reads as answering the question is quoted first.
RELEVANCE_WEIGHT = 1.0


def _answer_type_bonus(question: str, statements: Sequence[str], text: str) -> float:
    """A bonus for a span that can show an asserted figure right or wrong (the same kind and
    concept; half for the same kind only), or states the kind of answer the question asks for."""
    if statements:
        if states_a_comparable_figure(statements, text):
            return ANSWER_TYPE_BONUS
        stated = {q.kind for statement in statements for q in quantities(statement)}
        if stated & {q.kind for q in quantities(text)}:
            return ANSWER_TYPE_BONUS / 2
    if ASKS_AMOUNT.search(question) and AMOUNT.search(text):
        return ANSWER_TYPE_BONUS
    if ASKS_WHEN.search(question) and TIME.search(text):
        return ANSWER_TYPE_BONUS
    return 0.0


def _quotable(text: str) -> bool:
    return not too_short_to_quote(text)


class ExtractiveGenerator:
    name = NAME

    def __init__(
        self, max_subsections: int = MAX_SUBSECTIONS, contradiction: ContradictionScorer | None = None
    ) -> None:
        self.max_subsections = max_subsections
        # read after the figures and the fixed rules find nothing (see _rejection)
        self.contradiction = contradiction

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        wanted = content_words(question)
        premise = detect_premise(question)
        statements = premise.statements if premise is not None else ()
        scored: list[tuple[float, int, str]] = []
        for rank, span in enumerate(spans):
            if not _quotable(span.text):
                continue
            overlap = len(wanted & content_words(span.text)) / len(wanted) if wanted else 0.0
            prior = 1.0 / (1.0 + rank / 8.0)
            bonus = _answer_type_bonus(question, statements, span.text)
            relevance = RELEVANCE_WEIGHT * (span.relevance or 0.0)
            scored.append((-(overlap + 0.25 * prior + bonus + relevance), rank, span.key))
        scored.sort()
        # The subsection of the best span of each of the first few sections offered (retrieval
        # order), so the answer quotes every strongly retrieved provision, then the subsections
        # of the best remaining spans. A subsection is quoted whole, so a lead-in ("The amount
        # of the producer offset is:") comes with the paragraphs it introduces.
        sources = list(dict.fromkeys(s.source_id for s in spans))[:SECTIONS_QUOTED]
        by_key = {s.key: s for s in spans}
        chunks: list[str] = []
        for source in sources:
            best = next((key for _, _, key in scored if by_key[key].source_id == source), None)
            if best is not None and _chunk(by_key[best]) not in chunks:
                chunks.append(_chunk(by_key[best]))
            # and the provision's opening subsection(s), where its rule is stated
            for lead in (s for s in spans if s.source_id == source and s.lead and _quotable(s.text)):
                if _chunk(lead) not in chunks and len(chunks) < self.max_subsections:
                    chunks.append(_chunk(lead))
        # A subsection whose rule denies what the question asserts is quoted whatever its rank:
        # it is the answer to an asserting question.
        vetoed: set[str] = set()
        if statements:
            groups = [group for group in _subsections(spans) if any(_quotable(span.text) for span in group)]
            rejected = _rejection(statements, groups, self.contradiction)
            for passage in reversed(rejected[0] if rejected is not None else []):
                if _chunk(groups[passage][0]) not in chunks:
                    chunks.insert(0, _chunk(groups[passage][0]))
            del chunks[self.max_subsections :]
            vetoed = _vetoed(statements, groups)
            chunks = [c for c in chunks if c not in vetoed]
        for _, _, key in scored:
            if len(chunks) >= self.max_subsections:
                break
            if _chunk(by_key[key]) not in chunks and _chunk(by_key[key]) not in vetoed:
                chunks.append(_chunk(by_key[key]))
        # Keep the offered (retrieval) order among the chosen spans.
        return Selection(tuple(s.key for s in spans if _chunk(s) in chunks), NAME, MODEL)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        groups = [group for group in _subsections(spans) if any(_quotable(span.text) for span in group)]
        premise = detect_premise(question)
        if premise is not None:
            rejected = _rejection(premise.statements, groups, self.contradiction)
            if rejected is not None:
                passages, note, rule = rejected
                return Generation(
                    claims=tuple(_claim(groups[p]) for p in passages),
                    premise_rejected=True,
                    provider=NAME,
                    model=MODEL,
                    seed=None,
                    note=f"{note} {NOTE}",
                    premise_rule=rule,
                )
            if premise.asks_confirmation and not _agrees(premise.statements, groups):
                return Generation(
                    claims=(),
                    premise_rejected=False,
                    provider=NAME,
                    model=MODEL,
                    seed=None,
                    note=NOTE,
                    declined=(
                        "the question asks AsAt to confirm a statement; extractive mode quotes the law but does "
                        "not confirm or reject statements: read the provisions in the reading list"
                    ),
                )
        claims = tuple(_claim(group) for group in groups)
        return Generation(claims=claims, premise_rejected=False, provider=NAME, model=MODEL, seed=None, note=NOTE)


def _rejection(
    statements: Sequence[str],
    groups: Sequence[Sequence[NumberedSpan]],
    contradiction: ContradictionScorer | None = None,
) -> tuple[list[int], str, str] | None:
    """(the subsections to quote, the note, the rule) where the law in ``groups`` contradicts a
    statement: a figure first, then a rule that excludes, limits or deems otherwise, then the
    contradiction model at its out-of-fold threshold. Every subsection of a different section that
    shows it is quoted, up to ``REJECTION_QUOTES`` (the model's: the one holding its sentence)."""
    figures = figure_conflicts(statements, _figure_texts(groups))
    if figures:
        # every subsection giving the concept a figure, closest first ("$2 million or more" and
        # "less than $2 million" are both the law's turnover bar)
        shown = list(dict.fromkeys(c.passage for c in figures))[:REJECTION_QUOTES]
        named = [c for c in figures if c.passage in shown]
        return shown, rejection_note(named), "figure"
    rules = rule_conflicts(statements, _law_lines(groups))
    if rules:
        first = rules[0]
        same = [c.passage for c in rules if c.statement == first.statement and c.kind == first.kind]
        return _distinct_sections(same, groups), rule_conflict_note(first), first.kind
    if contradiction is not None:
        return _modelled(statements, groups, contradiction)
    return None


def _modelled(
    statements: Sequence[str], groups: Sequence[Sequence[NumberedSpan]], contradiction: ContradictionScorer
) -> tuple[list[int], str, str] | None:
    """The contradiction model's rejection: the first statement of the law (not the client's case)
    that the provisions' subsections contradict at or above the model's threshold, quoting the
    subsection that holds the sentence giving the most evidence of it."""
    texts = _law_lines(groups)
    if not any(texts):
        return None
    for statement in statements:
        if CLIENTS_CASE.match(statement):
            continue
        verdict = contradiction.score(statement, texts)
        if verdict.rejected and verdict.quote is not None and texts[verdict.quote.passage]:
            note = (
                f'The question says "{statement}"; the contradiction model reads the law quoted as saying '
                f"otherwise (probability {verdict.probability:.2f}, at or above its threshold "
                f"{contradiction.threshold:.2f} set out of fold): read the quote."
            )
            return [verdict.quote.passage], note, MODEL_RULE
    return None


def _figure_texts(groups: Sequence[Sequence[NumberedSpan]]) -> list[str]:
    """Each subsection's claim text where a figure of the question is compared in it, else empty:
    only provisions ranked first (those that best answer the question) count; further down, a
    figure of the same kind for a loosely shared concept is too easily another rule's ("10% of
    her income" against a 20% gift test)."""
    return [_claim(group).text if _leading(group) and _law(group) else "" for group in groups]


def _law_lines(groups: Sequence[Sequence[NumberedSpan]]) -> list[str]:
    """Each subsection's lines (:func:`_lines`) where it is a provision's; a ruling's reads as empty."""
    return [_lines(group) if _law(group) else "" for group in groups]


def _law(group: Sequence[NumberedSpan]) -> bool:
    """A provision's text: a ruling is the Commissioner's view, not the law that can show a
    premise wrong."""
    return group[0].kind != "ruling"


def _leading(group: Sequence[NumberedSpan]) -> bool:
    rank = group[0].section_rank
    return rank is None or rank < FIGURE_SECTIONS


def _vetoed(statements: Sequence[str], groups: Sequence[Sequence[NumberedSpan]]) -> set[str]:
    """The subsections whose line denies a statement that another subsection offered grants: the
    law read both ways shows nothing, so neither is quoted to ``write``, which sees only what is
    selected and would read the denial alone."""
    conflicts, agreements = rule_readings(statements, _law_lines(groups))
    agreed = {(a.statement, a.kind) for a in agreements}
    return {_chunk(groups[c.passage][0]) for c in conflicts if (c.statement, c.kind) in agreed}


def _distinct_sections(passages: Sequence[int], groups: Sequence[Sequence[NumberedSpan]]) -> list[int]:
    """The first subsection of each section among ``passages``, in order, at most ``REJECTION_QUOTES``."""
    chosen: list[int] = []
    sections: set[str] = set()
    for passage in passages:
        section = groups[passage][0].source_id
        if section not in sections:
            sections.add(section)
            chosen.append(passage)
    return chosen[:REJECTION_QUOTES]


def rejection_note(conflicts: Sequence[FigureConflict]) -> str:
    """Which statement of the question is wrong and why: its figure and the law's for the concept
    (each text's figure, the closest first, where several texts give one)."""
    first = conflicts[0]
    law = "; ".join(
        dict.fromkeys(f"for the {c.concept}, the law in force says {figure_words(c.law)}" for c in conflicts)
    )
    return f'The question says {first.stated.text} ("{first.statement}"); {law}, as quoted.'


def figure_words(quantity: Quantity) -> str:
    """A figure as the note says it: as written, except a percentage whose fraction the text's
    conversion ran on into its number ("183/4%"), which is said with its value and then as written
    ("18.75% (written "183/4%")"), so the reader is not left to read 183/4."""
    if quantity.kind != "percent" or "/" not in quantity.text:
        return quantity.text
    return f'{number_text(quantity.value.quantize(Decimal("0.01")))}% (written "{quantity.text}")'


def _lines(group: Sequence[NumberedSpan]) -> str:
    """The spans a claim of the subsection quotes (:func:`_claim`), one to a line, so a paragraph
    is read with the line leading into it and a rule is read only on what would be quoted."""
    return "\n".join(span.text for span in _quoted(group))


def _agrees(statements: Sequence[str], groups: Sequence[Sequence[NumberedSpan]]) -> bool:
    """The quoted law states what each statement asserts of the law: a figure for its concept, or
    a rule granting it (none denies it: that was a rejection). A statement that gives something to
    a kind of entity ("a company gets the CGT discount on shares held over 12 months") is agreed
    only by a list of who may have it naming that kind, never by a figure it also states. A
    statement about the client's own case ("my client qualifies") asserts nothing of the law."""
    # read on what a rejection may read (provisions; figures in the sections ranked first)
    figures = {a.statement for a in figure_agreements(statements, _figure_texts(groups))}
    _, rules = rule_readings(statements, _law_lines(groups))
    agreed = {(a.statement, a.kind) for a in rules}
    of_the_law = [s for s in statements if not CLIENTS_CASE.match(s)]
    if not of_the_law:
        return False
    for statement in of_the_law:
        if benefit_entity(statement) is not None:
            if (statement, "eligibility") not in agreed:
                return False
        elif statement not in figures and not any(s == statement for s, _ in agreed):
            return False
    return True


def _chunk(span: NumberedSpan) -> str:
    return chunk_id_of(span.span_id)


def _subsections(spans: Sequence[NumberedSpan]) -> list[list[NumberedSpan]]:
    """Runs of consecutive spans from the same chunk (a subsection, or a ruling paragraph block),
    at most ``QUOTES_PER_CLAIM`` spans each."""
    groups: list[list[NumberedSpan]] = []
    for span in spans:
        if groups and _chunk(groups[-1][-1]) == _chunk(span) and len(groups[-1]) < QUOTES_PER_CLAIM:
            groups[-1].append(span)
        else:
            groups.append([span])
    return groups


def _quoted(group: Sequence[NumberedSpan]) -> list[NumberedSpan]:
    return [span for span in group if _quotable(span.text)] or list(group)


def _claim(group: Sequence[NumberedSpan]) -> GeneratedClaim:
    """One claim per subsection: its text is the spans quoted, in order, and it cites each; a span
    too short to be evidence on its own ("(d) either:", a heading) is left out, since the verifier
    refuses such a quote and with it the claim."""
    quoted = _quoted(group)
    return GeneratedClaim(text=" ".join(span.text for span in quoted), span_keys=tuple(span.key for span in quoted))
