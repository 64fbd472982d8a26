from __future__ import annotations

from datetime import date

from asat_corpus.header_date import parse_header_date


def test_reads_the_explicit_header_forms() -> None:
    # Header lines as in fbta1986 C2014C00338 and ita1986 C2008C00240 (gitlaw-markdown).
    assert parse_header_date("##### Compilation start date: 25 June 2014\n") == (
        date(2014, 6, 25),
        "Compilation start date: 25 June 2014",
    )
    found = parse_header_date("##### This compilation was prepared on 2 July 2008\n")
    assert found is not None and found[0] == date(2008, 7, 2)


def test_no_date_or_a_bad_date_gives_none() -> None:
    assert parse_header_date("# Some Act\n") is None
    assert parse_header_date("Compilation date: 31 February 2014") is None
    assert parse_header_date("\n" * 100 + "Compilation date: 1 July 2014") is None
