from __future__ import annotations

from asat_research.question_words import content_words


def test_topic_words_are_six_letter_stems_without_function_words() -> None:
    assert content_words("Can my client claim a deduction for repairs to her rental?") == {"deduct", "repair", "rental"}


def test_amounts_and_section_numbers_stay_whole_words() -> None:
    assert content_words("Was $2,000 the limit under s 8-1, or 10%?") == {"$2,000", "limit", "under", "8-1", "10%"}
