"""OAuth 2.0 authorisation-code flow rules: PKCE (RFC 7636, S256) and the ``state`` parameter.

The verifier and the state are random (``random_bytes`` is injected; ``os.urandom`` by default).
Only the state's SHA-256 digest is stored while the browser is at the provider (as the web's
session tokens are), and the callback's state is compared with it in constant time; the verifier
is sealed as a secret and sent once, to the token endpoint.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import urlencode

RandomBytes = Callable[[int], bytes]

VERIFIER_BYTES = 32  # 43 characters of base64url: RFC 7636's minimum length, 256 bits
STATE_BYTES = 32
_VERIFIER = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")
_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_code_verifier(random_bytes: RandomBytes = os.urandom) -> str:
    """A PKCE code verifier: 32 random bytes as unpadded base64url (43 characters)."""
    material = random_bytes(VERIFIER_BYTES)
    if len(material) != VERIFIER_BYTES:
        raise ValueError(f"the random source gave {len(material)} bytes, not {VERIFIER_BYTES}")
    return _b64url(material)


def verifier_is_valid(verifier: str) -> bool:
    """RFC 7636 section 4.1: 43 to 128 characters of ``[A-Za-z0-9-._~]``."""
    return bool(_VERIFIER.match(verifier))


def code_challenge(verifier: str) -> str:
    """The S256 challenge of ``verifier``: ``BASE64URL(SHA256(ASCII(verifier)))``, unpadded."""
    if not verifier_is_valid(verifier):
        raise ValueError("a PKCE code verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
    return _b64url(hashlib.sha256(verifier.encode("ascii")).digest())


def new_state(random_bytes: RandomBytes = os.urandom) -> str:
    """An unguessable ``state``: 32 random bytes as unpadded base64url."""
    material = random_bytes(STATE_BYTES)
    if len(material) != STATE_BYTES:
        raise ValueError(f"the random source gave {len(material)} bytes, not {STATE_BYTES}")
    return _b64url(material)


def state_digest(state: str) -> str:
    """What is stored of a ``state``: its SHA-256, hex."""
    return hashlib.sha256(state.encode("utf-8")).hexdigest()


def state_matches(state: str, digest: str) -> bool:
    """Whether ``state`` is the one ``digest`` was made from (constant-time comparison)."""
    if not _DIGEST.match(digest):
        return False
    return hmac.compare_digest(state_digest(state), digest)


def authorize_url(
    endpoint: str, client_id: str, redirect_uri: str, scopes: Sequence[str], state: str, challenge: str
) -> str:
    """The provider's authorisation URL for the code flow with PKCE (S256)."""
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": " ".join(scopes),
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    return f"{endpoint}?{query}"


def callback_problem(params: Mapping[str, str]) -> str | None:
    """Why a callback's query cannot complete the flow (the provider's ``error``, or no ``code`` or
    ``state``); None when it has both."""
    error = params.get("error", "").strip()
    if error:
        described = params.get("error_description", "").strip()
        if error == "access_denied":
            return "consent was not given at the provider (access_denied): connect again and choose Allow access"
        detail = f" ({described[:200]})" if described else ""
        return f"the provider answered {error[:60]}{detail}: connect again; check the app's redirect URI if it repeats"
    missing = [name for name in ("code", "state") if not params.get(name, "").strip()]
    if missing:
        return f"the callback lacks {' and '.join(missing)}: start connecting again from Settings → Connections"
    return None
