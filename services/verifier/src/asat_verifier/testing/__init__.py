"""Reusable test suites for the verifier's ports (import from tests only; needs pytest)."""
