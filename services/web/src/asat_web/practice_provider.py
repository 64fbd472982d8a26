"""The practice's own generation provider, for each research request (bring your own key).

A practice that saved a provider under Settings → Provider has its questions answered by it: every
research request the web makes for a signed-in user of that practice (the research form, the
stream relay, "Ask again", the answer across years) carries it as research's ``provider``
(``asat_corpus.contracts.provider.GenerationProvider``), the API key revealed from the accounts
store's sealed secret at request time, on the server only. The key is a ``SecretStr`` until
:meth:`~asat_corpus.contracts.provider.GenerationProvider.wire` writes the request body: it is in
no page, log line or ``repr``. A practice without a saved provider sends none, and research
answers with its own generator (the extractive one by default).

A saved provider whose key cannot be read (``ASAT_SECRET_KEY`` unset or changed) is refused (503)
rather than answered by another generator than the practice chose; saved settings research's
contract refuses are a 422 saying which, for an owner to correct.
"""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr, ValidationError

from asat_accounts.fields import PROVIDER_KEY_SECRET
from asat_accounts.secret_box import SecretDecryptError, SecretKeyError
from asat_accounts.store import AccountsStore
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.provider import GenerationProvider
from asat_web.auth import Refused

KEY_UNREADABLE = "Provider key unreadable"
PROVIDER_UNUSABLE = "Saved provider unusable"


def practice_provider(store: AccountsStore, practice_id: int) -> GenerationProvider | None:
    """The practice's saved provider with its key, or ``None`` when it saved none. Raises
    :class:`~asat_web.auth.Refused`: 503 when the key cannot be read, 422 when the saved settings
    are not a provider research takes. Reads the store: call it off the event loop."""
    saved = store.provider_settings(practice_id)
    if saved is None:
        return None
    key: SecretStr | None = None
    # Only a saved key is revealed: a provider without one (a local server) needs no ASAT_SECRET_KEY.
    if any(info.name == PROVIDER_KEY_SECRET for info in store.secrets(practice_id)):
        try:
            revealed = store.reveal_secret(practice_id, PROVIDER_KEY_SECRET)
        except (SecretKeyError, SecretDecryptError) as exc:
            raise Refused(
                503,
                KEY_UNREADABLE,
                f"Your practice's provider API key cannot be read ({exc}), so nothing was asked: research "
                "would otherwise answer with a provider other than the one your practice chose. An owner "
                "can save the key again under Settings → Provider.",
            ) from None
        if revealed is not None:
            key = SecretStr(revealed.reveal())
    try:
        settings = {"kind": saved.provider, "base_url": saved.base_url, "model": saved.model, "api_key": key}
        return GenerationProvider.model_validate(settings)
    except ValidationError as exc:
        raise Refused(
            422,
            PROVIDER_UNUSABLE,
            f"Your practice's saved provider cannot be used ({describe_validation_error(exc)}), so nothing was "
            "asked. An owner can correct it under Settings → Provider.",
        ) from None


def provider_field(provider: GenerationProvider | None) -> dict[str, Any]:
    """``{"provider": ...}`` for research's request body (the key revealed), or ``{}`` for none."""
    return {} if provider is None else {"provider": provider.wire()}
