"""NLI groundedness: a transformers sequence-classification model judges premise => claim.

The premise is the claim's verified quotes joined with a space; the hypothesis is the claim.
Works with HHEM-2.1-open (two outputs, index 1 "consistent"; give its prompt template) or any
NLI model (set the index of the "entailment" class). The model and tokenizer are loaded from a
local directory only: nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from asat_corpus.contracts.verification import GroundednessCheck
from asat_verifier.config import NliSettings
from asat_verifier.groundedness.port import NO_EVIDENCE, Evidence, Finding, GroundednessResult


class ModelLoadError(RuntimeError):
    """The model directory could not be used; the message says what to fix."""


class NliScorer:
    def __init__(self, settings: NliSettings) -> None:
        if not settings.model_path.is_dir():
            raise ModelLoadError(
                f"groundedness model directory {settings.model_path} does not exist: "
                "set ASAT_GROUNDEDNESS_MODEL to a local model directory"
            )
        self._settings = settings
        try:
            self._tokenizer = AutoTokenizer.from_pretrained(
                str(settings.model_path), local_files_only=True, trust_remote_code=settings.trust_remote_code
            )
            self._model = AutoModelForSequenceClassification.from_pretrained(
                str(settings.model_path), local_files_only=True, trust_remote_code=settings.trust_remote_code
            )
        except (OSError, ValueError) as error:
            raise ModelLoadError(
                f"cannot load a sequence-classification model and tokenizer from {settings.model_path}: {error}"
            ) from error
        self._model.eval()
        labels = int(self._model.config.num_labels)
        if labels > 1 and not 0 <= settings.entailed_label < labels:
            raise ModelLoadError(
                f"the model has {labels} output classes but the entailed label is {settings.entailed_label}: "
                f"set ASAT_GROUNDEDNESS_ENTAILED_LABEL to an index in 0..{labels - 1}"
            )
        positions = getattr(self._model.config, "max_position_embeddings", None)
        limits = [settings.max_length, int(self._tokenizer.model_max_length)]
        if isinstance(positions, int):
            limits.append(positions)
        self._max_length = min(limits)

    @property
    def name(self) -> str:
        return "nli"

    def probability(self, premise: str, hypothesis: str) -> float:
        """Probability that ``premise`` entails (is consistent with) ``hypothesis``."""
        if self._settings.prompt is not None:
            encoded = self._tokenizer(
                self._settings.prompt.format(premise=premise, hypothesis=hypothesis),
                truncation=True,
                max_length=self._max_length,
                return_tensors="pt",
            )
        else:
            encoded = self._tokenizer(
                premise, hypothesis, truncation=True, max_length=self._max_length, return_tensors="pt"
            )
        with torch.inference_mode():
            logits = self._model(**encoded).logits[0].float()
        if logits.shape[-1] == 1:
            return float(torch.sigmoid(logits[0]).item())
        return float(torch.softmax(logits, dim=-1)[self._settings.entailed_label].item())

    def score(self, claim_text: str, quotes: Sequence[Evidence]) -> GroundednessResult:
        if not quotes:
            return NO_EVIDENCE
        probability = self.probability(" ".join(quote.text for quote in quotes), claim_text)
        grounded = probability >= self._settings.threshold
        finding = Finding(
            GroundednessCheck.ENTAILMENT,
            grounded,
            f"model gives {probability:.2f} that the quotes entail the claim "
            f"(at least {self._settings.threshold:.2f} needed)",
        )
        return GroundednessResult(score=probability, grounded=grounded, findings=(finding,))
