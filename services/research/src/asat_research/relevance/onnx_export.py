"""Exporting a transformers sequence-classification model to ONNX for ``OnnxCrossEncoder``.

Used by ``make models`` (training needs torch; serving does not). ``quantize`` applies dynamic
int8 quantisation of the weights (onnxruntime), which is what ships.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def export_onnx(model: Any, tokenizer: Any, out: Path, quantize: bool = True) -> None:
    """Write ``out/model.onnx`` (one logit per pair) and ``out/tokenizer.json``."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    sample = tokenizer(["a question"], ["a passage of law"], return_tensors="pt")
    names = [n for n in INPUTS if n in sample]
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "tokens"} for n in names}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model-fp32.onnx"
        with torch.no_grad():
            torch.onnx.export(
                model,
                tuple(sample[n] for n in names),
                str(fp32),
                input_names=names,
                output_names=["logits"],
                dynamic_axes={**axes, "logits": {0: "batch"}},
                opset_version=17,
                dynamo=False,
            )
        if quantize:
            quantize_dynamic(str(fp32), str(out / "model.onnx"), weight_type=QuantType.QInt8)
        else:
            (out / "model.onnx").write_bytes(fp32.read_bytes())
    tokenizer.backend_tokenizer.save(str(out / "tokenizer.json"))
