"""Statements about the client rather than the law (pure).

Both read the statements :func:`asat_research.premise.detection.detect_premise` returns (their
apostrophes already straight), and both start from the person the statement opens with:

- :data:`CLIENTS_CASE`: the client (or the agent) is the subject: "my client qualifies", "she is
  fine". Such a statement asserts nothing of the law, so it is neither rejected nor confirmed. "My
  client's speeding fines are deductible" is not one: its subject is the fines, and it asserts
  something of the law about them.
- :data:`CLIENT_FACTS`: also a statement of what the client has or did ("my client's company owns
  the house"): no query of its own finds the law, so it is not searched for apart from the question.
"""

from __future__ import annotations

import re

_OPENING = r"^\s*(?:my|our|the|her|his|their)?\s*"
_PERSON = r"she|he|i|we"

CLIENTS_CASE = re.compile(rf"{_OPENING}(?:client(?!'s)|clients(?!')|{_PERSON})\b", re.IGNORECASE)
"""The statement's subject is the client or the agent: it asserts nothing of the law."""

CLIENT_FACTS = re.compile(rf"{_OPENING}(?:client(?:'s|s)?|clients'|{_PERSON})\b", re.IGNORECASE)
"""The statement is about the client's own case or what the client has: no search query of its own."""
