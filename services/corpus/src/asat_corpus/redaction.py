"""Keeping credentials out of labels, identities and replies (pure).

``url_without_credentials`` drops a URL's ``user:password@`` and masks the values of query
parameters that carry secrets (``key``, ``api_key``, ``token``, ``secret``, ``password``, ``sig``...).
``redact_credentials`` does the same to any text, plus bearer tokens and API-key-shaped words
(``sk-...``, ``pat-...``), for error texts that may quote a URL or a header.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
SECRET_PARAMS = re.compile(r"(key|token|secret|password|passwd|pwd|sig|signature|auth|credential)", re.IGNORECASE)
_USERINFO = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.\-]*://)[^/\s@]+@")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]+")
_KEYLIKE = re.compile(r"\b(sk|pk|rk|pat|xox[abpr]|ghp|gho|github_pat)[-_][A-Za-z0-9_\-]{8,}")
_QUERY_SECRET = re.compile(
    r"(?i)([?&](?:[a-z_]*(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential)[a-z_]*)=)[^&\s#]+"
)


def url_without_credentials(url: str) -> str:
    """``url`` with no ``user:password@`` and with secret-looking query values masked."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return redact_credentials(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port is not None else "")
    query = urlencode(
        [(name, MASK if SECRET_PARAMS.search(name) else value) for name, value in parse_qsl(parts.query, True)],
        safe="*",
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_credentials(text: str) -> str:
    """``text`` with URL user-info, bearer/basic credentials, key-shaped words and secret query
    values masked."""
    text = _USERINFO.sub(lambda m: f"{m.group('scheme')}{MASK}@", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _KEYLIKE.sub(lambda m: f"{m.group(1)}-{MASK}", text)
    return _QUERY_SECRET.sub(lambda m: f"{m.group(1)}{MASK}", text)
