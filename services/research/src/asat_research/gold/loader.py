"""Reading a suite file and checking it against the ``asat-gold/1`` schema.

``read_yaml`` is the only I/O; ``check_document`` and ``parse_suite`` are pure over the parsed
document. Every problem names the case (by its id, or ``cases[i]`` when it has none) and the
field, so a suite author can fix all of them in one pass.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from asat_research.gold.models import PROVISION_TAG, RULING_TAG, SCHEMA_ID, GoldCase, GoldSuite
from asat_research.gold.problem import Problem, Severity

_SHOWN = 20


class GoldSuiteError(ValueError):
    """The suite cannot be used as written; ``problems`` lists everything found."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        shown = "\n  ".join(str(p) for p in problems[:_SHOWN])
        more = f"\n  ... and {len(problems) - _SHOWN} more" if len(problems) > _SHOWN else ""
        super().__init__(
            f"{source}: {len(problems)} problem(s) in this {SCHEMA_ID} suite (see gold-set-schema.md):\n  {shown}{more}"
        )


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a key given twice in one mapping (YAML would keep the last)."""


def _construct_unique_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: dict[Hashable, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, Hashable) and key in seen:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping",
                node.start_mark,
                f"key {key!r} is given twice (first on line {seen[key] + 1}); keep one",
                key_node.start_mark,
            )
        if isinstance(key, Hashable):
            seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def read_yaml(path: Path) -> object:
    """The YAML document in ``path``; raises :class:`GoldSuiteError` if it cannot be read or parsed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GoldSuiteError(str(path), [Problem(None, "", f"cannot read the file: {error}")]) from error
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass
    except yaml.YAMLError as error:
        raise GoldSuiteError(str(path), [Problem(None, "", f"not valid YAML: {error}")]) from error


def _field(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if part in (PROVISION_TAG, RULING_TAG):
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _message(error: Mapping[str, Any]) -> str:
    kind = error.get("type", "")
    message = str(error.get("msg", "invalid"))
    if message.startswith("Value error, "):
        return message.removeprefix("Value error, ")
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        loc = error.get("loc", ())
        if len(loc) == 1:
            return f"unknown field; a case has only: {', '.join(GoldCase.model_fields)}"
        return "unknown field; an authority is {act, provision[, register_id]} or {ruling}"
    return f"{message} (got {error.get('input')!r})"


def _case_label(raw: object, index: int) -> str:
    if isinstance(raw, Mapping):
        case_id = raw.get("id")
        if isinstance(case_id, str | int) and not isinstance(case_id, bool) and str(case_id).strip():
            return str(case_id)
    return f"cases[{index}]"


def _case_problems(raw: object, index: int) -> list[Problem]:
    label = _case_label(raw, index)
    if not isinstance(raw, Mapping):
        return [Problem(label, "", f"a case must be a mapping of fields, got {type(raw).__name__}")]
    try:
        GoldCase.model_validate(raw)
    except ValidationError as error:
        return [Problem(label, _field(tuple(e["loc"])), _message(e)) for e in error.errors()]
    return []


def check_document(document: object) -> tuple[GoldSuite | None, list[Problem]]:
    """Schema problems of a parsed document, and the suite when there are none (pure)."""
    if not isinstance(document, Mapping):
        return None, [
            Problem(
                None,
                "",
                f"the file must be a mapping with `schema: {SCHEMA_ID}` and `cases:` (got {type(document).__name__})",
            )
        ]
    problems: list[Problem] = []
    if document.get("schema") != SCHEMA_ID:
        problems.append(Problem(None, "schema", f"must be {SCHEMA_ID!r} (got {document.get('schema')!r})"))
    for key in document:
        if key not in ("schema", "cases"):
            problems.append(Problem(None, str(key), "unknown top-level field; a suite has only `schema` and `cases`"))
    cases = document.get("cases")
    if not isinstance(cases, list) or not cases:
        problems.append(Problem(None, "cases", "must be a non-empty list of cases"))
        return None, problems
    first_index: dict[str, int] = {}
    for index, raw in enumerate(cases):
        problems.extend(_case_problems(raw, index))
        case_id = raw.get("id") if isinstance(raw, Mapping) else None
        if isinstance(case_id, str):
            if case_id in first_index:
                problems.append(
                    Problem(case_id, "id", f"duplicate id: cases[{first_index[case_id]}] and cases[{index}] share it")
                )
            else:
                first_index[case_id] = index
    if any(p.severity is Severity.ERROR for p in problems):
        return None, problems
    return GoldSuite.model_validate(document), problems


def parse_suite(document: object, source: str = "<suite>") -> GoldSuite:
    """The suite in ``document``; raises :class:`GoldSuiteError` naming every problem."""
    suite, problems = check_document(document)
    if suite is None:
        raise GoldSuiteError(source, problems)
    return suite


def load_suite(path: Path | str) -> GoldSuite:
    """Read and check a suite file; raises :class:`GoldSuiteError` naming every problem."""
    path = Path(path)
    return parse_suite(read_yaml(path), str(path))
