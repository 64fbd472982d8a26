"""A token's sparse dimension: the first four bytes of its sha256, big-endian, below 2**31 (pure).

Documents, queries and both index adapters agree on it without a vocabulary. Read once per
distinct token (cached): a build meets the same few hundred thousand tokens millions of times.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache


@lru_cache(maxsize=1 << 17)  # about 15 MB held in the serving process
def token_index(token: str) -> int:
    """The sparse dimension of ``token``: first 4 bytes of sha256, big-endian, below 2**31."""
    return int.from_bytes(hashlib.sha256(token.encode("utf-8")).digest()[:4], "big") & 0x7FFF_FFFF
