from __future__ import annotations

from asat_research.generation.port import Generator
from services.research.tests.generation.scripted import ScriptedGenerator, claim
from services.research.tests.generation.spans import OFFERED, QUESTION, SELECTED


def test_replays_claims_verbatim_even_ones_citing_keys_never_offered() -> None:
    scripted = ScriptedGenerator([claim("Turnover under $3 million.", "S3"), claim("Anything.", "S9")])
    generator: Generator = scripted
    generation = generator.write(QUESTION, SELECTED)
    assert [(c.text, c.span_keys) for c in generation.claims] == [
        ("Turnover under $3 million.", ("S3",)),
        ("Anything.", ("S9",)),
    ]
    assert (generation.provider, generation.model, generation.seed) == ("scripted", "scripted-model-1", 7)
    assert scripted.calls == [("write", QUESTION, ("S1", "S3"))]


def test_selects_every_offered_key_unless_scripted_otherwise() -> None:
    assert ScriptedGenerator([]).select(QUESTION, OFFERED).keys == ("S1", "S2", "S3")
    assert ScriptedGenerator([], selected=["S9", "S1"]).select(QUESTION, OFFERED).keys == ("S9", "S1")
