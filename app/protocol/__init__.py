"""The chat protocol: its request dialect and its responses."""
