"""What a parser could not parse, reported instead of silently dropped."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_EXAMPLES = 20


class CorpusFileError(Exception):
    """A source file is malformed or truncated; the message names the file and line."""

    def __init__(self, file: str, line: int, problem: str) -> None:
        super().__init__(f"{file}:{line}: {problem}")
        self.file = file
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class Unparsed:
    file: str
    line: int
    reason: str
    excerpt: str


@dataclass
class ParseReport:
    """Counts and examples of what one parser run skipped, by reason."""

    source: str  # register id or "rulings"
    items_parsed: int = 0
    unparsed_count: int = 0
    examples: list[Unparsed] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # whole files that failed (CorpusFileError text)

    def skip(self, file: str, line: int, reason: str, excerpt: str) -> None:
        self.unparsed_count += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(Unparsed(file, line, reason, excerpt[:160]))

    def fail(self, error: CorpusFileError) -> None:
        self.errors.append(str(error))
