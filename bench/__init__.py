"""Benchmarks of the back end, run from the repository root as modules: `python -m bench.run`."""
