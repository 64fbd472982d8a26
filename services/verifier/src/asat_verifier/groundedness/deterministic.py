"""Deterministic groundedness: the claim's numbers, amounts, dates, provisions and negations must
be in its quotes, and most of its content words too.

A claim fails when
- a money amount, percentage, date, income year, provision reference or number it states is not
  stated by any quote (or implied by a quoted source's provision id and Act: a quote from s 8-1
  supports "section 8-1" and "Division 8"; Act ``ITAA1997`` supports "1997");
- it negates a term no quote negates ("not deductible" against "deductible"), or it states a term
  plainly that a quote negates and the claim never negates ("deductible" against "not deductible");
- fewer than ``min_overlap`` of its content-word stems appear in the quotes.

The score is the weakest of the three ratios (facts supported, negations consistent, content
overlap), in [0, 1]. Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from asat_corpus.contracts.verification import GroundednessCheck
from asat_verifier.groundedness.facts import (
    Fact,
    implied_keys,
    metadata_provision_keys,
    read_facts,
)
from asat_verifier.groundedness.port import NO_EVIDENCE, Evidence, Finding, GroundednessResult
from asat_verifier.groundedness.wording import affirmed_stems, content_stems, negations

DEFAULT_MIN_OVERLAP = 0.5
# The quotes come from the corpus, and the same provisions are quoted again and again: each quote's
# facts are read once (read_facts is pure, its reading immutable).
_quote_facts = lru_cache(maxsize=8192)(read_facts)


def _evidence_keys(quotes: Sequence[Evidence]) -> dict[str, list[str]]:
    """Every fact key the quotes support, with how the quotes wrote it (for messages)."""
    keys: dict[str, list[str]] = {}
    for quote in quotes:
        facts = list(_quote_facts(quote.text).facts)
        if quote.act:  # "ITAA1997" supports "1997"
            facts.extend(
                Fact(GroundednessCheck.NUMBER, f"number:{year.lstrip('0') or '0'}", f"Act {quote.act}")
                for year in re.findall(r"[0-9]+", quote.act)
            )
        for fact in facts:
            for key in (fact.key, *implied_keys(fact)):
                keys.setdefault(key, []).append(fact.written)
        if quote.provision:
            for key in metadata_provision_keys(quote.provision):
                keys.setdefault(key, []).append(f"source provision {quote.provision}")
    return keys


def _fact_finding(fact: Fact, evidence: dict[str, list[str]]) -> Finding:
    if fact.key in evidence:
        return Finding(fact.check, True, f"{fact.check.value} '{fact.written}' is in the quotes")
    kind = fact.key.split(":", 1)[0]
    same_kind = sorted({w for key, written in evidence.items() if key.startswith(kind + ":") for w in written})
    seen = f"; the quotes have {', '.join(repr(w) for w in same_kind[:5])}" if same_kind else ""
    return Finding(fact.check, False, f"{fact.check.value} '{fact.written}' is not in the quotes{seen}")


def _negation_findings(claim_text: str, quotes: Sequence[Evidence]) -> list[Finding]:
    findings: list[Finding] = []
    claim_negations = negations(claim_text)
    quote_negations = [n for quote in quotes for n in negations(quote.text)]
    quote_negated = {n.term for n in quote_negations}
    for negation in claim_negations:
        if negation.term in quote_negated:
            findings.append(Finding(GroundednessCheck.NEGATION, True, f"'{negation.phrase}' is negated in a quote"))
        else:
            findings.append(
                Finding(
                    GroundednessCheck.NEGATION,
                    False,
                    f"the claim says '{negation.phrase}' but no quote negates '{negation.phrase.split()[-1]}'",
                )
            )
    claim_negated = {n.term for n in claim_negations}
    claim_affirmed = affirmed_stems(claim_text)
    reported: set[str] = set()
    for negation in quote_negations:
        term = negation.term
        if term in claim_affirmed and term not in claim_negated and term not in reported:
            reported.add(term)
            findings.append(
                Finding(
                    GroundednessCheck.NEGATION,
                    False,
                    f"a quote says '{negation.phrase}' but the claim states it without the negation",
                )
            )
    return findings


@dataclass(frozen=True)
class DeterministicScorer:
    """Numeric, provision and negation consistency plus content-word overlap."""

    min_overlap: float = DEFAULT_MIN_OVERLAP

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_overlap <= 1.0:
            raise ValueError(f"min_overlap must be in [0, 1], got {self.min_overlap}")

    @property
    def name(self) -> str:
        return "deterministic"

    def score(self, claim_text: str, quotes: Sequence[Evidence]) -> GroundednessResult:
        if not quotes:
            return NO_EVIDENCE
        evidence = _evidence_keys(quotes)
        reading = read_facts(claim_text)
        fact_findings = [_fact_finding(fact, evidence) for fact in reading.facts]
        negation_findings = _negation_findings(claim_text, quotes)

        claim_stems = content_stems(reading.rest)
        quote_stems = {s for quote in quotes for s in content_stems(quote.text)}
        covered = sum(1 for s in claim_stems if s in quote_stems)
        overlap = covered / len(claim_stems) if claim_stems else 1.0
        overlap_finding = Finding(
            GroundednessCheck.OVERLAP,
            overlap >= self.min_overlap,
            f"{covered} of {len(claim_stems)} content words of the claim are in the quotes "
            f"({overlap:.0%}; at least {self.min_overlap:.0%} needed)",
        )

        def ratio(findings: list[Finding]) -> float:
            return sum(f.passed for f in findings) / len(findings) if findings else 1.0

        findings = (*fact_findings, *negation_findings, overlap_finding)
        score = min(ratio(fact_findings), ratio(negation_findings), overlap)
        return GroundednessResult(score=score, grounded=all(f.passed for f in findings), findings=findings)
