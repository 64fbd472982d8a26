"""The NLI adapter's plumbing, on a tiny randomly initialised BERT the test builds and saves itself.

The model's judgement is random; what is tested is loading from a local path, tokenising a
premise/hypothesis pair or a prompt, truncation, reading the entailed label, and the contract.
"""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the NLI adapter needs torch: install asat-verifier[nli]")
transformers = pytest.importorskip("transformers", reason="the NLI adapter needs transformers: asat-verifier[nli]")

from fastapi.testclient import TestClient  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from tokenizers.models import WordLevel  # noqa: E402
from tokenizers.pre_tokenizers import Whitespace  # noqa: E402
from tokenizers.processors import TemplateProcessing  # noqa: E402

from asat_verifier.composition import build_scorer, config_from_env, create_app  # noqa: E402
from asat_verifier.config import NliSettings  # noqa: E402
from asat_verifier.groundedness.nli import ModelLoadError, NliScorer  # noqa: E402
from asat_verifier.groundedness.port import Evidence  # noqa: E402
from asat_verifier.testing.groundedness_contract import QUOTES, GroundednessScorerContract  # noqa: E402

_WORDS = [
    "you",
    "can",
    "deduct",
    "from",
    "your",
    "assessable",
    "income",
    "any",
    "loss",
    "or",
    "outgoing",
    "is",
    "not",
    "deductible",
    "section",
]


def _save_tiny_model(directory: Path, num_labels: int) -> Path:
    vocab = {token: index for index, token in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *_WORDS])}
    core = Tokenizer(WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = Whitespace()
    core.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=core,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        model_max_length=32,
    )
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,
        num_labels=num_labels,
    )
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


@pytest.fixture(scope="module")
def two_label_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _save_tiny_model(tmp_path_factory.mktemp("nli2"), num_labels=2)


@pytest.fixture(scope="module")
def one_logit_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _save_tiny_model(tmp_path_factory.mktemp("nli1"), num_labels=1)


class TestNliScorerContract(GroundednessScorerContract):
    @pytest.fixture
    def scorer(self, two_label_model: Path) -> NliScorer:
        return NliScorer(NliSettings(model_path=two_label_model))


def test_entailed_label_picks_the_class(two_label_model: Path) -> None:
    first = NliScorer(NliSettings(model_path=two_label_model, entailed_label=0))
    second = NliScorer(NliSettings(model_path=two_label_model, entailed_label=1))
    premise, hypothesis = QUOTES[0].text, "you can deduct any loss"
    assert first.probability(premise, hypothesis) + second.probability(premise, hypothesis) == pytest.approx(1.0)


def test_threshold_decides_the_verdict(two_label_model: Path) -> None:
    always = NliScorer(NliSettings(model_path=two_label_model, threshold=0.0))
    never = NliScorer(NliSettings(model_path=two_label_model, threshold=1.0))
    assert always.score("you can deduct", QUOTES).grounded is True
    assert never.score("you can deduct", QUOTES).grounded is False


def test_single_logit_model_is_read_as_a_sigmoid(one_logit_model: Path) -> None:
    result = NliScorer(NliSettings(model_path=one_logit_model)).score("you can deduct", QUOTES)
    assert 0.0 < result.score < 1.0


def test_prompt_template_is_used(two_label_model: Path) -> None:
    plain = NliScorer(NliSettings(model_path=two_label_model))
    prompted = NliScorer(NliSettings(model_path=two_label_model, prompt="{premise} is not {hypothesis}"))
    quotes = (Evidence("you can deduct any loss"),)
    assert plain.score("income", quotes).score != prompted.score("income", quotes).score


def test_entailed_label_out_of_range_refuses(two_label_model: Path) -> None:
    with pytest.raises(ModelLoadError, match="has 2 output classes but the entailed label is 5"):
        NliScorer(NliSettings(model_path=two_label_model, entailed_label=5))


def test_directory_without_a_model_refuses(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="cannot load a sequence-classification model"):
        NliScorer(NliSettings(model_path=tmp_path))


def test_composition_builds_and_serves_the_nli_scorer(two_label_model: Path) -> None:
    config = config_from_env({"ASAT_GROUNDEDNESS": "nli", "ASAT_GROUNDEDNESS_MODEL": str(two_label_model)})
    assert build_scorer(config).name == "nli"
    with TestClient(create_app(config)) as client:
        assert client.get("/healthz").json() == {"status": "ok", "scorer": "nli"}
