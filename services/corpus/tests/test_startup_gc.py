"""What a service loaded at its start is kept out of the collector's sight, and still alive."""

from __future__ import annotations

import gc

from asat_corpus.startup_gc import freeze_startup_objects


def test_what_is_alive_at_the_start_is_frozen_and_kept() -> None:
    loaded = {"s 8-1": ["general deductions"] * 3}
    try:
        frozen = freeze_startup_objects()
        assert frozen == gc.get_freeze_count() > 0
        assert loaded["s 8-1"][0] == "general deductions"  # frozen, not freed
        gc.collect()  # a full collection after the freeze leaves the frozen objects alone
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
