"""Resolve what a follow-up refers to, against the catalog (see resolver.py)."""
