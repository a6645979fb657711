"""Retrieval and answer quality, run from the repository root as modules: `python -m eval.run_eval`."""
