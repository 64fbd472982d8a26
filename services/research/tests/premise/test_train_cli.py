from __future__ import annotations

import random
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from asat_research.premise.contradiction_model import ContradictionModel
from asat_research.premise.id_statements import Evidence, IdStatement, Label
from asat_research.premise.train_cli import (
    balanced,
    classification_metrics,
    confusion,
    fit,
    roc_auc,
    slices,
    trained_sections,
)
from asat_research.relevance.training_data import provision_split


def _statement(
    ident: int, label: Label, number: str, text: str = "(1) text", statement: str = "it is so"
) -> IdStatement:
    return IdStatement(
        id=f"aid:ATO ID 2010/{ident:04d}",
        ruling_id=f"ATO ID 2010/{ident:04d}",
        issue=f"Is {statement}?",
        statement=statement,
        label=label,
        decided=date(2010, 1, 1),
        about=(("itaa1997", number),),
        evidence=(Evidence("itaa1997", number, f"itaa1997:{number}@x", text, True),),
        split=provision_split("itaa1997", number),
    )


NUMBERS = [f"{d}-{n}" for d in range(1, 60) for n in (5, 10)]


def test_the_test_slice_is_balanced_by_a_fixed_seed() -> None:
    statements = [_statement(i, Label.SUPPORTED if i % 3 else Label.CONTRADICTED, "8-1") for i in range(60)]
    kept = balanced(statements)
    assert Counter(s.label for s in kept) == {Label.SUPPORTED: 20, Label.CONTRADICTED: 20}
    assert kept == balanced(list(reversed(statements)))
    assert [s.id for s in kept] == sorted(s.id for s in kept)
    assert balanced([s for s in statements if s.contradicted]) == []


def test_no_section_is_both_fitted_on_and_tested() -> None:
    statements = [_statement(i, Label.SUPPORTED if i % 2 else Label.CONTRADICTED, n) for i, n in enumerate(NUMBERS * 2)]
    parts = slices(statements)
    assert parts.fit and parts.test and len(parts.test) <= len(parts.test_all)
    assert not trained_sections(parts.fit) & trained_sections(parts.test_all)
    assert {s.split for s in parts.fit} <= {"train", "dev"} and {s.split for s in parts.test_all} == {"test"}


def test_the_metrics_count_contradicted_as_positive() -> None:
    p = [0.9, 0.8, 0.3, 0.6, 0.1, 0.2]
    y = [1, 0, 1, 1, 0, 0]
    assert confusion(p, y) == {"tp": 2, "fp": 1, "tn": 2, "fn": 1}
    m = classification_metrics(p, y, threshold=0.85)
    assert m["accuracy"] == pytest.approx(4 / 6, abs=1e-4)
    assert m["at_threshold"]["rejected"] == 1 and m["at_threshold"]["precision"] == 1.0
    assert m["at_threshold"]["recall"] == pytest.approx(1 / 3, abs=1e-4)
    assert roc_auc([0.9, 0.1], [1, 0]) == 1.0 and roc_auc([0.5, 0.5], [1, 0]) == 0.5
    assert roc_auc(p, y) == pytest.approx(7 / 9)


def _synthetic(count: int, seed: int, start: int = 0) -> list[IdStatement]:
    """A rule that denies ("You cannot deduct ...") contradicts the statement that the thing is
    deductible; a rule that allows it supports it. Each thing is its own provision."""
    rng = random.Random(seed)
    out: list[IdStatement] = []
    for i in range(start, start + count):
        thing = f"widget{i} gadget{i}"
        denied = rng.random() < 0.5
        rule = f"(1) You {'cannot' if denied else 'can'} deduct an amount for a {thing}."
        filler = "\n(2) This section applies to amounts incurred after 1 July 2000.\n(3) Note: see Division 40."
        out.append(
            _statement(
                i,
                Label.CONTRADICTED if denied else Label.SUPPORTED,
                f"{900 + i}-{rng.randint(1, 99)}",
                rule + filler,
                f"an amount for a {thing} is deductible",
            )
        )
    return out


def test_a_tiny_model_trained_end_to_end_tells_a_denying_rule_from_an_allowing_one(tmp_path: Path) -> None:
    trained = fit(_synthetic(240, 1), max_rounds=80)
    assert trained.rounds >= 1
    assert trained.threshold.value < 1.0 and trained.threshold.precision >= 0.8
    assert trained.oof_metrics["accuracy"] > 0.9
    trained.model.save(tmp_path, trained.rounds)
    model = ContradictionModel.load(tmp_path)
    denied = model.score("an amount for a sprocket is deductible", "(1) You cannot deduct an amount for a sprocket.")
    allowed = model.score("an amount for a sprocket is deductible", "(1) You can deduct an amount for a sprocket.")
    assert denied.probability > 0.5 > allowed.probability
    assert denied.rejected and not allowed.rejected
    assert denied.quote is not None and denied.quote.text == "(1) You cannot deduct an amount for a sprocket."
    held_out = _synthetic(60, 2, start=5000)
    verdicts = [model.score(s.statement, [e.text for e in s.evidence]) for s in held_out]
    correct = sum((v.probability >= 0.5) == s.contradicted for v, s in zip(verdicts, held_out, strict=True))
    assert correct / len(held_out) > 0.9
