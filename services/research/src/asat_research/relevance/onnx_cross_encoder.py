"""A cross-encoder served with onnxruntime (no torch): (question, passage) -> relevance logit.

The model directory holds ``model.onnx`` (a sequence-classification model with one output
logit, inputs ``input_ids``, ``attention_mask`` and, where the model has them,
``token_type_ids``) and ``tokenizer.json`` (a Hugging Face fast tokenizer). Pairs are truncated
to ``max_length`` word pieces, the longer of the two first.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from asat_research.relevance.ltr_model import RankerModelError

BATCH = 16


class OnnxCrossEncoder:
    def __init__(self, directory: Path, max_length: int = 128, threads: int = 2) -> None:
        model, tokenizer = directory / "model.onnx", directory / "tokenizer.json"
        for path in (model, tokenizer):
            if not path.is_file():
                raise RankerModelError(f"{path} is missing: run `make models` (or restore models/ from git)")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session: Any = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
        self._tokenizer.enable_padding()
        self.max_length = max_length

    def scores(self, question: str, passages: Sequence[str]) -> list[float]:
        out: list[float] = []
        for start in range(0, len(passages), BATCH):
            batch = self._tokenizer.encode_batch([(question, p) for p in passages[start : start + BATCH]])
            feeds = {
                "input_ids": np.asarray([e.ids for e in batch], dtype=np.int64),
                "attention_mask": np.asarray([e.attention_mask for e in batch], dtype=np.int64),
            }
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.asarray([e.type_ids for e in batch], dtype=np.int64)
            (logits,) = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})
            out.extend(float(v) for v in np.asarray(logits).reshape(len(batch), -1)[:, -1])
        return out
