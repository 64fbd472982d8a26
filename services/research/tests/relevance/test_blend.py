from __future__ import annotations

import math

from asat_research.relevance.blend import Blend, cascade


def test_the_blend_learns_to_trust_the_score_that_separates_the_classes() -> None:
    ltr = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    ce = [-2.0, 2.0, -2.0, 2.0, -1.5, 1.5, -1.0, 1.0]  # the cross-encoder alone separates them
    relevant = [0, 1, 0, 1, 0, 1, 0, 1]
    blend = Blend.fit(ltr, ce, relevant)
    assert blend.w_ce > 0 and abs(blend.w_ce) > abs(blend.w_ltr)
    assert all((blend.probability(a, b) > 0.5) == bool(y) for a, b, y in zip(ltr, ce, relevant, strict=True))
    assert math.isclose(Blend(1.0, 0.0, 0.0).probability(0.0, 5.0), 0.5)


def test_cascade_keeps_unread_candidates_below_every_read_one() -> None:
    final = cascade([0.9, 0.8, 0.95, 0.1], {0: 0.4, 1: 0.7})
    assert final[:2] == [0.4, 0.7]
    assert final[2] < 0.4 and final[3] == 0.1
    assert cascade([0.3, 0.2], {}) == [0.3, 0.2]
