"""Shared contract suites every adapter's tests run (subclass and provide the fixture)."""
