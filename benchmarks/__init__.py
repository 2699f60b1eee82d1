"""Benchmarks: scripts that print tables. Results are never asserted in tests."""
