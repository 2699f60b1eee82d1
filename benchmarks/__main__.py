"""``python -m benchmarks``: every benchmark, REPORT.md and plots (see ``benchmarks/run.py``)."""

from benchmarks.run import main

main()
