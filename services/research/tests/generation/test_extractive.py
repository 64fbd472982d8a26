from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from asat_research.generation.extractive import QUOTES_PER_CLAIM, ExtractiveGenerator
from asat_research.generation.port import NumberedSpan
from asat_research.premise.contradiction_features import Quote
from asat_research.premise.contradiction_model import ContradictionModel, ContradictionModelError
from asat_research.premise.contradiction_port import Verdict


def _span(i: int, text: str, chunk: str | None = None) -> NumberedSpan:
    """Span ``i``; each in a chunk of its own unless ``chunk`` names a shared one."""
    return NumberedSpan(f"S{i}", f"{chunk or f'c{i}'}#s{i}", "v", f"label {i}", text)


SPANS = [
    _span(1, "(1) You are a small business entity for an income year (the current year) if:"),
    _span(2, "(a) you carry on a *business in the current year; and"),
    _span(3, "your *aggregated turnover for the previous year was less than $2 million;"),
    _span(4, "Note:"),
    _span(5, "This Division sets out rules about the depreciation of plant and equipment."),
]


def test_selects_the_spans_that_share_the_question_words_in_offered_order() -> None:
    selection = ExtractiveGenerator(max_subsections=2).select(
        "What aggregated turnover threshold made a small business entity in 2014-15?", SPANS
    )
    assert selection.keys == ("S1", "S3")
    assert selection.provider == "extractive"


def test_never_selects_a_span_too_short_to_quote() -> None:
    assert "S4" not in ExtractiveGenerator(max_subsections=5).select("Note", SPANS).keys


def test_each_claim_is_exactly_its_span() -> None:
    generation = ExtractiveGenerator().write("q", [SPANS[2], SPANS[3]])
    assert [(c.text, c.span_keys) for c in generation.claims] == [(SPANS[2].text, ("S3",))]
    assert "quotes rather than concludes" in generation.note
    assert generation.premise_rejected is False


def test_deterministic() -> None:
    generator = ExtractiveGenerator()
    assert generator.select("turnover small business", SPANS) == generator.select("turnover small business", SPANS)


def test_a_question_asking_for_an_amount_prefers_spans_that_state_one() -> None:
    spans = [
        _span(1, "Note 1: Subsection 328-120(5) provides for how to work out your annual turnover."),
        _span(2, "(3) However, you are not a small business entity for an income year if so provided."),
        _span(3, "(i) your aggregated turnover for the previous year was less than $2 million;"),
    ]
    selection = ExtractiveGenerator(max_subsections=1).select(
        "What aggregated turnover made a small business entity?", spans
    )
    assert selection.keys == ("S3",)


def test_a_false_figure_in_the_question_is_rejected_with_the_law_s_figure() -> None:
    spans = [
        _span(1, "(a) you carry on a *business in the current year; and"),
        _span(2, "(i) your aggregated turnover for the previous year was less than $2 million;"),
    ]
    question = "Since the small business turnover threshold was $10 million in 2014-15, my client with $6 million qualifies, right?"
    generation = ExtractiveGenerator().write(question, spans)
    assert generation.premise_rejected
    assert [c.span_keys for c in generation.claims] == [("S2",)]
    assert generation.note.startswith(
        'The question says $10 million ("the small business turnover threshold was $10 million in 2014-15"); '
        "for the turnover, the law in force says $2 million, as quoted."
    )


def test_a_rejected_premise_quotes_the_subsection_that_states_the_law_s_figure() -> None:
    spans = [
        _span(1, "(1) To be a discount capital gain, the gain must be made by an individual or a trust.", chunk="a"),
        _span(2, "(1) The capital gain must result from a CGT event happening to a CGT asset", chunk="b"),
        _span(3, "acquired by the entity at least 12 months before the CGT event.", chunk="b"),
        _span(4, "(2) A gain from CGT event D1 is not a discount capital gain.", chunk="c"),
    ]
    question = "The CGT discount applies once an asset's been held for 6 months, doesn't it?"
    generation = ExtractiveGenerator().write(question, spans)
    assert generation.premise_rejected and generation.declined is None
    (claim,) = generation.claims
    assert claim.span_keys == ("S2", "S3")
    assert claim.text == f"{spans[1].text} {spans[2].text}"
    assert "12 months" in generation.note and "6 months" in generation.note and "holding period" in generation.note


