"""Storage of documents and their transactions: the port, an in-memory adapter and Postgres."""
