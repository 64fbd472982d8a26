"""The Jinja2 environment: templates shipped in the package, autoescaped, strict about names."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from asat_accounts.permissions import Action
from asat_web import auth, labels
from asat_web.outcome import CitationView
from asat_web.question_marks import mark_words


def source_href(source_id: str, citation: CitationView | None = None, audit_id: int | None = None) -> str:
    """The source viewer's address; with a citation and its audit row, the quote is highlighted."""
    path = f"/source/{quote(source_id, safe=':@')}"
    if citation is None or audit_id is None:
        return path
    return f"{path}?{urlencode({'audit': audit_id, 'start': citation.start, 'end': citation.end})}"


def source_text_href(source_id: str) -> str:
    """The address of the version's whole text as an HTML fragment ("Show whole section")."""
    return f"{source_href(source_id)}/text"


def csrf_field() -> Markup:
    """The hidden field every form posting to this site carries (``asat_web.auth``)."""
    return Markup(f'<input type="hidden" name="{auth.CSRF_FIELD}" value="{escape(auth.csrf_token())}">')


def create_environment() -> Environment:
    env = Environment(
        loader=PackageLoader("asat_web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        source_href=source_href,
        source_text_href=source_text_href,
        decision_heading=labels.decision_heading,
        caveat_heading=labels.caveat_heading,
        interval=labels.interval,
        short_generation=labels.short_generation,
        stages=labels.STAGES,
        not_authorised=labels.NOT_AUTHORISED,
        mark_words=mark_words,
        csrf_token=auth.csrf_token,
        csrf_field=csrf_field,
        current_session=auth.current_session,
        may=auth.may,
        Action=Action,
    )
    return env


class Renderer:
    def __init__(self, env: Environment | None = None) -> None:
        self.env = env or create_environment()

    def render(self, template: str, **context: Any) -> str:
        return self.env.get_template(template).render(**context)
