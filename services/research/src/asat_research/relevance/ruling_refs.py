"""The provisions an ATO public ruling cites, read from its "Legislative References" (pure).

Rulings (TR, TD, GSTR, IT, TA, PCG, LCG, MT, PS LA, SGR) list their references one a line in the
ATO's abbreviated form: ``ITAA 1936 6(1)(b)``, ``ANTS(GST)A99 9-75(1)``, ``TAA 1953 Sch 1 12-35``,
``ITAA 1997 Div 40``. Taxpayer Alerts name the Act on a line of its own and list its provisions
under it (``Income Tax Assessment Act 1997`` then ``Section 8-1``), and a few write ``Part IVA of
the ITAA 1936``. Each reference becomes a :class:`LegislativeRef`: the section it sits in
(``6``, ``9-75``, ``sch1-12-35``) and, where given, its subsection label (``(1)``); a Part,
Division, Subdivision or Schedule, or a bare Act, has no section. An Act the corpus does not hold
keeps its name and no slug. Old IT rulings cite the ITAA 1936 as plain ``ITAA`` or name no Act at
all; pass ``assumed_act="ITAA 1936"`` to read a block whose lines name no Act.
"""

from __future__ import annotations

import re

from asat_research.relevance.legislative_refs import LegislativeRef

_S = r"\s*"


def _ants(inner: str, year: str = "99") -> str:
    """``ANTS(GST)A 1999``, ``ANTS (GST) Act 1999``, ``ANTS(GST)A99``, ``ANTS(GST)A``, ``ANTS(GST) 1999``."""
    yy = rf"(?:19)?{year}(?!\d)"
    return rf"ANTS{_S}\({_S}{inner}{_S}\)?{_S}(?:A(?:ct)?(?![a-z]){_S}(?:{yy})?|{yy})"


