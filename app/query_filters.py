"""Filters read from a standalone question: diets, a time limit, and what to leave out.

"Beef but not stew" must never return a stew: the exclusion becomes a filter inside the
search engine, and the excluded words leave the text that is searched, so that they no
longer pull stews up. A deterministic reader serves every provider; it only acts on
phrasings it is sure of, because a wrong filter hides the right recipe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.filters import RecipeFilters

DIETS = {
    "vegan": r"vegan|plant[- ]based",
    "vegetarian": r"vegetarian|veggie|meatless|meat[- ]free|without (?:any )?meat|no meat",
    "gluten_free": r"gluten[- ]free|without gluten|no gluten|coeliac|celiac",
    "dairy_free": r"dairy[- ]free|without dairy|no dairy|lactose[- ]free|without milk|no milk",
}
DIET_PHRASE = re.compile("|".join(f"(?P<{name}>\\b(?:{words})\\b)" for name, words in DIETS.items()), re.I)

UNIT_MINUTES = {
    "min": 1,
    "minute": 1,
    "minutes": 1,
    "mins": 1,
    "hour": 60,
    "hours": 60,
    "hr": 60,
    "hrs": 60,
    "h": 60,
}
TIME_LIMIT = re.compile(
    r"\b(?:under|less than|within|in|at most|no more than|max(?:imum)?|below|up to)\s+"
    r"(?:an?\s+)?(?P<amount>\d+(?:\.\d+)?|half an?|an?)?\s*"
    r"(?P<unit>minutes?|mins?|hours?|hrs?|h)\b",
    re.I,
)
# Saying one is in a hurry sets the limit that "quick" means on most recipe sites.
HURRY = re.compile(r"\b(?:short on time|in a hurry|in a rush|no time(?! limit)|quick(?:ly)?|fast)\b", re.I)
HURRY_MINUTES = 30

# "but not stew", "without mushrooms", "no nuts", "except cheese", "nut-free" (not a diet).
EXCLUSION = re.compile(
    r"\b(?:but not|not|without|no|except|excluding|minus|hold the)\s+(?:any\s+|a\s+|an\s+)?"
    r"(?P<what>[a-z][a-z'-]*(?:\s+(?!and\b|or\b|but\b|please\b|with\b)[a-z][a-z'-]*)?)"
    r"|\b(?P<free>[a-z]+)-free\b",
    re.I,
)
NOT_EXCLUDABLE = {
    "meat",
    "gluten",
    "dairy",
    "milk",
    "lactose",
    "time",
    "more",
    "longer",
    "too",
    "very",
    "so",
    "really",
}
NOT_EXCLUDABLE |= {"spicy", "hot", "sweet", "heavy", "fancy", "complicated", "idea", "ideas", "sure"}
NOT_EXCLUDABLE |= {"vegan", "vegetarian", "veggie", "plant", "problem", "matter", "need", "one", "ones"}


@dataclass(frozen=True)
class ReadQuestion:
    """What to search for, and the filters the question asked for."""

    text: str
    filters: RecipeFilters


def read_question(question: str) -> ReadQuestion:
    diet = {
        name: True
        for match in DIET_PHRASE.finditer(question)
        for name, hit in match.groupdict().items()
        if hit
    }
    text = question
    excluded: list[str] = []
    for match in EXCLUSION.finditer(question):
        words = (match["what"] or match["free"] or "").lower().split()
        # "no meat" is a diet, "not too spicy" a taste: neither is a word to filter on.
        if words and words[0] not in NOT_EXCLUDABLE:
            excluded.append(" ".join(words))
            text = text.replace(match.group(0), " ")
    return ReadQuestion(
        text=" ".join(text.split()) or question,
        filters=RecipeFilters(**diet, max_total_minutes=time_limit(question), exclude=tuple(excluded)),
    )


def time_limit(question: str) -> int | None:
    match = TIME_LIMIT.search(question)
    if match:
        amount = (match["amount"] or "a").lower()
        number = 0.5 if amount.startswith("half") else 1.0 if amount in ("a", "an") else float(amount)
        return round(number * UNIT_MINUTES[match["unit"].lower()])
    return HURRY_MINUTES if HURRY.search(question) else None
