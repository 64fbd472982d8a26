"""AsAt ingest service."""
