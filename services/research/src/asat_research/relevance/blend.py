"""The cascade: the cross-encoder rereads the ranker's top candidates, and a logistic blend of both
scores (fitted on the dev slice) is the probability that the passage answers (pure)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Blend:
    """``p = sigmoid(w_ltr * ltr_raw + w_ce * ce_logit + bias)``."""

    w_ltr: float
    w_ce: float
    bias: float

    def probability(self, ltr_raw: float, ce_logit: float) -> float:
        z = self.w_ltr * ltr_raw + self.w_ce * ce_logit + self.bias
        return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0

    @classmethod
    def fit(cls, ltr: Sequence[float], ce: Sequence[float], relevant: Sequence[int], iterations: int = 100) -> Blend:
        """Logistic regression (Newton's method, a small L2 term on the weights)."""
        x = np.column_stack([np.asarray(ltr, float), np.asarray(ce, float), np.ones(len(ltr))])
        y = np.asarray(relevant, float)
        w = np.zeros(3)
        ridge = np.diag([1e-3, 1e-3, 0.0])
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-(x @ w)))
            grad = x.T @ (p - y) + ridge @ w
            hess = (x * (p * (1 - p) + 1e-9)[:, None]).T @ x + ridge
            step = np.linalg.solve(hess, grad)
            w = w - step
            if float(np.abs(step).max()) < 1e-8:
                break
        return cls(float(w[0]), float(w[1]), float(w[2]))


def cascade(ltr_probability: Sequence[float], blended: dict[int, float]) -> list[float]:
    """Every candidate's final score: the blend where the cross-encoder read it, else the ranker's
    probability, capped below the lowest blended score so an unread candidate never outranks a read one."""
    if not blended:
        return list(ltr_probability)
    floor = min(blended.values())
    return [blended[i] if i in blended else min(p, floor * 0.999) for i, p in enumerate(ltr_probability)]
