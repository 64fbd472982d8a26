"""The verifier's configuration, as plain values (read from the environment in ``composition``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from asat_verifier.groundedness.deterministic import DEFAULT_MIN_OVERLAP
from asat_verifier.limits import Limits

# HHEM-2.1-open's classifier has two outputs, [hallucinated, consistent]: index 1 is "consistent".
HHEM_CONSISTENT_LABEL = 1


class ScorerName(StrEnum):
    DETERMINISTIC = "deterministic"
    NLI = "nli"


@dataclass(frozen=True)
class NliSettings:
    """A sequence-classification model on disk and how to read its output.

    ``entailed_label``: index of the "entailed"/"consistent" class when the model has several
    outputs (a single-output model is read as a sigmoid). ``prompt``: a template with
    ``{premise}`` and ``{hypothesis}``; when unset, the tokenizer gets (premise, hypothesis) as a
    pair. ``grounded`` when the probability is at least ``threshold``.
    """

    model_path: Path
    entailed_label: int = HHEM_CONSISTENT_LABEL
    threshold: float = 0.5
    prompt: str | None = None
    trust_remote_code: bool = False
    max_length: int = 512


@dataclass(frozen=True)
class VerifierConfig:
    scorer: ScorerName = ScorerName.DETERMINISTIC
    nli: NliSettings | None = None
    min_overlap: float = DEFAULT_MIN_OVERLAP
    limits: Limits = field(default_factory=Limits)
    host: str = "127.0.0.1"
    port: int = 8710
