"""AsAt corpus domain: the law as held, dated, normalised and chunked.

Every other service depends on this package and on nothing else of the project's.
"""
