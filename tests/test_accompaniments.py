"""A question for what goes with a dish is answered with what is eaten beside it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.recipes import Recipe
from app.search.accompaniments import BESIDE, asks_for_accompaniments, beside_first
from app.search.recipe_facts import course
from app.search.retrieval import Retriever


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("what do I serve alongside a curry?", True),
        ("what to serve with tacos", True),
        ("nibbles to go with a cold beer", True),
        ("what goes well with lamb", True),
        ("what would go well on the side with a roast chicken?", True),
        ("something bready to dunk in the soup", True),
        ("tacos with guacamole", False),
        ("a curry served hot", False),
    ],
)
def test_a_question_for_what_goes_with_a_dish_is_recognised(question: str, asks: bool):
    assert asks_for_accompaniments(question) is asks


@dataclass(frozen=True)
class Found:
    recipe: Recipe


def dish(title: str, *tags: str) -> Found:
    recipe_id = "-".join(title.lower().split())
    return Found(Recipe(id=recipe_id, title=title, ingredients=["flour"], steps=["Cook."], tags=list(tags)))


def test_what_is_eaten_beside_a_dish_comes_first_each_part_in_its_order():
    found = [
        dish("Fish Curry", "fish", "curry"),
        dish("Naan Bread", "bread"),
        dish("Chicken Curry", "chicken"),
    ]
    found.append(dish("Onion Raitha", "sauce"))

    assert [f.recipe.title for f in beside_first(found, 3)] == ["Naan Bread", "Onion Raitha", "Fish Curry"]


def test_a_side_dish_comes_before_a_condiment_found_first():
    found = [dish("Orange Jam", "jam"), dish("Fried Potatoes", "side"), dish("Stuffed Peppers")]

    assert [f.recipe.title for f in beside_first(found, 2)] == ["Fried Potatoes", "Orange Jam"]


@pytest.mark.parametrize("question", ["what do I serve alongside a curry?", "what to serve with tacos"])
async def test_the_catalog_offers_sides_and_condiments_for_a_dish(retriever: Retriever, question: str):
    retrieval = await retriever.retrieve_question(question, 3)

    assert len(retrieval.found) == 3
    assert course(retrieval.found[0].recipe) in BESIDE


async def test_beside_a_catalog_recipe_the_sides_suit_it_rather_than_share_its_words(retriever: Retriever):
    """Beside the Kung Pao chicken, Asian sides, not other chicken dishes; the recipe itself
    comes last, since the question is about it too."""
    retrieval = await retriever.retrieve_question(
        "What would go well with the Spicy Kung Pao-Style Chicken on the side?", 3
    )

    *sides, dish = retrieval.found
    assert [course(f.recipe) for f in sides] == ["side dish", "side dish"]
    assert not any("chicken" in f.recipe.title.lower() for f in sides)
    assert dish.recipe.id == "spicy-kung-pao-style-chicken"


async def test_a_remark_before_what_goes_with_a_dish_is_not_searched(retriever: Retriever):
    retrieval = await retriever.retrieve_question(
        "Ooh the Spicy Kung Pao-Style Chicken. what do i serve with the Spicy Kung Pao-Style Chicken?", 3
    )

    *sides, dish = retrieval.found
    assert [course(f.recipe) for f in sides] == ["side dish", "side dish"]
    assert dish.recipe.id == "spicy-kung-pao-style-chicken"


async def test_a_course_to_go_with_a_catalog_recipe_comes_from_its_cuisine(retriever: Retriever):
    retrieval = await retriever.retrieve_question("a dessert to go with the Lasagna", 3)

    assert [course(f.recipe) for f in retrieval.found] == ["dessert"] * 3
    assert "tiramisu" in [f.recipe.id for f in retrieval.found]


async def test_a_title_that_holds_with_is_the_dish_things_go_with(retriever: Retriever):
    retrieval = await retriever.retrieve_question(
        "what would go well with the Chicken Satay with Peanut Sauce on the side?", 3
    )

    *sides, dish = retrieval.found
    assert [course(f.recipe) for f in sides] == ["side dish", "side dish"]
    assert dish.recipe.id == "chicken-satay"
