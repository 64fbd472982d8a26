"""Keeping the collector off what a service loads once at its start (the corpus, the models).

A service holds millions of objects it loaded at start and never frees; every full collection
walks them all again, stopping every request in flight meanwhile (the long tail of its latency
under load). ``freeze_startup_objects`` moves everything alive now out of the collector's sight
(:func:`gc.freeze`): it is still freed by reference counting, only no longer scanned for cycles.
"""

from __future__ import annotations

import gc


def freeze_startup_objects() -> int:
    """Collect once, then freeze what is left; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
