"""Tested docs: every command in a shell block of README.md and docs/*.md is classified and, where
it can run offline, run (issue 15 item 5).

Each fenced block names its language. In a ``sh``/``bash``/``shell`` block every line (joined
over ``\\`` continuations, comments dropped) is a command; in a ``console`` block, the lines that
start with ``$ ``. Each command is classified by the first rule of :data:`RULES` whose pattern it
matches:

- ``run``: run as written from the repository root (optional ``[...]`` parts left out, plus the
  rule's extra arguments), with a timeout; it must exit 0;
- ``help``: it needs what a test does not have (the running stack, the database, minutes of
  parsing); its program's ``--help`` must exit 0 and name every ``--option`` the docs show;
- ``skip``: nothing to run here; the reason says why and what covers it instead.

A command no rule matches fails the test with a message saying to classify it here.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHELL = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^\s*```(?P<lang>[^`\s]*)\s*$")
OPTIONAL = re.compile(r"\s*\[[^\[\]]*\]")
LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")

RUN, HELP, SKIP = "run", "help", "skip"


@dataclass(frozen=True)
class Rule:
    pattern: str  # re.search against the command as the docs show it
    kind: str  # run | help | skip
    reason: str
    extra: tuple[str, ...] = ()  # arguments added when run (to keep a run short)
    inside: str = ""  # a prefix (regex) to drop: the command it wraps is the one checked
    timeout_s: float = 30.0


RULES: tuple[Rule, ...] = (
    # --- run ------------------------------------------------------------------------------
    Rule(r"^make status$", RUN, "reads the pid files and health checks; exits 0 whatever is running"),
    Rule(
        r"scripts/bench_verifier\.py",
        RUN,
        "the verifier in process, no network; two timed runs instead of the default 50",
        extra=("--runs", "2", "--warmup", "0"),
        timeout_s=60,
    ),
    # --- help: the program exists and takes every option shown -------------------------------
    Rule(
        r"-m asat_corpus (stats|show|versions|diff|audit-dates)\b",
        HELP,
        "parses and dates the whole corpus: minutes on 2 shared cores with a cold parse cache, "
        "which any change to asat_corpus invalidates (services/corpus/tests run the same code)",
    ),
    Rule(r"-m asat_research\.eval_cli\b", HELP, "runs the suite against the running stack (make eval)"),
    Rule(
        r"-m asat_ingest\.distill_static\b",
        HELP,
        "rewrites models/static-minilm (a minute); services/ingest/tests/test_distill_static.py distils a slice",
    ),
    Rule(
        r"-m asat_ingest\.fit_static\b",
        HELP,
        "rewrites models/static-corpus from MiniLM's vectors of the whole corpus (ten minutes with the vector cache "
        "full); services/ingest/tests/test_fit_static.py fits planted tables and serves what it writes",
    ),
    Rule(r"-m asat_research\.eval_compare\b", HELP, "compares two eval runs that make eval writes under var/eval/"),
    Rule(
        r"scripts/calibrate_gate_cv\.py\b",
        HELP,
        "runs every case of the suite in process against the running index and verifier (about 35 s)",
    ),
    Rule(
        r"-m asat_accounts (migrate|first-owner-hint|create-owner|generate-key|rotate-key|reencrypt)\b",
        HELP,
        "needs the Postgres accounts schema (make up) or writes a key; services/accounts/tests/test_cli.py runs them",
    ),
    Rule(
        r"-m asat_audit (migrate|verify|show|keygen|checkpoint|checkpointer)\b",
        HELP,
        "needs the Postgres audit database (make up); services/audit/tests/test_postgres_checkpoints.py runs them",
    ),
    Rule(
        r"-m asat_extraction extract\b",
        HELP,
        "reads documents the docs only name (seconds each through OCR); services/extraction/tests/test_cli.py "
        "runs it on generated ones",
    ),
    Rule(r"-m asat_extraction serve$", HELP, "serves until stopped and needs Postgres (make up starts it)"),
    Rule(
        r"-m asat_extraction migrate\b",
        HELP,
        "needs Postgres as the owner role (make up runs it); services/extraction/tests/test_migrate.py runs it",
    ),
    Rule(
        r"scripts/make_extraction_set\.py",
        HELP,
        "renders 160 PDFs, scans and emails (minutes); services/extraction/tests/test_synthetic.py renders a few",
    ),
    Rule(r"scripts/bench_extraction\.py", HELP, "needs the synthetic set, and minutes of OCR"),
    Rule(
        r"scripts/fuzz_counts\.py",
        HELP,
        "fuzzes every service in process for minutes, and needs the corpus, Postgres and Tesseract; the "
        "services' test_openapi_fuzz.py tests run the same builders",
    ),
    Rule(
        r"scripts/load_research\.py", HELP, "drives the running stack (make up) for minutes; tests/load runs the driver"
    ),
    Rule(
        r"scripts/chaos\.py",
        HELP,
        "kills and restarts the running stack's services (minutes); tests/load/test_chaos_verdict.py checks its verdict",
    ),
    Rule(
        r"scripts/bench_cold_start\.py",
        HELP,
        "clones, installs and builds the whole index from empty caches (many minutes)",
    ),
    Rule(r"scripts/bench_first_stage\.py", HELP, "searches the whole index in process for every suite case"),
    Rule(
        r"scripts/bench_static_split\.py",
        HELP,
        "reads MiniLM's vectors of the whole scope from the cache a MiniLM build leaves, and times MiniLM "
        "per length bucket; services/ingest/tests/test_corpus_static_embedder.py tests the split it measures",
    ),
    Rule(r"scripts/bench_premise\.py", HELP, "reads every Interpretative Decision and scores 484 statements (minutes)"),
    Rule(
        r"-m asat_research\.premise\.train_cli train",
        HELP,
        "trains the contradiction model from the whole corpus (a minute or more); tests/premise train a tiny one",
    ),
    Rule(
        r"scripts/bench_index\.py --profile",
        HELP,
        "parses the corpus and embeds samples with every setting (minutes); tests/bench checks its pure parts",
    ),
    Rule(
        r"schemathesis run http://127\.0\.0\.1",
        HELP,
        "fuzzes a running verifier for two minutes (services/verifier/tests run it in process)",
    ),
    Rule(
        r"^docker compose -f docker-compose\.dev\.yml exec research python -m asat_research\.(ask|provider_probe)\b",
        HELP,
        "runs inside the research container (Docker); the command it runs there is checked here",
        inside=r"^docker compose (-f \S+ )+exec \S+ ",
    ),
    # --- skip ---------------------------------------------------------------------------------
    Rule(r"(^|\s)make up$", SKIP, "starts every service (tests/stack/test_make_up.py runs it on free ports)"),
    Rule(r"^make down$", SKIP, "stops the services someone else started"),
    Rule(r"^make test$", SKIP, "the whole test suite, which runs this test"),
    Rule(r"^make eval$", SKIP, "the suite against the running stack"),
    Rule(r"^make models$", SKIP, "retrains the ranker against the running index (minutes)"),
    Rule(
        r"^make static-embedder$",
        SKIP,
        "rewrites models/static-minilm (a minute); services/ingest/tests/test_distill_static.py distils a slice",
    ),
    Rule(r"^docker compose ", SKIP, "needs Docker and the images (tests/deploy checks the compose files)"),
    Rule(r"-m asat_verifier &$", SKIP, "starts the verifier server in the background"),
    Rule(
        r"^curl .*http://127\.0\.0\.1:8750/",
        SKIP,
        "needs the extraction service running (make up); services/extraction/tests/test_api.py covers the routes",
    ),
    Rule(r"^\.venv/bin/pytest tests/deploy$", SKIP, "a test suite of its own, which make test runs"),
    Rule(
        r"^(ASAT_[A-Z_]+=\S+ )*\.venv/bin/pytest -q services/[a-z]+/tests/test_openapi_fuzz\.py$",
        SKIP,
        "a fuzz test of the suite, which make test runs",
    ),
)


@dataclass(frozen=True)
class DocCommand:
    where: str  # file:line
    text: str  # as the docs show it, comments dropped, continuations joined

    def rule(self) -> Rule | None:
        return next((rule for rule in RULES if re.search(rule.pattern, self.text)), None)


def _blocks(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line of the opening fence, language, lines) of every fenced block."""
    blocks: list[tuple[int, str, list[str]]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
            end += 1
        blocks.append((index + 1, opening.group("lang"), lines[index + 1 : end]))
        index = end + 1
    return blocks


def _without_comment(line: str) -> str:
    """The line up to a ``#`` that starts a shell comment (not one inside quotes or a word)."""
    quote: str | None = None
    for position, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (position == 0 or line[position - 1].isspace()):
            return line[:position].rstrip()
    return line.rstrip()


def _commands(path: str, fence: int, lang: str, lines: list[str]) -> list[DocCommand]:
    """The commands of the block whose opening fence is on line ``fence`` of ``path``."""
    commands: list[DocCommand] = []
    pending, first = "", 0
    for number, raw in enumerate(lines, start=fence + 1):
        if lang == "console":
            if not raw.startswith("$ ") and not pending:
                continue
            raw = raw.removeprefix("$ ")
        line = _without_comment(raw)
        first = first or number
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        text = (pending + line.strip()).strip()
        if text:
            commands.append(DocCommand(f"{path}:{first}", re.sub(r"\s+", " ", text)))
        pending, first = "", 0
    return commands


def doc_files() -> list[Path]:
    return [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]


def doc_commands() -> list[DocCommand]:
    found: list[DocCommand] = []
    for path in doc_files():
        for line, lang, lines in _blocks(path):
            if lang in SHELL:
                found.extend(_commands(str(path.relative_to(REPO_ROOT)), line, lang, lines))
    return found


def _argv(text: str, extra: tuple[str, ...] = ()) -> tuple[dict[str, str], list[str]]:
    """The environment assignments and argv of a command, optional ``[...]`` parts left out."""
    words = shlex.split(OPTIONAL.sub("", text))
    env: dict[str, str] = {}
    while words and ENV_ASSIGNMENT.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if words and words[0] in ("python", "python3", ".venv/bin/python"):
        words[0] = sys.executable
    elif words and words[0].startswith(".venv/bin/"):
        words[0] = str(Path(sys.executable).parent / words[0].removeprefix(".venv/bin/"))
    elif words and words[0].startswith("scripts/"):
        words.insert(0, sys.executable)
    return env, [*words, *extra]


def _run(argv: list[str], env: dict[str, str], timeout_s: float) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    return subprocess.run(
        argv, cwd=REPO_ROOT, env=environment, capture_output=True, text=True, timeout=timeout_s, check=False
    )


@functools.cache
def _help(program: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    return _run([*program, "--help"], {}, 60)


def _program(argv: list[str]) -> tuple[str, ...]:
    """The program and its subcommand: the words before the first option or argument value."""
    words: list[str] = []
    for word in argv:
        if word.startswith("-") and word != "-m":
            break
        script = len(words) == 1 and word.endswith(".py")  # the interpreter's script, not an argument
        if words and words[-1] != "-m" and ("/" in word or ":" in word) and not word.startswith("asat") and not script:
            break  # a path or URL argument
        words.append(word)
    return tuple(words)


COMMANDS = doc_commands()


def test_every_fenced_block_names_its_language() -> None:
    unnamed = [
        f"{path.relative_to(REPO_ROOT)}:{line}" for path in doc_files() for line, lang, _ in _blocks(path) if not lang
    ]
    assert unnamed == [], (
        f"name the language of these fenced blocks (sh for commands, text for output): {unnamed}; "
        "a shell block's commands are then classified and run by tests/test_doc_commands.py"
    )


def test_a_block_is_read_as_a_shell_would_read_it() -> None:
    block = [
        "# a comment line",
        "ASAT_X=1 .venv/bin/python -m asat_corpus audit-dates [--years 2016-2026] \\",
        "    --json   # trailing comment",
        'python -m asat_research.ask "what is # not a comment?"',
    ]
    commands = _commands("doc.md", 10, "sh", block)
    assert [(c.where, c.text) for c in commands] == [
        ("doc.md:12", "ASAT_X=1 .venv/bin/python -m asat_corpus audit-dates [--years 2016-2026] --json"),
        ("doc.md:14", 'python -m asat_research.ask "what is # not a comment?"'),
    ]
    env, argv = _argv(commands[0].text)
    assert env == {"ASAT_X": "1"} and argv == [sys.executable, "-m", "asat_corpus", "audit-dates", "--json"]
    assert _program(argv) == (sys.executable, "-m", "asat_corpus", "audit-dates")
    _, script = _argv("scripts/bench_extraction.py --set var/extraction-set [--json]")
    assert _program(script) == (sys.executable, "scripts/bench_extraction.py")
    assert [c.text for c in _commands("doc.md", 1, "console", ["$ make status", "output", "$ make up"])] == [
        "make status",
        "make up",
    ]
    assert DocCommand("doc.md:1", "make something-new").rule() is None  # unclassified: test_doc_command fails


def test_the_docs_hold_commands_of_every_kind() -> None:
    kinds = {rule.kind for command in COMMANDS if (rule := command.rule()) is not None}
    assert kinds == {RUN, HELP, SKIP}, kinds
    assert len(COMMANDS) >= 15


def test_every_rule_still_matches_a_command() -> None:
    unused = [rule.pattern for rule in RULES if not any(re.search(rule.pattern, c.text) for c in COMMANDS)]
    assert unused == [], f"these rules match no command in the docs any more; remove them: {unused}"


@pytest.mark.parametrize("command", COMMANDS, ids=[c.where for c in COMMANDS])
def test_doc_command(command: DocCommand) -> None:
    rule = command.rule()
    assert rule is not None, (
        f"{command.where}: `{command.text}` is not classified. Add a rule to RULES in "
        "tests/test_doc_commands.py: run (offline, a few seconds, exits 0), help (needs the running "
        "stack, the database or minutes of work: its --help is checked) or skip, with the reason."
    )
    if rule.kind == SKIP:
        pytest.skip(f"{command.text}: {rule.reason}")
    text = re.sub(rule.inside, "", command.text) if rule.inside else command.text
    env, argv = _argv(text, rule.extra if rule.kind == RUN else ())
    if rule.kind == RUN:
        done = _run(argv, env, rule.timeout_s)
        assert done.returncode == 0, (
            f"{command.where}: `{command.text}` exited {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
        return
    program = _program(argv)
    shown = _help(program)
    assert shown.returncode == 0, f"`{' '.join(program)} --help` exited {shown.returncode}: {shown.stderr[-2000:]}"
    missing = [option for option in LONG_OPTION.findall(text) if option not in shown.stdout]
    assert missing == [], f"{command.where}: `{command.text}` shows options its --help lacks: {missing}"
