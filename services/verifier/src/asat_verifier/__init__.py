"""AsAt verifier service."""