def test_a_figure_of_the_same_kind_for_another_concept_is_never_a_rejected_premise() -> None:
    spans = [_span(1, "(i) your aggregated turnover for the previous year was less than $2 million;")]
    confirm = ExtractiveGenerator().write("The Div 293 threshold is $300,000 in 2025-26, isn't it?", spans)
    assert not confirm.premise_rejected and confirm.declined and confirm.claims == ()
    builds_on = ExtractiveGenerator().write("Since the spouse earns $13,800, how much offset does she get?", spans)
    assert not builds_on.premise_rejected and builds_on.declined is None and len(builds_on.claims) == 1


def test_a_true_premise_is_never_rejected() -> None:
    spans = [
        _span(1, "(a) you carry on a *business in the current year; and"),
        _span(2, "(i) your aggregated turnover for the previous year was less than $2 million;"),
    ]
    built_on = ExtractiveGenerator().write(
        "Since the small business turnover threshold was $2 million in 2014-15, what else must my client meet?", spans
    )
    assert not built_on.premise_rejected and built_on.declined is None
    assert [c.span_keys for c in built_on.claims] == [("S1",), ("S2",)]
    confirmed = ExtractiveGenerator().write(
        "The small business turnover threshold was $2 million in 2014-15, wasn't it?", spans
    )
    # The quoted law states the same figure for the concept: the question is answered, not declined.
    assert not confirmed.premise_rejected and confirmed.declined is None and confirmed.claims


def test_a_statement_to_confirm_that_the_law_neither_states_nor_denies_is_declined() -> None:
    spans = [_span(1, "You cannot deduct a loss or outgoing to the extent that it is of a private or domestic nature.")]
    generation = ExtractiveGenerator().write("Work-related car expenses are deductible, aren't they?", spans)
    assert generation.claims == () and generation.declined and not generation.premise_rejected


def test_a_premise_prefers_the_span_stating_a_figure_for_its_concept() -> None:
    question = "The Div 293 threshold is $300,000, isn't it?"
    other_concept = _span(1, "Div 293 threshold. A penalty of $500 applies to a late payment.")
    same_concept = _span(2, "Div 293 threshold. The high income threshold is $250,000.")
    selection = ExtractiveGenerator(max_subsections=1).select(question, [other_concept, same_concept])
    assert selection.keys == ("S2",)


def test_a_rule_that_excludes_what_the_question_asserts_is_a_rejected_premise() -> None:
    spans = [
        _span(
            1,
            "You can deduct from your assessable income any loss or outgoing to the extent that it is incurred in gaining your income.",
        ),
        _span(2, "You cannot deduct a loss or outgoing to the extent that it is of a private or domestic nature."),
    ]
    generation = ExtractiveGenerator().write("Private expenses are deductible if paid in the year, aren't they?", spans)
    assert generation.premise_rejected and generation.premise_rule == "exclusion"
    assert [c.span_keys for c in generation.claims] == [("S2",)]
    assert '"Private expenses are deductible if paid in the year"' in generation.note


def test_a_subsection_that_denies_the_premise_is_selected_whatever_its_rank() -> None:
    question = "Client entertainment is fully deductible under s 8-1 as a business expense, yes?"
    spans = [
        _span(i, f"Client business expense number {i} is recorded in the books of the business.") for i in range(1, 8)
    ]
    spans.append(_span(8, "You cannot deduct under section 8-1 a loss or outgoing in providing *entertainment."))
    selection = ExtractiveGenerator(max_subsections=2).select(question, spans)
    assert "S8" in selection.keys


def test_a_plain_question_with_client_figures_is_answered_not_rejected() -> None:
    spans = [_span(1, "(i) your aggregated turnover for the previous year was less than $2 million;")]
    generation = ExtractiveGenerator().write(
        "My client turned over $6 million; what was the threshold in 2014-15?", spans
    )
    assert not generation.premise_rejected and generation.declined is None and len(generation.claims) == 1


def test_how_low_and_above_what_are_questions_about_an_amount() -> None:
    spans = [
        _span(1, "(1) You are entitled to a tax offset for an income year for contributions you make."),
        _span(2, "(c) the sum of the spouse's assessable income and fringe benefits is less than $13,800."),
    ]
    for question in ("How low does her income have to be for the spouse offset?", "Above what income does it reduce?"):
        assert ExtractiveGenerator(max_subsections=1).select(question, spans).keys == ("S2",)


