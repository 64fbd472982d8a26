"""Premises: what a question asserts about the law, and checks of it against the law's text (pure)."""
