"""bench_agent's parts: the questions, the two ways of answering them (codenav, grep), the
truth, the scoring and the report. ``python -m benchmarks.bench_agent`` runs them."""
