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


# Foods with another name across the Atlantic or in another language, read as one: "Indian
# chai" is the Indian tea, "the prawn one" has shrimp in it.
SAME_FOOD = {"chai": "tea", "prawn": "shrimp", "prawns": "shrimp", "courgette": "zucchini"}
SAME_FOOD |= {"courgettes": "zucchini", "aubergine": "eggplant", "aubergines": "eggplant"}
SAME_FOOD |= {"coriander": "cilantro", "mayo": "mayonnaise", "raita": "raitha", "yoghurt": "yogurt"}
# Searched under both names: "too many courgettes" finds the zucchini recipes too. (Not chai:
# a tea is no chai.)
OTHER_NAME = {food: name for food, name in SAME_FOOD.items() if food != "chai"}
OTHER_NAME |= {name: food for food, name in OTHER_NAME.items()}


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


def with_other_names(text: str) -> str:
    """`text` with the other name of each food it says that has one ("courgettes": zucchini)."""
    said = re.findall(r"[a-z]+", fold(text))
    others = [OTHER_NAME[w] for w in dict.fromkeys(said) if w in OTHER_NAME and OTHER_NAME[w] not in said]
    return " ".join([text, *dict.fromkeys(others)])
