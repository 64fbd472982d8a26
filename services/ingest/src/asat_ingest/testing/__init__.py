"""Contract test suites every adapter of a port runs (import them from the adapter's tests)."""