# Abbreviations and titles of the Acts the corpus holds, tried in order at the start of a line.
_HELD: tuple[tuple[str, str], ...] = (
    ("itaa1997", r"ITAA\s*1997|Income\s+Tax\s+Ass?essment\s+Act\s+1997"),
    ("itaa1936", r"ITAA\s*(?:19)?36(?!\d)|Income\s+Tax\s+Ass?essment\s+Act\s+1936(?!-)"),
    ("itaa1953", r"ITAA\s*1953|International\s+Tax\s+Agreements\s+Act\s+1953"),
    ("itaa1936", r"ITAA(?![a-z(]|\s*\d{4})"),  # the IT rulings' "ITAA 51(1)"
    ("taa1953", r"TAA(?:\s*1953)?(?![a-z(])|Tax(?:ation)?\s+Administration\s+Act\s+1953"),
    (
        "gstadmin1999",
        _ants("GSTA") + r"|A\s+New\s+Tax\s+System\s+\(Goods\s+and\s+Services\s+Tax\s+Administration\)\s+Act\s+1999",
    ),
    (
        "gst1999",
        _ants("GST")
        + r"|GSTA\s*1999|GST\s+Act(?:\s+1999)?(?!\s*\d{4})"
        + r"|A\s+New\s+Tax\s+System\s+\((?:Goods\s+and\s+Services\s+Tax|GST)\)\s+Act\s+1999",
    ),
    (
        "wet1999",
        _ants("WET") + r"|WET\s+Act(?!\s*\d{4})|A\s+New\s+Tax\s+System\s+\(Wine\s+Equalisation\s+Tax\)\s+Act\s+1999",
    ),
    ("lct1999", _ants("LCT") + r"|LCT\s+Act(?!\s*\d{4})|A\s+New\s+Tax\s+System\s+\(Luxury\s+Car\s+Tax\)\s+Act\s+1999"),
    ("abn1999", _ants("ABN") + r"|A\s+New\s+Tax\s+System\s+\(Australian\s+Business\s+Number\)\s+Act\s+1999"),
    ("fbtaa1986", r"FBTAA\s*1986|Fringe\s+Benefits\s+(?:Tax\s+)?Assessment\s+Act\s+1986"),
    ("fbta1986", r"FBTA\s*1986|Fringe\s+Benefits\s+Tax\s+Act\s+1986"),
    ("fta2006", r"FTA\s*2006|Fuel\s+Tax\s+Act\s+2006"),
    (
        "ittpa1997",
        r"IT\s*\(\s*TP\s*\)\s*A(?:ct)?(?![a-z])(?:\s*1997)?|ITTPA\s*1997"
        r"|Income\s+Tax\s+\(Transitional\s+Provisions\)\s+Act\s+1997",
    ),
    ("itra1986", r"ITRA\s*1986|Income\s+Tax\s+Rates\s+Act\s+1986"),
    ("ita1986", r"ITA\s*1986|Income\s+Tax\s+Act\s+1986"),
    ("sgaa1992", r"SGAA\s*1992|Superannuation\s+Guarantee\s+\(Administration\)\s+Act\s+1992"),
    ("sis1993", r"SISA?\s*1993|Superannuation\s+Industry\s+\(Supervision\)\s+Act\s+1993"),
    (
        "smsflevy1991",
        r"Superannuation\s+\(Self\s+Managed\s+Superannuation\s+Funds\)\s+Supervisory\s+Levy\s+Imposition\s+Act\s+1991",
    ),
    ("smsftax1987", r"Superannuation\s+\(Self\s+Managed\s+Superannuation\s+Funds\)\s+Taxation\s+Act\s+1987"),
)
_HELD_AT_START = tuple((slug, re.compile(rf"(?:{pattern})(?![\w-])", re.IGNORECASE)) for slug, pattern in _HELD)
_HELD_AT_END = tuple(
    (slug, re.compile(rf"\s+(?:of\s+(?:the\s+)?)?(?P<act>{pattern})\s*$", re.IGNORECASE)) for slug, pattern in _HELD
)
# An Act, Regulation, Bill etc. the corpus does not hold: a title ending in a year, or an abbreviation.
_OTHER_ACT = re.compile(
    r"(?P<name>(?:.*\b(?:Act|Regulations?|Regs?|Bill|Determination|Rules?|Code)\b\D*?(?:18|19|20)\d\d"
    r"|[A-Z]+\s*\([A-Z &]+\)\s*[A-Z][a-z]*(?:\d\d|\s*(?:19|20)\d\d)?(?=\s|$)"
    r"|[A-Z][\w()&.,' -]*?(?:(?:18|19|20)\d\d|(?<=[A-Z)])\d\d(?=\s|$)))"
    r"(?:-\d{2,4})?(?:\s*\([A-Za-z]{2,3}\))?)(?!\d)"
)
_BULLET = re.compile(r"^[-•*–]\s*")
_STRUCTURAL = re.compile(
    r"(?:Pt|Part|Div|Division|Sub-?div|Sub-?division|Ch|Chapter|Sch|Schedule)(?![a-z])", re.IGNORECASE
)
_FORMER = re.compile(r"^former\s+", re.IGNORECASE)
_SCHEDULE_1 = re.compile(r"Sch(?:edule)?\.?\s*1(?!\d)[,\s]*", re.IGNORECASE)
_KEYWORD = re.compile(
    r"(?:sub-?)?(?:sections?|paragraphs?|para|s|ss)\.?\s+(?=\d)|(?:sub-?)?sections?(?=\d)", re.IGNORECASE
)
SECTION_NUMBER = re.compile(r"\d{1,4}[A-Z]{0,6}(?:-\d{1,4}[A-Z]{0,4})?(?:\.\d{1,3}[A-Z]{0,3})?")
_SECTION = re.compile(
    rf"(?P<number>{SECTION_NUMBER.pattern})(?![\w-])(?P<label>\(\d{{1,3}}[A-Z]{{0,3}}\))?", re.IGNORECASE
)
_HEADING = re.compile(
    r"(?:(?:Case|Other|Subject|ATO)\s+references|Related\b|Keywords|Business\s+Line|Date\s+of|Authorised\s+by"
    r"|Cases\s+relied|Contact\s+officer)",
    re.IGNORECASE,
)
_BLOCK_START = re.compile(r"Legislative\s+References:", re.IGNORECASE)


