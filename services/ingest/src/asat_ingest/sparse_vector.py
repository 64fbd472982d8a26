"""A sparse vector: parallel ``indices`` and ``values``, the form both index adapters store."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SparseVector:
    """Non-zero dimensions ``indices`` (unique, each in ``[0, 2**31)``) and their ``values``."""

    indices: tuple[int, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.indices) != len(self.values):
            raise ValueError(
                f"sparse vector has {len(self.indices)} indices but {len(self.values)} values; pass one value per index"
            )
        if len(set(self.indices)) != len(self.indices):
            raise ValueError("sparse vector indices must be unique; merge the weights of repeated indices")
        for index in self.indices:
            if not 0 <= index < 2**31:
                raise ValueError(f"sparse vector index {index} is outside [0, 2**31)")
        for value in self.values:
            if not math.isfinite(value):
                raise ValueError(f"sparse vector value {value} is not finite")

    @property
    def is_empty(self) -> bool:
        return not self.indices

    @staticmethod
    def from_weights(weights: dict[int, float]) -> SparseVector:
        """Build from an ``index -> weight`` mapping, indices sorted ascending."""
        ordered = sorted(weights.items())
        return SparseVector(tuple(i for i, _ in ordered), tuple(w for _, w in ordered))
