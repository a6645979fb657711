"""Words as search and the rewrite guard see them: lower-case, filler removed."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

STOPWORDS = frozenset(
    word
    for word in (Path(__file__).parent / "stopwords.txt").read_text(encoding="utf-8").splitlines()
    if word and not word.startswith("#")
)


# Letters that no accent folding takes to a-z: "Risengrød" is "risengrod", not "risengr d".
# The dotless i and the long s match `[a-z]` under re.I, but are not a-z. Curly
# apostrophes are straightened, as people's keyboards write them either way.
LETTERS = str.maketrans(
    {"ı": "i", "ſ": "s", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "\u2019": "'"}
)


def fold(text: str) -> str:
    """Lower case without accents, in a-z where a letter has one: "Älplermagronen" →
    "alplermagronen". How names, phrases and exclusions are matched."""
    if text.isascii():
        return text.lower()  # most text has no accent to take off, and a letter loop is slow
    text = unicodedata.normalize("NFKD", text.lower().translate(LETTERS))
    return "".join(c for c in text if not unicodedata.combining(c))


def content_words(text: str) -> list[str]:
    """The meaningful words of `text`, in order, without repeats."""
    return list(dict.fromkeys(w for w in re.findall(r"\w+", text.lower()) if w not in STOPWORDS))


def stem(word: str) -> str:
    """A crude plural folding, enough to tell that "mushrooms" was said as "mushroom"."""
    for suffix, replacement in (("ies", "y"), ("oes", "o"), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + replacement
    return word
