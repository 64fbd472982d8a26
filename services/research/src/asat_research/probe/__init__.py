"""``python -m asat_research.provider_probe``: what the configured generation provider really does.

The probe sends the provider the same two passes the pipeline sends, over a tiny fixed source
set, and judges what comes back: reachable, the model named answered, the span-key ``enum``
enforced both ways, the seed honoured, a two-pass round trip completed.
"""
