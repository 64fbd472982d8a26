"""Model adapters behind the extractor port: a model reads the fields, grounding keeps only what the document shows."""
