"""The provider seam (protocols.py), its error taxonomy (errors.py) and each implementation,
in its own module, imported only when chosen (app/services.py)."""