def ruling_references_block(text: str) -> str:
    """The lines of the ruling's "Legislative References:" block ("" when it has none)."""
    start = _BLOCK_START.search(text)
    if start is None:
        return ""
    lines: list[str] = []
    for line in text[start.end() :].splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.endswith(":") or _HEADING.match(stripped):
            break
        lines.append(stripped)
    return "\n".join(lines)


def _held_act(line: str) -> tuple[str, str, str] | None:
    """(slug, the Act as written, the rest of the line) where the line names a held Act."""
    for slug, pattern in _HELD_AT_START:
        match = pattern.match(line)
        if match is not None:
            return slug, " ".join(match.group(0).split()), line[match.end() :].strip()
    for slug, pattern in _HELD_AT_END:  # "Part IVA of the ITAA 1936"
        match = pattern.search(line)
        if match is not None and _is_provision(line[: match.start()]):
            return slug, " ".join(match.group("act").split()), line[: match.start()].strip()
    return None


def _is_provision(text: str) -> bool:
    return bool(text) and (text[0].isdigit() or _STRUCTURAL.match(text) is not None or _KEYWORD.match(text) is not None)


def _section(slug: str | None, provision: str) -> tuple[str | None, str | None]:
    """The (section, subsection label) a provision sits in; (None, None) for a Part, Division etc."""
    schedule_1 = _SCHEDULE_1.match(provision)
    if schedule_1 is not None and slug == "taa1953":  # "Sch 1 12-35": the number says Schedule 1
        provision = provision[schedule_1.end() :]
    if _STRUCTURAL.match(provision) is not None:
        return None, None
    provision = _FORMER.sub("", provision)  # "former 51(1)": a repealed section keeps its number
    keyword = _KEYWORD.match(provision)
    if keyword is not None:
        provision = provision[keyword.end() :]
    match = _SECTION.match(provision)
    if match is None:
        return None, None
    number = match.group("number").upper()
    if slug == "taa1953" and "-" in number:  # hyphenated TAA 1953 sections are Schedule 1's
        number = f"sch1-{number}"
    label = match.group("label")
    return number, label.upper() if label else None


def parse_ruling_references(block: str, assumed_act: str | None = None) -> tuple[LegislativeRef, ...]:
    """Every reference of the block, one per (Act, section, label), in order.

    A line that names no Act belongs to the Act last named, or (before any, or after a line that is
    no Act) to ``assumed_act``.
    """
    assumed: tuple[str | None, str] | None = None
    if assumed_act is not None:
        held = _held_act(assumed_act)
        assumed = (held[0], held[1]) if held is not None and not held[2] else (None, assumed_act)
    current = assumed  # (slug, name) of the Act last named
    found: dict[tuple[str, str | None, str | None], LegislativeRef] = {}
    slug: str | None
    for raw in block.splitlines():
        line = _BULLET.sub("", " ".join(raw.split()))
        held = _held_act(line)
        if held is not None:
            slug, name, provision = held
            current = (slug, name)
        elif _is_provision(line):
            if current is None:
                continue
            (slug, name), provision = current, line
        else:
            other = _OTHER_ACT.match(line)
            if other is None:  # a treaty article, a regulation without a year: nothing the sections belong to
                current = assumed
                continue
            slug, name, provision = None, other.group("name").strip(), line[other.end() :].strip()
            current = (slug, name)
        number, label = _section(slug, provision)
        key = (slug or name, number, label)
        found.setdefault(key, LegislativeRef(name, slug, number, label))
    return tuple(found.values())
