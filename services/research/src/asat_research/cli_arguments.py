"""Argument types the research CLIs share (pure): a clear argparse error names what was wrong."""

from __future__ import annotations

import argparse


def positive_seconds(raw: str) -> float:
    """A positive number of seconds (``--timeout``)."""
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{raw} is not a positive number of seconds")
    return value
