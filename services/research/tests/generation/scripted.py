"""A scripted model for pipeline tests: implements the Generator port and replays exactly the
claims it is given, with no validation at all.

It is the adversary the pipeline must survive: script it to paraphrase a quote, cite a key
that was never offered, cite a span from an out-of-period source, or change a number, and
assert that no unverified claim reaches the response::

    generator = ScriptedGenerator([claim("Turnover under $3 million.", "S3")])
    generator = ScriptedGenerator([claim("...", "S9")], selected=["S1", "S9"])

``selected=None`` selects every offered key in offered order. ``calls`` records each pass as
``(pass, question, offered keys)`` so a test can check what the pipeline showed the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from asat_research.generation.port import GeneratedClaim, Generation, NumberedSpan, Selection


def claim(text: str, *span_keys: str) -> GeneratedClaim:
    return GeneratedClaim(text=text, span_keys=span_keys)


@dataclass
class ScriptedGenerator:
    claims: Sequence[GeneratedClaim]
    selected: Sequence[str] | None = None
    premise_rejected: bool = False
    name: str = "scripted"
    provider: str = "scripted"
    model: str = "scripted-model-1"
    seed: int | None = 7
    calls: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        offered = tuple(span.key for span in spans)
        self.calls.append(("select", question, offered))
        keys = offered if self.selected is None else tuple(self.selected)
        return Selection(keys=keys, provider=self.provider, model=self.model)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        self.calls.append(("write", question, tuple(span.key for span in spans)))
        return Generation(
            claims=tuple(self.claims),
            premise_rejected=self.premise_rejected,
            provider=self.provider,
            model=self.model,
            seed=self.seed,
        )
