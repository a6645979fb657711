"""A question that asks for no dish at all: "I want something vegetarian", "what can I cook?".

Once the reader has taken the diet or the time limit out, nothing is left to search by, and
any ranking of the recipes that pass the filters is arbitrary: the first answer a new user
met was three desserts. Such a question is searched as a request for a main course (a fact
of each recipe, from app/search/recipe_facts.py), and the first recipes offered are varied,
so that it gets dinner-like dishes of different kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from app.recipes import Recipe
from app.search.recipe_facts import COURSE_WORDS, MAIN, course
from app.search.text import content_words

# What an open question searches for: the words every main course is indexed with.
OPEN_SEARCH = COURSE_WORDS[MAIN]
# How many more candidates than offered are fetched to vary among.
WIDER = 4


class Ranked(Protocol):
    @property
    def recipe(self) -> Recipe: ...


T = TypeVar("T", bound=Ranked)


def is_open(searched: str) -> bool:
    """Whether the searched text, once the filters are read out of it, names nothing."""
    return not content_words(searched)


def kinds(recipe: Recipe) -> set[str]:
    """What tells one dish from another for variety: its tags (cuisine, main ingredient)."""
    return {tag.lower() for tag in recipe.tags}


def varied(found: Sequence[T], top: int) -> list[T]:
    """The first `top` of `found`, mains first, each next one the best-ranked main that shares
    the fewest kinds with those already taken; then the rest in their order."""
    mains = [f for f in found if course(f.recipe) == MAIN]
    others = [f for f in found if course(f.recipe) != MAIN]
    taken: list[T] = []
    seen: set[str] = set()
    while mains and len(taken) < top:
        best = min(range(len(mains)), key=lambda n: (len(kinds(mains[n].recipe) & seen), n))
        pick = mains.pop(best)
        taken.append(pick)
        seen |= kinds(pick.recipe)
    return (taken + mains + others)[:top]
