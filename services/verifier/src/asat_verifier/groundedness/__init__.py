"""Groundedness: does a claim say only what its quotes say? A port and its adapters."""
