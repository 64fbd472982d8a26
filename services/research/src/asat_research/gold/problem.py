"""One thing wrong with a suite, named by case id and field."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"  # the suite cannot be scored as written
    WARNING = "warning"  # scorable, but probably not what the author meant


@dataclass(frozen=True)
class Problem:
    """``case_id`` is ``None`` for the file as a whole; ``field`` is a path like ``gold[0].provision``."""

    case_id: str | None
    field: str
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        where = self.case_id if self.case_id is not None else "suite"
        field = f" {self.field}:" if self.field else ""
        return f"{self.severity.value}: {where}:{field} {self.message}"
