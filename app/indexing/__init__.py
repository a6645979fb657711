"""Indexing: the pipeline that validates, embeds and stores recipes, and its HTTP routes."""
