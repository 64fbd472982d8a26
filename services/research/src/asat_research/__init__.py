"""AsAt research service."""
