from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from asat_research.relevance.hard_negatives import division_of, hard_negatives

DIV8 = ["Chapter 1—Introduction", "Part 1-3—Core provisions", "Division 8—Deductions"]
DIV25 = ["Chapter 2—Liability rules", "Part 2-10—Deductions", "Division 25—Some specific deductions"]


def _hit(number: str, hierarchy: list[str], act: str = "itaa1997") -> dict[str, Any]:
    return {"act": act, "provision": number, "hierarchy": hierarchy}


def test_half_the_negatives_are_sections_of_the_answers_division_the_rest_the_best_retrieved() -> None:
    hits = [_hit("25-5", DIV25), _hit("8-1", DIV8), _hit("25-10", DIV25), _hit("25-10", DIV25), _hit("8-5", DIV8)]
    labels = [0, 1, 0, 0, 0]
    # 8-5 shares Division 8 with the answer 8-1; 25-5 is the best retrieved other; 25-10 once only.
    assert hard_negatives(hits, labels, 2) == [0, 4]
    assert hard_negatives(hits, labels, 4) == [0, 2, 4]


def test_without_a_same_division_neighbour_the_best_retrieved_fill_every_place() -> None:
    hits = [_hit("25-5", DIV25), _hit("8-1", DIV8), _hit("25-10", DIV25)]
    assert hard_negatives(hits, [0, 1, 0], 2) == [0, 2]
    assert division_of({"kind": "ruling", "source_id": "TR 2020/1"}) is None
    assert division_of(_hit("8-1", DIV8)) == ("itaa1997", "Division 8")


@given(
    st.lists(st.tuples(st.sampled_from(["8-1", "8-5", "25-5", "25-10", "26-5"]), st.integers(0, 2)), max_size=30),
    st.integers(0, 8),
)
def test_negatives_are_unlabelled_distinct_sections_in_retrieval_order(rows: list[tuple[str, int]], count: int) -> None:
    hits = [_hit(n, DIV8 if n.startswith("8-") else DIV25) for n, _ in rows]
    labels = [lab for _, lab in rows]
    chosen = hard_negatives(hits, labels, count)
    assert chosen == sorted(set(chosen)) and len(chosen) <= count
    assert all(labels[i] == 0 for i in chosen)
    assert len({hits[i]["provision"] for i in chosen}) == len(chosen)
