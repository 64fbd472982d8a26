"""A text's BM25 term counts: its token count and, per distinct token, the sparse dimension and
how often the token occurs (pure).

The counts are all that BM25 needs of a document besides the corpus's average length, so a build
reads them once per distinct text and an unchanged text is never tokenized again (see
:mod:`asat_ingest.term_count_cache`). ``TOKENIZER_IDENTITY`` names the tokenizer by the source of
every module that decides a token or its dimension: changing any of them changes the identity, so
counts made by an older tokenizer are never read back.
"""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import asat_corpus.normalise
import asat_corpus.text.figures
import asat_corpus.text.numbers
import asat_corpus.text.stopwords
from asat_ingest import legal_tokenizer, token_dimension
from asat_ingest.legal_tokenizer import legal_tokenize
from asat_ingest.token_dimension import token_index

_TOKENIZER_MODULES: tuple[ModuleType, ...] = (
    legal_tokenizer,
    token_dimension,
    asat_corpus.normalise,
    asat_corpus.text.figures,
    asat_corpus.text.numbers,
    asat_corpus.text.stopwords,
)


def _source_identity(modules: tuple[ModuleType, ...]) -> str:
    """A hash of each module's source, and of the Unicode tables and Python version that casing,
    NFKC and the patterns' character classes depend on."""
    digest = hashlib.sha256()
    digest.update(
        f"unicode {unicodedata.unidata_version}; python {sys.version_info[0]}.{sys.version_info[1]}\0".encode()
    )
    for module in modules:
        if module.__file__ is None:
            raise RuntimeError(f"the tokenizer module {module.__name__} has no source file to name it by")
        digest.update(module.__name__.encode())
        digest.update(b"\0")
        digest.update(Path(module.__file__).read_bytes())
        digest.update(b"\0")
    return f"legal-tokenizer|sha256={digest.hexdigest()[:16]}"


# Every module (not package) that importing the tokenizer and the dimension loads from this project:
# tests/test_term_counts.py checks the list against a fresh interpreter's imports.
TOKENIZER_IDENTITY = _source_identity(_TOKENIZER_MODULES)
TOKENIZER_MODULE_NAMES = tuple(sorted(module.__name__ for module in _TOKENIZER_MODULES))


@dataclass(frozen=True)
class TermCounts:
    """``length``: the text's tokens; ``dims[i]`` occurs ``tfs[i]`` times (one entry per distinct
    token, so two tokens that share a dimension are two entries)."""

    length: int
    dims: tuple[int, ...]
    tfs: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.dims) != len(self.tfs):
            raise ValueError(f"term counts have {len(self.dims)} dimensions but {len(self.tfs)} counts")
        if sum(self.tfs) != self.length:
            raise ValueError(f"term counts add up to {sum(self.tfs)} tokens, not the length {self.length}")


def tokens_to_counts(tokens: list[str]) -> TermCounts:
    counted = Counter(tokens)
    return TermCounts(
        length=len(tokens),
        dims=tuple(token_index(token) for token in counted),
        tfs=tuple(counted.values()),
    )


def count_terms(text: str) -> TermCounts:
    """The term counts of ``text`` under :func:`legal_tokenize`."""
    return tokens_to_counts(legal_tokenize(text))
