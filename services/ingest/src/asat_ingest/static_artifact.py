"""The static embedding model's files on disk and the card that vouches for them.

``models/static-minilm/`` holds a model2vec ``StaticModel`` (``model.safetensors``,
``tokenizer.json``, ``config.json``, ``modules.json``) written by :mod:`asat_ingest.distill_static`,
with ``card.json`` (how it was made, and the sha256 of every artifact) and ``MODEL_CARD.md`` (the
same, for people). Every artifact is read once and its bytes checked against the card before they
are used: a missing or changed file is refused with what to run, never quietly replaced.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from asat_ingest.embedder import EmbedderError

DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[4] / "models" / "static-minilm"
CARD_FILE = "card.json"
MODEL_CARD_FILE = "MODEL_CARD.md"
REBUILD_HINT = (
    "run `make static-embedder` (part of `make models`), restore models/static-minilm/ from git, "
    "or point ASAT_STATIC_EMBEDDER_DIR at a copy"
)
BASE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"  # what both static models derive from
FITTED_MODEL_DIR = DEFAULT_MODEL_DIR.parent / "static-corpus"  # the table asat_ingest.fit_static writes
REFIT_HINT = (
    "run `make models` (or `python -m asat_ingest.fit_static`), restore models/static-corpus/ from git, "
    "or point ASAT_STATIC_CORPUS_DIR at a copy"
)


def model2vec_config(
    hidden_dim: int, max_length: int, apply_pca: int | None = None, sif_coefficient: float | None = None
) -> dict[str, Any]:
    """The ``config.json`` of a mean-pooled, normalised model2vec ``StaticModel`` over MiniLM's vocabulary (pure)."""
    return {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "tokenizer_name": BASE_MODEL,
        "apply_pca": apply_pca,
        "sif_coefficient": sif_coefficient,
        "hidden_dim": hidden_dim,
        "seq_length": 1000000,
        "normalize": True,
        "pooling": "mean",
        "max_length": max_length,
    }


def artifacts_digest(artifacts: dict[str, str]) -> str:
    """One sha256 over every artifact's name and hash (pure): it changes when any artifact does."""
    lines = "".join(f"{name}\0{digest}\n" for name, digest in sorted(artifacts.items()))
    return hashlib.sha256(lines.encode()).hexdigest()


@dataclass(frozen=True)
class CheckedArtifact:
    """A model directory's card and the bytes of every artifact, each matching the card's sha256."""

    directory: Path
    card: dict[str, Any]
    artifacts: dict[str, str]  # name -> sha256
    blobs: dict[str, bytes]  # name -> the bytes that were checked

    @property
    def digest(self) -> str:
        return artifacts_digest(self.artifacts)

    @property
    def dim(self) -> int:
        return int(self.card["dim"])

    @property
    def max_tokens(self) -> int:
        return int(self.card["hyper_parameters"]["max_tokens"])


def read_checked(directory: Path, hint: str = REBUILD_HINT) -> CheckedArtifact:
    """The card of ``directory`` and the bytes of every artifact it lists, each checked against its sha256."""
    card_file = directory / CARD_FILE
    if not card_file.is_file():
        raise EmbedderError(f"the static embedding model is missing ({card_file} does not exist): {hint}")
    try:
        card: dict[str, Any] = json.loads(card_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EmbedderError(f"{card_file} cannot be read ({exc}): {hint}") from exc
    artifacts = card.get("artifacts")
    if not isinstance(artifacts, dict) or not artifacts or not isinstance(card.get("dim"), int):
        raise EmbedderError(f"{card_file} lists no artifacts or no dim: {hint}")
    blobs: dict[str, bytes] = {}
    for name, expected in sorted(artifacts.items()):
        path = directory / str(name)
        if not path.is_file():
            raise EmbedderError(f"{path} is missing: {hint}")
        blob = path.read_bytes()
        actual = hashlib.sha256(blob).hexdigest()
        if actual != expected:
            raise EmbedderError(
                f"{path} does not match its model card (sha256 {actual[:12]}, card {str(expected)[:12]}): "
                f"the static embedding model was changed; {hint}"
            )
        blobs[str(name)] = blob
    return CheckedArtifact(directory, card, {str(k): str(v) for k, v in artifacts.items()}, blobs)


def package_version(name: str) -> str:
    """The installed version of ``name``, for a model card ("not installed" when it is not)."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def write_static_model(
    out: Path,
    vectors: Any,
    tokenizer: Any,
    config: Any,
    card: dict[str, Any],
    markdown: Callable[[dict[str, Any]], str],
) -> dict[str, Any]:
    """Save a model2vec ``StaticModel`` into ``out`` (its files replaced) with ``card.json`` and
    ``MODEL_CARD.md``; returns ``card`` with every artifact's sha256 and size added.

    The files are written to a staging directory beside ``out`` and moved in with the card last:
    until the card is replaced, the old card refuses the new artifacts.
    """
    from model2vec.persistence import save_pretrained

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}-") as scratch:
        staging = Path(scratch)
        save_pretrained(staging, vectors, tokenizer, config, create_model_card=False)
        files = sorted(p.name for p in staging.iterdir() if p.is_file())
        sizes = {name: (staging / name).stat().st_size for name in files}
        card = {
            **card,
            "size_bytes": sum(sizes.values()),
            "sizes_bytes": sizes,
            "artifacts": {name: hashlib.sha256((staging / name).read_bytes()).hexdigest() for name in files},
        }
        (staging / CARD_FILE).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        (staging / MODEL_CARD_FILE).write_text(markdown(card), encoding="utf-8")
        out.mkdir(parents=True, exist_ok=True)
        for name in [*files, MODEL_CARD_FILE, CARD_FILE]:
            (staging / name).chmod(0o644)
            shutil.move(str(staging / name), str(out / name))
    return card
