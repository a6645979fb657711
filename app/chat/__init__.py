"""The one answer pipeline: rewrite, references, history, answer checks, citations, follow-ups."""
