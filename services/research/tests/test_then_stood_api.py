"""Issue 24 item 4 through the API, over real parts and the real corpus: the index (MiniLM, Qdrant
Edge, the ingest app) holds a slice of ITAA 1997 and the GST Act around three provisions whose
dating the issue names, and the research app answers over HTTP with the real verifier.

- ITAA 1997 s 118-300 (insurance policies): the conversion noise between two compilations is
  merged, so income year 2025 answers from the authorised text.
- ITAA 1997 s 114-5 (indexation): Act No. 70, 2015 commenced on one of several days up to
  1 July 2015, so income year 2020 answers from the amended text without a caveat, and income year
  2015 answers from the text as it then stood (the June 2015 compilation), with the caveat.
- ITAA 1997 s 207-15 (franking): Act No. 70, 2015 commenced on one of several days from 29 June
  2013 to 1 July 2025 and no held compilation from June 2015 to 2026 shows the section, so income
  year 2020 answers from the text as that Act made it, the caveat naming the earlier text.
- GST Act s 177-10: amended after the June 2015 compilation with effect from 5 March 2015
  (retrospective); on 1 May 2015 it answers as it then stood, naming the later Act.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_corpus.corpus_build import load_corpus
from asat_ingest.runtime import IngestRuntime
from asat_research.api import create_app

from .stack import build_stack

ENV = {"ASAT_EMBEDDER": "minilm", "ASAT_INDEX_ACTS": "itaa1997,gst1999", "ASAT_INDEX_RULINGS": "none"}
SLICE = {
    "itaa1997": ("114-1", "114-5", "114-10", "118-300", "118-305"),
    "gst1999": ("177-1", "177-5", "177-10"),
}


def _serve(slice_: dict[str, tuple[str, ...]], root: Path) -> tuple[TestClient, IngestRuntime]:
    full = load_corpus(acts=list(slice_), include_rulings=False)
    kept = {key: t for key, t in full.timelines.items() if key[1] in slice_.get(key[0], ())}
    assert len(kept) == sum(len(v) for v in slice_.values()), sorted(kept)
    stack, runtime = build_stack(replace(full, timelines=kept), ENV, root)
    return TestClient(create_app(stack.pipeline())), runtime


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    client, runtime = _serve(SLICE, tmp_path_factory.mktemp("then-stood"))
    yield client
    runtime.close()


@pytest.fixture(scope="module")
def franking(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Division 207 (franked distributions), apart: its texts as amended would be quoted beside
    the other slice's answers."""
    client, runtime = _serve({"itaa1997": ("207-5", "207-15", "207-20")}, tmp_path_factory.mktemp("franking"))
    yield client
    runtime.close()


def _ask(api: TestClient, question: str, **when: Any) -> dict[str, Any]:
    response = api.post("/v1/research", json={"question": question} | when)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _cited(body: dict[str, Any], provision: str) -> list[dict[str, Any]]:
    """The citations of ``provision`` (the extractive generator also quotes the next best sections)."""
    cited = [c for claim in body["claims"] for c in claim["citations"] if c["provision"] == provision]
    assert cited, f"{provision} is not cited: {body['claims']}"
    return cited


def _caveat(body: dict[str, Any], label: str) -> str:
    (caveat,) = [r for r in body["reasons"] if r.startswith(label)]
    return str(caveat)


def test_s_118_300_answers_for_2025_from_the_authorised_text(api: TestClient) -> None:
    body = _ask(api, "Which insurance policies does the CGT exemption in section 118-300 cover?", income_year=2025)
    assert body["decision"] == "answer" and body["answered"], body["reasons"]
    cited = _cited(body, "118-300")
    assert {c["source_id"] for c in cited} == {"itaa1997:118-300@C2024C00046"}
    assert all(c["authorised"] and c["then_stood"] is None for c in cited)


def test_s_114_5_answers_for_2020_without_a_caveat(api: TestClient) -> None:
    body = _ask(api, "How is the indexation factor worked out under section 114-5?", income_year=2020)
    assert body["decision"] == "answer", body["reasons"]
    cited = _cited(body, "114-5")
    assert {c["source_id"] for c in cited} == {"itaa1997:114-5@C2024C00046"}
    assert all(c["then_stood"] is None for c in cited)
    assert not [r for r in body["reasons"] if "114-5" in r]


def test_s_114_5_answers_for_2015_as_it_then_stood_with_the_caveat(api: TestClient) -> None:
    body = _ask(api, "How is the indexation factor worked out under section 114-5?", income_year=2015)
    assert body["decision"] == "answered_as_then_stood" and body["answered"], body["reasons"]
    cited = _cited(body, "114-5")
    # The June 2015 text as it then stood; from the amending Act's assent (25 June 2015) the text
    # it made may be quoted beside it, its caveat naming the earlier text.
    assert "itaa1997:114-5@C2015C00285" in {c["source_id"] for c in cited}
    assert {c["source_id"] for c in cited} <= {"itaa1997:114-5@C2015C00285", "itaa1997:114-5@C2024C00046"}
    (caveat,) = [
        r for r in body["reasons"] if r.startswith("ITAA 1997 s 114-5") and "as it then stood (C2015C00285" in r
    ]
    assert "Act No. 70, 2015" in caveat
    assert "2013-06-29" in caveat and "2015-07-01" in caveat  # the candidate commencement dates
    assert all(c["then_stood"] and "Act No. 70, 2015" in c["then_stood"] for c in cited)


