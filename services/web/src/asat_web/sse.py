"""Server-sent events: an incremental parser for a stream read in arbitrary chunks, and the
formatter for events sent on (pure; the text/event-stream format of the HTML standard)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SseEvent:
    event: str
    data: str

    def json(self) -> dict[str, Any]:
        """The data as a JSON object; raises ``ValueError`` saying what arrived instead."""
        try:
            value = json.loads(self.data)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"event {self.event!r} carries data that is not JSON ({exc.msg}): {self.data[:80]!r}"
            ) from exc
        if not isinstance(value, dict):
            raise ValueError(f"event {self.event!r} carries JSON that is not an object: {self.data[:80]!r}")
        return value


def format_event(event: str, data: dict[str, Any]) -> str:
    """One event as text/event-stream text (the data is one line of JSON)."""
    if "\n" in event or "\r" in event or not event:
        raise ValueError(f"an event name must be one non-empty line, got {event!r}")
    return f"event: {event}\ndata: {json.dumps(data, default=str)}\n\n"


class SseParser:
    """Feed text as it arrives; get back the events completed so far.

    Lines end with LF, CR LF or CR; an empty line dispatches the event. ``event`` defaults to
    ``message``; several ``data`` lines are joined with LF; comments (``:``) and unknown fields
    are ignored; an event with no data is not dispatched.
    """

    def __init__(self) -> None:
        self._buffer = ""
        self._event = ""
        self._data: list[str] = []

    def feed(self, text: str) -> list[SseEvent]:
        self._buffer += text
        events: list[SseEvent] = []
        while True:
            cut = _line_end(self._buffer)
            if cut is None:
                break
            line, width = cut
            # A CR at the very end may be the first half of CR LF: wait for more text.
            if self._buffer[line] == "\r" and line + 1 == len(self._buffer):
                break
            self._take(self._buffer[:line], events)
            self._buffer = self._buffer[line + width :]
        return events

    def close(self) -> list[SseEvent]:
        """End of stream: a trailing event without its blank line is dropped (as browsers do)."""
        events: list[SseEvent] = []
        if self._buffer.endswith("\r"):
            self._take(self._buffer[:-1], events)
        self._buffer = ""
        self._event, self._data = "", []
        return events

    def _take(self, line: str, events: list[SseEvent]) -> None:
        if line == "":
            if self._data:
                events.append(SseEvent(self._event or "message", "\n".join(self._data)))
            self._event, self._data = "", []
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)


def _line_end(buffer: str) -> tuple[int, int] | None:
    """Index and width of the first line ending in ``buffer``."""
    for i, ch in enumerate(buffer):
        if ch == "\n":
            return i, 1
        if ch == "\r":
            return i, 2 if buffer[i + 1 : i + 2] == "\n" else 1
    return None
