"""Term counts and their cache: the sparse vectors a build writes from cached counts are the ones
the tokens give, and a changed tokenizer never reads counts made by another."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_ingest.bm25 import Bm25Encoder
from asat_ingest.legal_tokenizer import legal_tokenize
from asat_ingest.term_count_cache import TermCountCache, term_counts_with_cache
from asat_ingest.term_counts import TOKENIZER_IDENTITY, TOKENIZER_MODULE_NAMES, TermCounts, count_terms

# Sentences in the form of s 8-1 and s 328-110 ITAA 1997 (written for the test).
TEXTS = [
    "You can deduct from your assessable income any loss or outgoing to the extent that it is incurred "
    "in gaining or producing your assessable income (s 8-1(1)(a)).",
    "An entity is a small business entity if its aggregated turnover is less than $10 million; see "
    "section 328-110 and Subdivision 328-C.",
    "",
    "the the the *business *business 30 per cent",
]


def test_counts_agree_with_the_tokens() -> None:
    for text in TEXTS:
        counts = count_terms(text)
        assert counts.length == len(legal_tokenize(text))
        assert sum(counts.tfs) == counts.length


@given(st.text(alphabet=st.sampled_from("abc $%0123456789-,.()*s"), max_size=80))
@settings(max_examples=200, deadline=None)
def test_the_vector_from_counts_is_the_vector_from_the_text(text: str) -> None:
    encoder = Bm25Encoder(avg_doc_len=7.0)
    assert encoder.encode_counts(count_terms(text)) == encoder.encode_document(text)


def test_fitting_on_lengths_is_fitting_on_texts() -> None:
    lengths = [count_terms(text).length for text in TEXTS]
    assert Bm25Encoder.fit_lengths(lengths) == Bm25Encoder.fit(TEXTS)
    assert Bm25Encoder.fit_lengths([]).avg_doc_len == 1.0


def test_counts_that_do_not_add_up_are_refused() -> None:
    try:
        TermCounts(length=3, dims=(1, 2), tfs=(1, 1))
    except ValueError as exc:
        assert "add up to 2 tokens" in str(exc)
    else:
        raise AssertionError("inconsistent term counts were accepted")


def test_the_cache_reads_back_what_it_counted_and_counts_each_text_once(tmp_path: Path) -> None:
    cache = TermCountCache(tmp_path / "terms.sqlite3")
    progress: list[int] = []
    first = term_counts_with_cache(cache, TEXTS + TEXTS[:1], on_progress=progress.append)
    assert set(first) == set(TEXTS)
    assert sum(progress) == len(TEXTS) and cache.misses == len(TEXTS) and cache.hits == 0
    assert len(cache) == len(TEXTS)
    cache.close()

    reopened = TermCountCache(tmp_path / "terms.sqlite3")
    again = term_counts_with_cache(reopened, TEXTS)
    assert again == first and reopened.hits == len(TEXTS) and reopened.misses == 0
    reopened.close()


def test_another_tokenizer_identity_reads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "terms.sqlite3"
    cache = TermCountCache(path)
    term_counts_with_cache(cache, TEXTS)
    cache.close()
    other = TermCountCache(path, identity="legal-tokenizer|sha256=another")
    assert other.get_many(TEXTS) == [None] * len(TEXTS)
    other.close()


def test_the_identity_names_the_tokenizers_source() -> None:
    assert TOKENIZER_IDENTITY.startswith("legal-tokenizer|sha256=") and len(TOKENIZER_IDENTITY.split("=")[1]) == 16


def test_the_identity_covers_every_module_the_tokenizer_imports() -> None:
    # A module the tokenizer comes to import, left out of the identity, would let counts made
    # before a change to it be read back after.
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import asat_ingest.legal_tokenizer, asat_ingest.token_dimension\n"
        "loaded = set(sys.modules) - before\n"
        "print(' '.join(sorted(m for m in loaded if m.startswith('asat_') and not hasattr(sys.modules[m], '__path__'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert tuple(done.stdout.split()) == TOKENIZER_MODULE_NAMES
