"""Filters read from the question: diets, a time limit, and words to leave out."""

from __future__ import annotations

import pytest

from app.recipes import Recipe
from app.search.filters import RecipeFilters
from app.search.question_reader import read_question


@pytest.mark.parametrize(
    ("question", "searched", "filters"),
    [
        ("beef but not stew", "beef", {"exclude": ("stew",)}),
        ("pasta without tomatoes", "pasta", {"exclude": ("tomatoes",)}),
        ("a dessert with no chocolate", "a dessert with", {"exclude": ("chocolate",)}),
        ("cookies, nut-free please", "cookies, please", {"exclude": ("nut",)}),
        # An allergy said with a space, or as an allergy; "feel free" leaves nothing out.
        ("cookies, nut free obviously", "cookies, obviously", {"exclude": ("nut",)}),
        ("my son has a peanut allergy, cookies?", "my son has a , cookies?", {"exclude": ("peanut",)}),
        ("feel free to suggest a stress free dinner", "feel free to suggest a stress free dinner", {}),
        # "not just toast" is not only toast.
        ("breakfast ideas that aren't just toast", "breakfast ideas that aren't just toast", {}),
        # A sugar-free dessert is a dessert without sugar, not a diabetic's dinner.
        ("sugar free dessert", "dessert", {"exclude": ("sugar",)}),
        ("breakfast that doesn't involve eggs", "breakfast that", {"exclude": ("eggs",)}),
        ("a pasta for tonight? nothing with seafood", "a pasta for tonight?", {"exclude": ("seafood",)}),
        ("a vegetarian main I can make ahead", "a main I can make ahead", {"vegetarian": True}),
        ("something vegan and gluten-free", "something and", {"vegan": True, "gluten_free": True}),
        ("a curry with no meat", "a curry with", {"vegetarian": True}),
        # A need said not to apply is none; said of one person against another's, it is.
        (
            "a dessert? she's not coeliac so normal pastry is fine",
            "a dessert? she's not so normal pastry is fine",
            {},
        ),
        ("i'm not vegan but my partner is, dinner?", "i'm not but my partner is, dinner?", {"vegan": True}),
        ("dinner in under 45 minutes", "dinner in", {"max_total_minutes": 45}),
        ("need a quick lunch, i only have like 20 mins", "need a lunch, i", {"max_total_minutes": 20}),
        ("ready in half an hour", "ready", {"max_total_minutes": 30}),
        ("a stew within 2 hours", "a stew", {"max_total_minutes": 120}),
        # The limit says the hurry too: both leave the searched text.
        ("paella, I'm short on time: an hour max", "paella, I'm :", {"max_total_minutes": 60}),
        ("beef, but I only have 40 minutes", "beef, but I", {"max_total_minutes": 40}),
        ("I want a paella but I'm short on time", "I want a paella but I'm", {"max_total_minutes": 30}),
        # Said of the people eating: a refusal is a diet, or something to leave out.
        (
            "they don't eat pork. something impressive?",
            "they . something impressive? roast braised elegant showpiece",
            {"exclude": ("pork",)},
        ),
        ("a roast, my wife avoids beef", "a roast, my wife", {"exclude": ("beef",)}),
        # Typed as people type: "doesnt", "skip any with".
        ("he doesnt eat eggs so skip any with eggs. dessert?", "he so . dessert?", {"exclude": ("eggs",)}),
        ("she can't have gluten or dairy", "she or dairy", {"gluten_free": True, "dairy_free": True}),
        ("I don't eat meat, any curries?", "I , any curries?", {"vegetarian": True}),
        ("desserts? my son is lactose intolerant", "desserts? my son is dessert", {"dairy_free": True}),
        ("dinners? my husband has a dairy allergy", "dinners? my husband has a dinner", {"dairy_free": True}),
        ("a no-pork household, what soups?", "a household, what soups?", {"exclude": ("pork",)}),
        # The day of the meal is no word of the dish.
        ("a roast for sunday", "a roast", {}),
    ],
)
def test_what_the_question_asks_for_becomes_filters(question: str, searched: str, filters: dict):
    read = read_question(question)

    assert (read.text, read.filters) == (searched, RecipeFilters(**filters))


@pytest.mark.parametrize(
    "question",
    [
        "Which is the quickest to cook?",  # a ranking, not a limit
        "What should I have for breakfast?",  # "fast" inside a word
        "Something not too spicy",  # a taste, not an ingredient
        "I'm not sure what to cook, any ideas?",
        "No time limits, just something nice",
        # How much, not what: no food is left out.
        "something without a long list of ingredients",
        "dinner without lots of washing up",
        "nothing with a million steps",
        # A diet denied, not asked for.
        "he thinks a meal without meat isn't a meal lol. a proper hearty beef stew?",
    ],
)
def test_what_is_not_a_filter_stays_a_question(question: str):
    read = read_question(question)

    assert read.filters == RecipeFilters()


def test_filters_given_by_the_caller_win_over_those_read():
    read = read_question("vegan pasta in under 20 minutes").filters

    merged = read.merged(RecipeFilters(vegan=False))

    assert (merged.vegan, merged.max_total_minutes) == (False, 20)


def test_an_exclusion_matches_plurals_in_title_and_ingredients():
    stew = Recipe(id="s", title="Beef stews", ingredients=["beef"], steps=["Cook."])
    roast = Recipe(id="r", title="Roast beef", ingredients=["beef", "2 tomatoes"], steps=["Roast."])

    assert not RecipeFilters(exclude=("stew",)).admits(stew)
    assert RecipeFilters(exclude=("stew",)).admits(roast)
    assert not RecipeFilters(exclude=("tomato",)).admits(roast)


def test_an_exclusion_must_be_plain_words():
    with pytest.raises(ValueError):
        RecipeFilters(exclude=('stew" OR "',))


@pytest.mark.parametrize(
    "question",
    [
        "our oven died, any desserts?",
        "dinner that only needs the hob",
        "no-bake cheesecake?",
        "is there a dessert that needs no baking at all",
        "cookies that dont need baking",
        "dorm life: i have one hot plate and no oven. dinner ideas?",
        "ovens broken till thursday, meat dinners?",
    ],
)
def test_a_kitchen_without_an_oven_leaves_out_the_recipes_that_use_one(question):
    reading = read_question(question)

    assert reading.filters.exclude == ("oven",)
    assert "oven" not in reading.text
