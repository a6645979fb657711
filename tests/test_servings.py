"""How many a question cooks for puts the recipes that serve that many first."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.recipes import Recipe
from app.search.retrieval import Retriever
from app.search.servings import enough_first, people


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("quick chicken dinner for 4?", 4),
        ("dinner for six people", 6),
        ("something that feeds 8", 8),
        ("bake for 20 minutes", None),
        ("simmer for 2-3 hours", None),
        ("a curry", None),
        ("having 8 people over on saturday", 8),
        ("theres 6 of us", 6),
        ("birthday party, about 12 kids", 12),
        ("my son's 7th birthday party, 10 kids. food ideas?", 10),
        ("feeding 10 on sunday", 10),
        # A family is no head count.
        ("my 2 kids love pasta", None),
        ("i have 3 kids, easy dinner?", None),
        # Who cannot eat something is no count of guests.
        ("one of us is coeliac", None),
        ("two of us are vegan", None),
    ],
)
def test_how_many_a_question_cooks_for(question: str, count: int | None):
    assert people(question) == count


@dataclass(frozen=True)
class Found:
    recipe: Recipe


def serving(title: str, servings: str | None) -> Found:
    return Found(Recipe(id=title.lower(), title=title, ingredients=["x"], steps=["y"], servings=servings))


def test_those_that_serve_enough_come_first_then_those_that_do_not_say():
    found = [serving("Two", "2"), serving("Unsaid", None), serving("Six", "4-6"), serving("Four", "4")]

    assert [f.recipe.title for f in enough_first(found, 4)] == ["Six", "Four", "Unsaid", "Two"]


async def test_a_dinner_for_four_offers_recipes_for_four_first(retriever: Retriever):
    found = (await retriever.retrieve_question("quick chicken dinner for 4?", 3)).found

    assert (found[0].recipe.servings_count or 0) >= 4
