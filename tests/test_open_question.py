"""A question that names no dish ("I want something vegetarian") is offered varied mains."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.recipes import Recipe
from app.search.open_question import OPEN_SEARCH, is_open, varied
from app.search.recipe_facts import MAIN, course
from app.search.retrieval import Retriever


@pytest.mark.parametrize(
    ("searched", "open_"),
    [("I want something", True), ("what can I cook?", True), ("", True), ("a curry", False)],
)
def test_a_question_is_open_when_no_content_word_is_left(searched: str, open_: bool):
    assert is_open(searched) is open_


@pytest.mark.parametrize(
    "question", ["I want something vegetarian", "something vegan", "anything under 45 minutes"]
)
async def test_an_open_question_is_offered_mains_of_different_kinds(retriever: Retriever, question: str):
    retrieval = await retriever.retrieve_question(question, 3)

    assert retrieval.searched == OPEN_SEARCH
    assert len(retrieval.found) == 3
    assert all(course(f.recipe) == MAIN for f in retrieval.found)
    assert all(retrieval.filters.admits(f.recipe) for f in retrieval.found)
    first, second, third = (set(f.recipe.tags) for f in retrieval.found)
    assert first != second != third != first


async def test_a_question_that_names_a_dish_is_searched_as_asked(retriever: Retriever):
    retrieval = await retriever.retrieve_question("a vegetarian dessert", 3)

    assert retrieval.searched != OPEN_SEARCH
    assert course(retrieval.found[0].recipe) == "dessert"


@dataclass(frozen=True)
class Found:
    recipe: Recipe


def dish(title: str, *tags: str) -> Found:
    recipe_id = "-".join(title.lower().split())
    return Found(Recipe(id=recipe_id, title=title, ingredients=["beef"], steps=["Cook."], tags=list(tags)))


def test_variety_prefers_a_main_of_another_kind_to_a_better_ranked_one_of_the_same():
    found = [
        dish("Brigadeiro", "dessert"),
        dish("Beef Stew", "beef", "stew"),
        dish("Beef Goulash", "beef", "stew"),
        dish("Chicken Curry", "chicken", "curry"),
        dish("Ketchup", "sauce"),
    ]

    assert [f.recipe.title for f in varied(found, 3)] == ["Beef Stew", "Chicken Curry", "Beef Goulash"]
    assert [f.recipe.title for f in varied(found, 5)][3:] == ["Brigadeiro", "Ketchup"]
