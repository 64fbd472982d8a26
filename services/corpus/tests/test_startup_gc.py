"""What a service loaded at its start is kept out of the collector's sight, and still alive."""

from __future__ import annotations

import gc

from asat_corpus.startup_gc import freeze_startup_objects


def test_what_is_alive_at_the_start_is_frozen_and_stays_frozen_through_a_collection() -> None:
    try:
        frozen = freeze_startup_objects()
        assert frozen == gc.get_freeze_count() > 0
        gc.collect()  # a full collection after the freeze leaves the frozen objects alone
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
