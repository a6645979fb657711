"""Words as search and the rewrite guard see them: lower-case, filler removed."""

from __future__ import annotations

import re
from pathlib import Path

STOPWORDS = frozenset(
    word
    for word in (Path(__file__).parent / "stopwords.txt").read_text(encoding="utf-8").splitlines()
    if word and not word.startswith("#")
)


def content_words(text: str) -> list[str]:
    """The meaningful words of `text`, in order, without repeats."""
    return list(dict.fromkeys(w for w in re.findall(r"\w+", text.lower()) if w not in STOPWORDS))


def stem(word: str) -> str:
    """A crude plural folding, enough to tell that "mushrooms" was said as "mushroom"."""
    for suffix, replacement in (("ies", "y"), ("oes", "o"), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + replacement
    return word
