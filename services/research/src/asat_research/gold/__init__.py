"""Evaluation suites in the ``asat-gold/1`` format: models, loader and validation.

The format is described in ``gold-set-schema.md``. :func:`load_suite` reads a file and refuses
an invalid one with every problem named by case id and field; :func:`validate_suite` also checks
every gold authority against the corpus through an :class:`AuthorityResolver`.
"""

from asat_research.gold.corpus_resolver import CorpusResolver
from asat_research.gold.loader import GoldSuiteError, check_document, load_suite, parse_suite, read_yaml
from asat_research.gold.models import SCHEMA_ID, Authority, Expect, GoldCase, GoldSuite, ProvisionRef, RulingRef
from asat_research.gold.problem import Problem, Severity
from asat_research.gold.validation import AuthorityLookup, AuthorityResolver, CaseDate, validate_suite

__all__ = [
    "SCHEMA_ID",
    "Authority",
    "AuthorityLookup",
    "AuthorityResolver",
    "CaseDate",
    "CorpusResolver",
    "Expect",
    "GoldCase",
    "GoldSuite",
    "GoldSuiteError",
    "Problem",
    "ProvisionRef",
    "RulingRef",
    "Severity",
    "check_document",
    "load_suite",
    "parse_suite",
    "read_yaml",
    "validate_suite",
]
