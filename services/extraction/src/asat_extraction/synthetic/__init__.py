"""The synthetic Australian document set: random but seeded documents, each with its truth JSON.

Used by ``scripts/make_extraction_set.py`` (the benchmark set) and by the tests (a handful of
documents). Rendering PDFs needs reportlab (``pip install asat-extraction[synthetic]``).
"""
