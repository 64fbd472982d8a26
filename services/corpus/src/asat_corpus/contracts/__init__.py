"""Wire contracts shared by services over HTTP (Pydantic v2; the only Pydantic in the domain package)."""