def test_a_chosen_span_brings_its_whole_subsection_quoted_as_one_claim() -> None:
    spans = [
        _span(1, "(1) The amount of the producer offset is:", chunk="s376-60/1"),
        _span(2, "(a) if the film is a feature film produced for cinemas—40%; or", chunk="s376-60/1"),
        _span(3, "(b) otherwise—30% of the qualifying production expenditure.", chunk="s376-60/1"),
        _span(4, "(2) This section applies to films that started principal photography.", chunk="s376-60/2"),
    ]
    generator = ExtractiveGenerator(max_subsections=1)
    selection = generator.select("What is the amount of the producer offset?", spans)
    assert selection.keys == ("S1", "S2", "S3")
    generation = generator.write("What is the amount of the producer offset?", spans[:3])
    assert [c.span_keys for c in generation.claims] == [("S1", "S2", "S3")]
    assert generation.claims[0].text == " ".join(s.text for s in spans[:3])


def test_a_long_subsection_is_quoted_in_claims_the_verifier_accepts() -> None:
    spans = [_span(i, f"({i}) paragraph number {i} of one long subsection;", chunk="long") for i in range(1, 30)]
    generation = ExtractiveGenerator().write("paragraph subsection", spans)
    assert [len(c.span_keys) for c in generation.claims] == [
        QUOTES_PER_CLAIM,
        QUOTES_PER_CLAIM,
        29 - 2 * QUOTES_PER_CLAIM,
    ]
    assert [k for c in generation.claims for k in c.span_keys] == [s.key for s in spans]


def test_the_subsection_the_reranker_scored_highest_is_quoted_before_word_overlap() -> None:
    question = "Is a business I carry on a small business entity for the current income year?"
    assert ExtractiveGenerator(max_subsections=1).select(question, SPANS).keys == ("S1",)  # most question words
    relevance = {"S1": 0.1, "S3": 0.9}
    scored = [replace(s, relevance=relevance.get(s.key)) for s in SPANS]
    assert ExtractiveGenerator(max_subsections=1).select(question, scored).keys == ("S3",)


def test_every_lead_subsection_of_a_section_is_quoted_a_preamble_and_the_rule_after_it() -> None:
    preamble = replace(_span(1, "General rule: based on aggregated turnover at the start of the year"), lead=True)
    rule = replace(_span(2, "(1) You are a small business entity if your turnover is less than $2 million"), lead=True)
    other = _span(3, "(3) However, you are not a small business entity because of paragraph (1)(b) if:")
    selection = ExtractiveGenerator(max_subsections=6).select(
        "Is an unrelated question answered?", [other, preamble, rule]
    )
    assert {"S1", "S2"} <= set(selection.keys)


def test_a_ruling_that_denies_the_premise_is_not_the_law_that_shows_it_wrong() -> None:
    ruling = NumberedSpan(
        "S1",
        "r1#s1",
        "TR 2099/1",
        "TR 2099/1",
        "You cannot deduct a loss or outgoing for client entertainment.",
        kind="ruling",
    )
    generation = ExtractiveGenerator().write("Client entertainment is fully deductible, yes?", [ruling])
    assert not generation.premise_rejected
    provision = replace(ruling, source_id="itaa1997:32-5@C1", kind="provision")
    assert ExtractiveGenerator().write("Client entertainment is fully deductible, yes?", [provision]).premise_rejected


def test_a_rule_is_read_only_on_what_a_claim_would_quote() -> None:
    lead = _span(1, "(1) You cannot deduct:", chunk="c")  # too short to quote: the claim leaves it out
    paragraph = _span(2, "(a) a penalty imposed under an Australian law for an offence;", chunk="c")
    generation = ExtractiveGenerator().write("Speeding fines are deductible, right?", [lead, paragraph])
    assert not generation.premise_rejected


def test_a_denial_another_offered_subsection_contradicts_is_not_selected_to_stand_alone() -> None:
    denies = _span(
        1, "(1) A supply is not GST-free under section 38-2 if it is a supply of food for consumption on the premises."
    )
    grants = _span(2, "A supply of food is GST-free under this Subdivision of the Act.")
    selection = ExtractiveGenerator(max_subsections=1).select("Food is GST-free, right?", [denies, grants])
    assert "S1" not in selection.keys
    kept = [s for s in (denies, grants) if s.key in selection.keys]
    assert not ExtractiveGenerator().write("Food is GST-free, right?", kept).premise_rejected


