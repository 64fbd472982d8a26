"""The pure parts of the build profile (``scripts/index_profile.py``): length buckets and the
padding a batching carries. (The figures come from running ``bench_index.py --profile``.)"""

from __future__ import annotations

import pytest
from index_profile import BUCKETS, bucket_label, bucket_of, padding_share


def test_every_length_falls_in_exactly_one_bucket() -> None:
    for tokens in (1, 64, 65, 128, 129, 192, 193, 256, 5000):
        assert sum(low <= tokens <= high for low, high in BUCKETS) == 1
        low, high = BUCKETS[bucket_of(tokens)]
        assert low <= tokens <= high
    with pytest.raises(ValueError, match="fits no bucket"):
        bucket_of(0)
    assert bucket_label(0) == "1-64" and bucket_label(3).startswith("193+")


def test_padding_share_counts_the_pad_tokens_of_each_batch() -> None:
    assert padding_share([], 8) == 0.0
    assert padding_share([10, 10, 10, 10], 2) == 0.0
    # One batch of [2, 10]: 20 tokens fed, 12 real.
    assert padding_share([2, 10], 2) == pytest.approx(0.4)
    # Length order pads less than mixed order.
    mixed = [5, 100, 6, 90, 7, 80, 8, 70]
    assert padding_share(sorted(mixed), 2) < padding_share(mixed, 2)
