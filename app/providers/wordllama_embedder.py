"""Local embeddings from WordLlama, whose PyPI wheel ships its 256-d weights and tokenizer."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class WordLlamaEmbedder:
    model = "wordllama-l2_supercat-256"
    dimensions = 256

    def __init__(self) -> None:
        import wordllama

        # The default loader looks for weights in a user cache and then downloads them; the
        # wheel already holds them beside the package, so point it there and forbid downloads.
        self._model = wordllama.WordLlama.load(
            cache_dir=Path(wordllama.__file__).parent, dim=self.dimensions, disable_download=True
        )

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        # Microseconds per text: not worth a thread hop.
        return self._model.embed(list(texts), norm=True).tolist()
