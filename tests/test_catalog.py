"""The sample catalog: converted from the shared public-domain Markdown, conservatively."""

from __future__ import annotations

import pytest

from app.recipes import read_catalog
from scripts.build_catalog import DEFAULT_OUTPUT, DEFAULT_SOURCE, build, diet_flags, minutes, parse_recipe

SAMPLE = """---
title: "Coleslaw"
date: 2021-05-08
tags: ['side', Cabbage, 'salad']
author: someone
---

A coleslaw from a [chili place](/chili) that closed. ![photo](/pix/slaw.webp)

- ⏲️ Prep time: 25 min
- 🥶 Fridge time: 1 hr
- 🍽️ Servings: 8 - 10

## Ingredients

- 3/4 cup **mayonnaise**
- One large head of green cabbage

## Directions

1. Shred the cabbage,
   then rinse it.
2. Whisk the dressing and toss.
"""


def test_a_markdown_recipe_becomes_a_catalog_recipe():
    recipe = parse_recipe("coleslaw", SAMPLE)

    assert recipe.title == "Coleslaw"
    assert recipe.tags == ["cabbage", "salad", "side"]
    assert recipe.description == "A coleslaw from a chili place that closed."
    assert recipe.ingredients == ["3/4 cup mayonnaise", "One large head of green cabbage"]
    assert recipe.steps == ["Shred the cabbage, then rinse it.", "Whisk the dressing and toss."]
    assert (recipe.prep_minutes, recipe.cook_minutes, recipe.total_minutes) == (25, None, 85)
    assert recipe.servings == "8 - 10"
    assert recipe.vegetarian and recipe.dairy_free and not recipe.vegan  # mayonnaise is eggs and oil


def test_steps_written_as_plain_lines_still_count():
    source = SAMPLE.split("## Directions")[0] + "## Directions\n\n### Preparation\n\nHeat it.\nServe it.\n"

    assert parse_recipe("x", source).steps == ["Heat it.", "Serve it."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10 min", 10),
        ("10-15 min", 15),
        ("~10 to 20 minutes", 20),
        ("2h 30min", 150),
        ("~1.5 hrs", 90),
        ("at least 4 hours", 240),
        ("Simmer all day", None),
    ],
)
def test_times_are_read_as_minutes_and_ranges_as_their_upper_bound(text: str, expected: int | None):
    assert minutes(text) == expected


@pytest.mark.parametrize(
    ("ingredients", "vegetarian", "vegan", "gluten_free", "dairy_free"),
    [
        (["2 cups vegetable stock", "1 onion"], True, True, True, True),
        (["2 cups stock", "1 onion"], False, False, True, True),
        (["Mushroom or chicken stock", "rice"], False, False, True, True),
        (["peanut butter", "coconut milk"], True, True, True, True),
        (["2 eggs", "1 cup rice flour"], True, False, True, True),
        (["1 cup flour", "butter"], True, False, False, False),
        (["tofu", "2 tbsp soy sauce"], True, True, False, True),
        (["tofu", "2 tbsp tamari"], True, True, True, True),
        (["pasta", "parmesan"], True, False, False, False),
        (["1 tbsp fish sauce", "lime"], False, False, True, True),
        (["a good bit of grease", "corn"], False, False, True, True),
        (["2 cloves garlic, minced", "lentils"], True, True, True, True),
        (["1 lb mince", "onion"], False, False, True, True),
        (["lasagne sheets", "bolognese sauce"], False, False, False, True),
        (["2 tortilla wraps", "beans"], True, True, False, True),
    ],
)
def test_diet_flags_are_set_only_when_no_ingredient_suggests_otherwise(
    ingredients: list[str], vegetarian: bool, vegan: bool, gluten_free: bool, dairy_free: bool
):
    assert diet_flags("A dish", ingredients, []) == {
        "vegetarian": vegetarian,
        "vegan": vegan,
        "gluten_free": gluten_free,
        "dairy_free": dairy_free,
    }


def test_a_meat_tag_or_title_is_enough_to_clear_the_vegetarian_flag():
    assert not diet_flags("A dish", ["onion"], ["beef"])["vegetarian"]
    assert not diet_flags("Ham hock soup", ["onion"], [])["vegetarian"]


needs_dataset = pytest.mark.skipif(
    not DEFAULT_SOURCE.is_dir(), reason="../shared/datasets is not beside the repo"
)


@needs_dataset
def test_the_shipped_catalog_is_exactly_what_the_converter_builds_today():
    recipes, skipped = build(DEFAULT_SOURCE)

    assert skipped == []
    assert len(recipes) >= 400
    assert [r.model_dump() for r in recipes] == [r.model_dump() for r in read_catalog(DEFAULT_OUTPUT)]


def test_the_shipped_catalog_has_what_the_chat_relies_on():
    recipes = {r.id: r for r in read_catalog(DEFAULT_OUTPUT)}

    assert len(recipes) >= 400
    assert recipes["aljotta"].tags == ["fish", "mediterranean", "soup"]
    assert not recipes["aljotta"].vegetarian
    assert recipes["apple-pie"].total_minutes == 75
    assert sum(r.vegetarian for r in recipes.values()) > 100
