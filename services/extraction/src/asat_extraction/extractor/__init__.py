"""Extractors: the port, the deterministic default, and the helpers it reads documents with."""
