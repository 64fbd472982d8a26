"""A request's own API key, taken out of a text that may quote it (pure).

A provider's error message can echo the key it was sent. The key is replaced where it stands as a
token of its own: not inside a longer word, so that a short key ("i", "fail") cannot rewrite the
words around it ("skipped", "failed") while a key the text quotes is always replaced (a real key
quoted in a message stands between spaces, quotes, ``=`` or ``:``).
"""

from __future__ import annotations

import re

KEY_SHOWN_AS = "[the API key]"
_WORD = r"A-Za-z0-9_\-"


def without_key(text: str, key: str) -> str:
    """``text`` with each standalone occurrence of ``key`` replaced by ``KEY_SHOWN_AS``."""
    if not key:
        return text
    return re.sub(rf"(?<![{_WORD}]){re.escape(key)}(?![{_WORD}])", KEY_SHOWN_AS, text)
