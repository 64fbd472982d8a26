"""The ONNX cross-encoder's plumbing, on a tiny randomly initialised BERT the test builds itself:
exported to ONNX, served by onnxruntime with the fast tokenizer, and matching torch's logits."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
import torch
import transformers
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from tokenizers.processors import TemplateProcessing

from asat_research.relevance.ltr_model import RankerModelError
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.onnx_export import export_onnx

WORDS = ["is", "a", "fine", "deductible", "penalty", "not", "you", "can", "deduct", "loss", "outgoing", "section"]


def _tiny(directory: Path) -> tuple[transformers.BertForSequenceClassification, transformers.PreTrainedTokenizerFast]:
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS])}
    core = Tokenizer(WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = Whitespace()
    core.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=core, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]"
    )
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=1,
    )
    torch.manual_seed(0)
    return transformers.BertForSequenceClassification(config), tokenizer


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, object]:
    directory = tmp_path_factory.mktemp("ce")
    model, tokenizer = _tiny(directory)
    export_onnx(model, tokenizer, directory / "fp32", quantize=False)
    export_onnx(model, tokenizer, directory / "int8", quantize=True)
    return directory, model, tokenizer


def test_onnx_scores_match_torch_logits_for_every_pair_in_order(exported: tuple[Path, object, object]) -> None:
    directory, model, tokenizer = exported
    passages = ["a fine is not deductible", "you can deduct a loss or outgoing section", "penalty"]
    served = OnnxCrossEncoder(directory / "fp32", max_length=32).scores("is a fine deductible", passages)
    batch = tokenizer(["is a fine deductible"] * 3, passages, padding=True, return_tensors="pt")  # type: ignore[operator]
    with torch.no_grad():
        expected = model(**batch).logits[:, 0].tolist()  # type: ignore[operator]
    assert served == pytest.approx(expected, abs=1e-4)
    assert OnnxCrossEncoder(directory / "fp32").scores("q", []) == []


def test_the_int8_model_multiplies_integers_and_scores_close_to_fp32(exported: tuple[Path, object, object]) -> None:
    directory, _, _ = exported
    ops = {node.op_type for node in onnx.load(str(directory / "int8" / "model.onnx")).graph.node}
    assert "MatMulInteger" in ops and "MatMulInteger" not in {
        node.op_type for node in onnx.load(str(directory / "fp32" / "model.onnx")).graph.node
    }
    passages = ["a fine is not deductible", "penalty"]
    fp32 = OnnxCrossEncoder(directory / "fp32").scores("is a fine deductible", passages)
    int8 = OnnxCrossEncoder(directory / "int8").scores("is a fine deductible", passages)
    assert int8 == pytest.approx(fp32, abs=0.1)


def test_a_missing_model_is_refused_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(RankerModelError, match=r"model\.onnx is missing: run `make models`"):
        OnnxCrossEncoder(tmp_path)
