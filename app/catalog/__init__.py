"""What the app knows for certain: its recipes' names, and which of them a text names."""
