"""Local embeddings from WordLlama, whose PyPI wheel ships its 256-d weights and tokenizer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

# One text of up to this many characters (a question) is embedded on the event loop.
INLINE_CHARS = 4_000


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
        if len(texts) == 1 and len(texts[0]) <= INLINE_CHARS:
            # A question: microseconds, not worth a thread hop.
            return self._embed(texts)
        # A batch of recipes: milliseconds to seconds, off the event loop, so that other
        # requests are answered meanwhile (the tokenizer and NumPy release the GIL).
        return await asyncio.to_thread(self._embed, texts)

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._model.embed(list(texts), norm=True).tolist()
