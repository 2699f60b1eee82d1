"""Tests of the code of benchmarks/ (never of the figures they measure)."""
