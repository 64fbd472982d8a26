from __future__ import annotations

from asat_corpus.chunk import Chunk
from asat_research.parent_merge import merge_parents
from asat_research.retrieval import Hit


def _chunks(parent: str, n: int) -> list[Chunk]:
    return [Chunk(f"{parent}/{i}", parent, "provision", (f"({i})",), f"t{i}", i, i + 1, parent, ()) for i in range(n)]


CHILDREN = {"A": _chunks("A", 40), "B": _chunks("B", 3)}


def _hit(parent: str, i: int) -> Hit:
    return Hit(f"{parent}/{i}", parent, 0.0, 0.0, {"source_id": parent})


def test_groups_by_parent_windowed_in_document_order() -> None:
    parents = merge_parents([_hit("A", 10), _hit("B", 0), _hit("A", 3)], [0.9, 0.5, 0.6], CHILDREN.__getitem__)
    assert [p.source_id for p in parents] == ["A", "B"]
    a = parents[0]
    assert [c.id for c in a.chunks] == ["A/2", "A/3", "A/4", "A/9", "A/10", "A/11"]
    assert a.scoring_chunk_ids == ("A/10", "A/3")
    assert a.score == 0.9
    assert [c.id for c in parents[1].chunks] == ["B/0", "B/1"]


def test_children_are_capped_scoring_chunks_first() -> None:
    hits = [_hit("A", i) for i in range(0, 40, 2)]
    scores = [1.0 - i / 100 for i in range(len(hits))]
    (parent,) = merge_parents(hits, scores, CHILDREN.__getitem__, max_children=16)
    assert len(parent.chunks) == 16
    assert {c.id for c in parent.chunks} == {h.chunk_id for h in hits[:16]}


def test_a_provision_keeps_its_lead_subsection_after_its_best_chunk() -> None:
    long_first = [
        Chunk(f"P/{i}", "P", "provision", (f"({i + 1})",), "x" * (300 if i == 0 else 50), i, i + 1, "P", ())
        for i in range(10)
    ]
    short_first = [
        Chunk(f"Q/{i}", "Q", "provision", (), "General rule:" if i == 0 else "y" * 300, i, i + 1, "Q", ())
        for i in range(3)
    ]
    children = {"P": long_first, "Q": short_first}
    hits = [Hit("P/7", "P", 0.0, 0.0, {"kind": "provision"}), Hit("Q/2", "Q", 0.0, 0.0, {"kind": "provision"})]
    p, q = merge_parents(hits, [0.9, 0.8], children.__getitem__, max_children=2)
    assert p.lead_chunk_ids == ("P/0",)
    assert [c.id for c in p.chunks] == ["P/0", "P/7"]  # the best chunk, then the lead (within the cap)
    assert q.lead_chunk_ids == ("Q/0", "Q/1")  # a short preamble brings the next subsection
    assert p.chunk_scores == (("P/7", 0.9),)
    ruling = merge_parents([_hit("A", 10)], [0.5], CHILDREN.__getitem__)[0]
    assert ruling.lead_chunk_ids == ()  # only provisions have a lead subsection