def test_s_207_15_answers_for_2020_as_amended_naming_the_earlier_text(franking: TestClient) -> None:
    question = "What is the effect of a franked distribution made to an entity under section 207-15?"
    body = _ask(franking, question, income_year=2020)
    assert body["decision"] == "answered_as_then_stood" and body["answered"], body["reasons"]
    cited = _cited(body, "207-15")
    assert {c["source_id"] for c in cited} == {"itaa1997:207-15@C2026C00122"}
    caveat = _caveat(body, "ITAA 1997 s 207-15")
    assert "quoted as amended by Act No. 70, 2015" in caveat
    assert "the text was itaa1997:207-15@C2015C00285" in caveat
    assert "2025-07-01" in caveat  # the latest candidate commencement


def test_gst_s_177_10_on_1_may_2015_answers_as_it_then_stood_naming_the_later_act(api: TestClient) -> None:
    body = _ask(api, "What does section 177-10 of the GST Act provide?", as_of="2015-05-01")
    assert body["decision"] == "answered_as_then_stood", body["reasons"]
    assert {c["source_id"] for c in _cited(body, "177-10")} == {"gst1999:177-10@C2015C00284"}
    caveat = _caveat(body, "GST Act s 177-10")
    assert "Act No. 126, 2015" in caveat and "2015-03-05" in caveat and "retrospective" in caveat


def test_gst_s_177_10_for_income_year_2015_says_which_days_it_is_quoted_as_it_then_stood(api: TestClient) -> None:
    # In force (as the law now stands) until 5 March 2015, on the books as it then stood after.
    body = _ask(api, "What does section 177-10 of the GST Act provide?", income_year=2015)
    assert body["decision"] == "answered_as_then_stood", body["reasons"]
    cited = _cited(body, "177-10")
    assert {c["source_id"] for c in cited} == {"gst1999:177-10@C2015C00284"}
    assert all(
        c["then_stood"].startswith(
            "in force for part of income year 2015; from 2015-03-05 to 2015-06-30 as it then stood"
        )
        for c in cited
    )


def test_a_stretch_no_held_text_covers_still_abstains_as_not_held(api: TestClient) -> None:
    # GST Act s 177-10 from 10 September 2015 (the June 2015 text no longer on the books) to
    # 2 July 2018: amended more than once, the text in between is not held.
    body = _ask(api, "What does section 177-10 of the GST Act provide?", as_of="2017-01-01")
    assert body["decision"] == "abstain_text_not_held" and not body["claims"], body


# Item 5: asking on the known-time axis (the text as the latest held compilation showed it).


def test_as_known_on_a_day_the_old_text_was_on_the_books_answers_as_it_then_stood(api: TestClient) -> None:
    body = _ask(api, "What does section 177-10 of the GST Act provide?", as_known_on="2015-08-01")
    assert body["scope"]["as_known_on"] == "2015-08-01" and body["scope"]["income_year"] == 2016
    assert body["decision"] == "answered_as_then_stood", body["reasons"]
    assert {c["source_id"] for c in _cited(body, "177-10")} == {"gst1999:177-10@C2015C00284"}
    caveat = _caveat(body, "GST Act s 177-10")
    assert "Act No. 126, 2015" in caveat and "asked as known on 2015-08-01" in caveat
    row = api.get(f"/v1/audit/{body['audit_id']}").json()["record"]
    assert row["as_known_on"] == "2015-08-01" and row["decision"] == "answered_as_then_stood"
    assert row["reasons"] == body["reasons"]


def test_as_known_on_a_day_the_text_was_also_in_force_answers_plainly(api: TestClient) -> None:
    body = _ask(
        api, "Which insurance policies does the CGT exemption in section 118-300 cover?", as_known_on="2025-01-01"
    )
    assert body["decision"] == "answer", body["reasons"]
    assert {c["source_id"] for c in _cited(body, "118-300")} == {"itaa1997:118-300@C2024C00046"}


def test_as_known_on_a_day_no_held_compilation_shows_abstains_naming_what_is_missing(api: TestClient) -> None:
    # ITAA 1997 s 114-5 after Act No. 70, 2015 changed it (June 2015) and before the next held
    # compilation (January 2024): the text on the books then is not held.
    body = _ask(api, "How is the indexation factor worked out under section 114-5?", as_known_on="2019-10-01")
    assert body["decision"] == "abstain_text_not_held" and not body["claims"], body
    assert any("114-5" in r and "not held" in r for r in body["reasons"]), body["reasons"]


def test_as_known_on_with_an_income_year_is_a_clear_422(api: TestClient) -> None:
    response = api.post(
        "/v1/research", json={"question": "What does s 114-5 say?", "as_known_on": "2015-08-01", "income_year": 2015}
    )
    assert response.status_code == 422 and "as_known_on" in response.text