class _Contradicts:
    """A contradiction model that finds the statement contradicted by the passage holding ``word``."""

    threshold = 0.7

    def __init__(self, word: str, probability: float = 0.9) -> None:
        self.word, self.probability = word, probability
        self.asked: list[str] = []

    def score(self, statement: str, provision_text: str | Sequence[str]) -> Verdict:
        self.asked.append(statement)
        passages = [provision_text] if isinstance(provision_text, str) else list(provision_text)
        at = next((i for i, p in enumerate(passages) if self.word in p), None)
        if at is None:
            return Verdict(0.1, False, None)
        start = passages[at].index(self.word)
        quote = Quote(at, start, start + len(self.word), self.word)
        return Verdict(self.probability, self.probability >= self.threshold, quote)


MODEL_SPANS = [
    _span(1, "(1) A capital gain you make from a CGT event that happens to a dwelling is disregarded if:"),
    _span(2, "(2) The exemption is available only to a taxpayer who occupied the dwelling."),
]
MODEL_QUESTION = "A trust can always use the exemption on a dwelling it rents out, can't it?"


def test_the_contradiction_model_rejects_a_premise_the_rules_do_not_read_quoting_its_sentence() -> None:
    model = _Contradicts("occupied")
    generation = ExtractiveGenerator(contradiction=model).write(MODEL_QUESTION, MODEL_SPANS)
    assert generation.premise_rejected and generation.premise_rule == "model"
    assert [c.span_keys for c in generation.claims] == [("S2",)]
    assert "probability 0.90" in generation.note and "threshold 0.70" in generation.note


def test_the_contradiction_model_below_its_threshold_rejects_nothing() -> None:
    model = _Contradicts("occupied", probability=0.6)
    generation = ExtractiveGenerator(contradiction=model).write(MODEL_QUESTION, MODEL_SPANS)
    assert not generation.premise_rejected and generation.premise_rule is None
    assert model.asked  # it was asked, and said no


def test_a_figure_or_a_fixed_rule_is_read_before_the_contradiction_model() -> None:
    spans = [
        _span(1, "You cannot deduct a loss or outgoing to the extent that it is of a private or domestic nature."),
        _span(2, "The outgoing was occupied by nothing."),
    ]
    model = _Contradicts("occupied")
    generation = ExtractiveGenerator(contradiction=model).write(
        "Private expenses are deductible if paid in the year, aren't they?", spans
    )
    assert generation.premise_rule == "exclusion" and model.asked == []


def test_the_shipped_contradiction_model_decides_a_rejection_by_its_threshold() -> None:
    model = ContradictionModel.load()  # models/premise of this checkout
    statement = "A trust can always use the exemption on a dwelling it rents out"
    verdict = model.score(statement, [MODEL_SPANS[0].text, MODEL_SPANS[1].text])
    assert 0.0 <= verdict.probability <= 1.0
    generation = ExtractiveGenerator(contradiction=model).write(MODEL_QUESTION, MODEL_SPANS)
    assert generation.premise_rejected is verdict.rejected
    assert generation.premise_rule == ("model" if verdict.rejected else None)


def test_the_contradiction_models_subsection_is_selected_whatever_its_rank() -> None:
    filler = [
        _span(i, f"({i}) A trust can use the exemption on a dwelling it rents out, case {i}.") for i in range(3, 12)
    ]
    spans = [*filler, _span(2, "(2) Only an individual may have it.")]
    assert "S2" not in ExtractiveGenerator(max_subsections=2).select(MODEL_QUESTION, spans).keys
    chosen = ExtractiveGenerator(max_subsections=2, contradiction=_Contradicts("individual")).select(
        MODEL_QUESTION, spans
    )
    assert "S2" in chosen.keys


def test_the_contradiction_model_reads_the_law_not_rulings_nor_the_clients_facts() -> None:
    ruling = replace(_span(7, "The exemption is available only where the taxpayer occupied it."), kind="ruling")
    model = _Contradicts("occupied")
    generation = ExtractiveGenerator(contradiction=model).write(MODEL_QUESTION, [ruling, *MODEL_SPANS])
    assert generation.premise_rule == "model" and [c.span_keys for c in generation.claims] == [("S2",)]
    clients = ExtractiveGenerator(contradiction=model).write(
        "My client occupied the dwelling for a year, didn't she?", MODEL_SPANS
    )
    assert not clients.premise_rejected


def test_an_unreadable_contradiction_model_is_refused_naming_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "contradiction.txt").write_text("not a model")
    (tmp_path / "calibration.json").write_text("{not json")
    with pytest.raises(ContradictionModelError, match=r"unreadable contradiction model .*train_cli train"):
        ContradictionModel.load(tmp_path)
