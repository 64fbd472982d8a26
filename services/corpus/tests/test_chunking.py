"""Chunks are exact substrings of their source; spans lie inside chunks and have stable ids."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.chunking import chunk_ruling, chunk_version
from asat_corpus.provision import Bound, BoundMethod, ProvisionVersion, Subsection
from asat_corpus.ruling import Ruling, RulingParagraph


def _version(text: str, subsections: tuple[Subsection, ...]) -> ProvisionVersion:
    return ProvisionVersion(
        id="itaa1997:328-110@C2026C00122",
        act="itaa1997",
        number="328-110",
        heading="Meaning of small business entity",
        hierarchy=(),
        text=text,
        subsections=subsections,
        register_ids=("C2026C00122",),
        authorised=True,
        valid_from=date(2023, 6, 29),
        valid_to=None,
        from_bound=Bound(date(2023, 6, 29), BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=Bound(None, BoundMethod.OPEN),
        income_years=(2023, 2024),
        content_hash="x",
    )


def _with_subsections(lines: list[str]) -> tuple[str, tuple[Subsection, ...]]:
    text = ""
    subs = []
    for number, line in enumerate(lines, start=1):
        start = len(text)
        text += f"({number}) {line}\n"
        subs.append(Subsection(f"({number})", start, len(text)))
    return text, tuple(subs)


def test_one_chunk_per_subsection_with_stable_ids() -> None:
    text, subs = _with_subsections(
        ["You are a small business entity if: (a) you carry on a business.", "More text here."]
    )
    chunks = chunk_version(_version(text, subs))
    assert [c.id for c in chunks] == ["itaa1997:328-110@C2026C00122/1", "itaa1997:328-110@C2026C00122/2"]
    assert chunks[0].label_path == ("(1)",)
    assert chunks[0].parent_id == "itaa1997:328-110@C2026C00122"
    assert chunks[0].spans[0].id == "itaa1997:328-110@C2026C00122/1#s1"


def test_long_subsection_is_split_at_line_boundaries() -> None:
    body = "\n".join(f"({chr(97 + i)}) " + "word " * 60 for i in range(10))
    text, subs = _with_subsections([body])
    chunks = chunk_version(_version(text, subs), max_chars=700)
    assert len(chunks) > 1
    assert all(c.label_path[0] == "(1)" for c in chunks)
    assert all(text[c.start : c.end] == c.text for c in chunks)


line_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), min_size=1, max_size=400)


@settings(max_examples=100, deadline=None)
@given(st.lists(line_text, min_size=1, max_size=8), st.integers(50, 2000))
def test_chunks_and_spans_are_exact_substrings(lines: list[str], max_chars: int) -> None:
    text, subs = _with_subsections(lines)
    version = _version(text, subs)
    for chunk in chunk_version(version, max_chars=max_chars):
        assert text[chunk.start : chunk.end] == chunk.text
        assert chunk.text == chunk.text.strip()
        for span in chunk.spans:
            assert chunk.start <= span.start < span.end <= chunk.end
        ids = [s.id for s in chunk.spans]
        assert len(ids) == len(set(ids))


def test_ruling_chunks_per_paragraph() -> None:
    text = "1. This Ruling explains the deduction.\n2. It applies from 1 July 2020.\n"
    ruling = Ruling(
        id="TR 2020/1",
        doc_type="TR",
        year=2020,
        number="1",
        title="Deductions",
        status="current",
        issue_date=date(2020, 7, 1),
        withdrawn_date=None,
        text=text,
        paragraphs=(RulingParagraph("1", 0, 38), RulingParagraph("2", 38, len(text))),
        source_file="rulings/TR/TR_2020_1.txt",
    )
    assert [c.id for c in chunk_ruling(ruling, max_chars=40)] == ["TR 2020/1/para1", "TR 2020/1/para2"]
    assert chunk_ruling(ruling, max_chars=40)[1].text == "2. It applies from 1 July 2020."
    (packed,) = chunk_ruling(ruling)
    assert packed.id == "TR 2020/1/para1-2" and packed.label_path == ("paras 1-2",)
    assert packed.text == text.strip()


def test_a_label_printed_twice_gives_distinct_chunk_ids() -> None:
    text = "(1) First part words here.\n(1) Second part words here.\n"
    subs = (Subsection("(1)", 0, 27), Subsection("(1)", 27, len(text)))
    ids = [c.id for c in chunk_version(_version(text, subs))]
    assert len(ids) == len(set(ids)) == 2
