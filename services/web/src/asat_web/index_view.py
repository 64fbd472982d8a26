"""The index's readiness as the research and chat pages show it (pure).

While research says the index is being built, the question form is shown disabled under a progress
bar: the percentage done, the rate (texts/s) and the time left, in the words of
``asat_corpus.build_progress``. After a failed build it says why, and the form stays disabled:
nothing is answered from a partial index. ``GET /index-status`` (JSON) is the same view, which
``static/index_status.js`` polls to move the bar and to reload the page when the state changes.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.build_progress import duration_words, phase_words, rate_words
from asat_corpus.contracts.search import IndexReadiness

ViewState = Literal["ready", "building", "failed", "unavailable", "unknown"]


class IndexView(BaseModel):
    """``GET /index-status``: whether questions can be asked now, and the build's progress."""

    model_config = ConfigDict(frozen=True)

    state: ViewState = Field(description="'unknown' when research could not be asked.")
    blocks_questions: bool = Field(description="True while building or after a failed build: the form is disabled.")
    percent: int = Field(ge=0, le=100, description="Of the whole build, rounded down.")
    percent_text: str
    rate_text: str
    left_text: str
    phase_text: str
    message: str = Field(description="Research's words (the build's progress, or why the index cannot answer).")


def index_view(ready: IndexReadiness) -> IndexView:
    build = ready.build
    percent = math.floor(build.percent) if build is not None and ready.state == "building" else 0
    if ready.state == "ready":
        percent = 100
    rate = build.rate if build is not None else None
    left = build.seconds_left if build is not None else None
    return IndexView(
        state=ready.state,
        blocks_questions=ready.state in ("building", "failed"),
        percent=percent,
        percent_text=f"{percent}% done",
        rate_text=rate_words(rate) if rate is not None else "rate not measured yet",
        left_text=f"{duration_words(left)} left" if left is not None else "time left not known yet",
        phase_text=_sentence(phase_words(build.phase, build.done, build.total)) if build is not None else "",
        message=_sentence(ready.message),
    )


def unknown_view(problem: str) -> IndexView:
    """Research could not say: the form stays usable (a question then gets research's own error)."""
    return IndexView(
        state="unknown",
        blocks_questions=False,
        percent=0,
        percent_text="",
        rate_text="",
        left_text="",
        phase_text="",
        message=_sentence(f"The research service could not say whether the index is ready: {problem}"),
    )


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
