"""Tested docs: every table of measured figures in the README names the commit it was measured
at, and that commit exists (issue 15 item 5).

A table under ``## Measured`` either has a ``measured at commit`` column with a commit in every
row, or the paragraph just above it says ``measured at commit `<sha>```.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
COLUMN = "measured at commit"
SHA = re.compile(r"`?([0-9a-f]{7,40})`?")
STATED = re.compile(r"measured at commit `?([0-9a-f]{7,40})`?", re.IGNORECASE)


@dataclass(frozen=True)
class Table:
    line: int  # of the header row, 1-based
    above: str  # the paragraph just above it
    rows: list[list[str]]  # header first, separator row left out


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def measured_tables(readme: str) -> list[Table]:
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "## Measured")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tables: list[Table] = []
    index = start + 1
    while index < end:
        if not lines[index].startswith("|"):
            index += 1
            continue
        paragraph: list[str] = []
        back = index - 1
        while back > start and not lines[back].strip():
            back -= 1
        while back > start and lines[back].strip() and not lines[back].startswith("|"):
            paragraph.insert(0, lines[back])
            back -= 1
        rows: list[list[str]] = []
        header = index
        while index < end and lines[index].startswith("|"):
            if not re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[index].strip()):
                rows.append(_cells(lines[index]))
            index += 1
        tables.append(Table(header + 1, " ".join(paragraph), rows))
    return tables


def commits_named(table: Table) -> list[str]:
    """The commits a table names: its column's, or the paragraph's; [] when it names none."""
    header = [cell.lower() for cell in table.rows[0]]
    if COLUMN in header:
        column = header.index(COLUMN)
        found = []
        for row in table.rows[1:]:
            match = SHA.fullmatch(row[column]) if column < len(row) else None
            assert match, f"README.md:{table.line}: the row {row[0]!r} names no commit in its {COLUMN!r} column"
            found.append(match.group(1))
        return found
    return STATED.findall(table.above)


def _exists(sha: str) -> bool:
    done = subprocess.run(
        ["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=REPO_ROOT, capture_output=True, check=False
    )
    return done.returncode == 0


TABLES = measured_tables((REPO_ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_measured_section_has_its_tables() -> None:
    assert len(TABLES) >= 3


@pytest.mark.parametrize("table", TABLES, ids=[f"README.md:{t.line}" for t in TABLES])
def test_each_measured_table_names_a_commit_that_exists(table: Table) -> None:
    commits = commits_named(table)
    assert commits, (
        f"README.md:{table.line}: the table under '## Measured' does not say which commit it was measured at: "
        f"add a {COLUMN!r} column, or 'measured at commit `<sha>`' in the paragraph above it"
    )
    missing = sorted({sha for sha in commits if not _exists(sha)})
    assert missing == [], f"README.md:{table.line}: no such commit in this repository's history: {missing}"


def test_a_table_without_a_commit_is_caught() -> None:
    readme = "## Measured\n\nFigures.\n\n| a | b |\n|---|---|\n| x | 1 |\n\n## Next\n"
    (table,) = measured_tables(readme)
    assert commits_named(table) == []
    stated = measured_tables(readme.replace("Figures.", "Figures; measured at commit `abcdef1`:"))
    assert commits_named(stated[0]) == ["abcdef1"]
    assert not _exists("0000000")
