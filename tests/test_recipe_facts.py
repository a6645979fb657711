"""Facts computed from a recipe's own fields, and how search uses them (app/search/recipe_facts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.indexing.pipeline import Indexer
from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex
from app.recipes import Recipe
from app.search import recipe_facts
from app.search.filters import RecipeFilters
from app.search.recipe_facts import MAIN, course, document_hash, embedded_text, facts
from app.search.retrieval import Retriever
from app.services import load_sample_catalog
from app.settings import Settings


def recipe(title: str, *ingredients: str, steps: tuple[str, ...] = ("Cook.",), **fields) -> Recipe:
    recipe_id = "-".join(title.lower().replace("'", "").split())
    return Recipe(
        id=recipe_id, title=title, ingredients=list(ingredients) or ["salt"], steps=list(steps), **fields
    )


@pytest.mark.parametrize(
    ("title", "tags", "ingredients", "expected"),
    [
        ("Bolognese Sauce", [], ["beef"], "condiment"),
        # The head of the title says the dish; a sauce it comes with does not.
        ("Chicken Satay with Peanut Sauce", ["chicken"], ["chicken"], MAIN),
        ("Granita", ["italian", "sweet"], ["lemons"], "dessert"),
        ("Swedish Pancakes", ["sweet"], ["eggs"], "breakfast"),
        ("Irish Coffee", [], ["coffee", "whiskey"], "drink"),
        # A tag naming a main ingredient outweighs a "sauce" tag.
        ("Cheesy Meatballs", ["beef", "sauce"], ["beef"], MAIN),
        ("Cheesy Dip", ["sauce"], ["cheese"], "condiment"),
        # A filling goes in a dish: no dinner of its own, whatever dish it fills.
        ("Ricotta lasagna filling", ["italian", "lasagna"], ["ricotta", "egg"], "condiment"),
        # Nothing says a course, but it is made of meat: a main.
        ("Stoofvlees", [], ["beef cheeks", "beer"], MAIN),
        ("Cream Cheese", [], ["milk", "lemon"], None),
    ],
)
def test_the_course_comes_from_the_title_head_then_the_tags_then_what_it_is_made_of(
    title: str, tags: list[str], ingredients: list[str], expected: str | None
):
    assert course(recipe(title, *ingredients, tags=tags)) == expected


def test_facts_come_from_times_servings_steps_and_ingredients():
    baked = recipe(
        "Fish Pie",
        "500 g cod",
        "200 g prawns",
        "a glass of white wine",
        steps=("Preheat the oven.", "Bake for 40 minutes."),
        total_minutes=25,
        servings="8-10",
    )
    cold = recipe("Cucumber Salad", "cucumber", "2 tbsp red wine vinegar", steps=("Slice and toss.",))

    assert facts(baked) == [
        "main", "course", "dinner", "quick", "baked", "oven", "big", "batch",
        "fish", "seafood", "alcohol", "alcoholic", "boozy", "booze",
    ]  # fmt: skip
    slow = recipe("Carnitas", "pork shoulder", steps=("Cook on low in the slow cooker for 8 hours.",))
    assert "slow-cooker" in facts(slow)
    # Cookies are baked, though their steps only say "cook for 10 minutes".
    cookies = recipe("Oatmeal Cookies", "oats", "butter", steps=("Cook for ~10 minutes.",))
    assert "oven" in facts(cookies)
    # Baking powder, or a baking tray to set a cream in, needs no oven.
    pancakes = recipe("Pancakes", "flour", steps=("Whisk in the baking powder.", "Fry in a pan."))
    assert "oven" not in facts(pancakes)
    tiramisu = recipe("Tiramisu", "mascarpone", steps=("Cover the bottom of a baking tray with cream.",))
    assert "oven" not in facts(tiramisu)
    # No heat in its steps; wine vinegar is no alcohol; "salad" makes it a main.
    assert facts(cold) == ["main", "course", "dinner", "no-cook", "cold"]
    assert embedded_text(cold).endswith("main course dinner no-cook cold")


def test_shellfish_is_seafood_but_not_fish():
    assert "fish" not in facts(recipe("Pulpo", "1 octopus"))
    assert "seafood" in facts(recipe("Pulpo", "1 octopus"))


def test_an_exclusion_leaves_out_what_the_facts_say():
    pie = recipe("Apple Pie", "apples", "flour", tags=["dessert"])
    lobster = recipe("Lobster Bisque", "1 lobster", "fish stock")
    octopus = recipe("Pulpo", "1 octopus")

    assert not RecipeFilters(exclude=("dessert",)).admits(pie)
    assert RecipeFilters(exclude=("dessert",)).admits(recipe("Shepherd's Pie", "lamb", "potatoes"))
    assert [r.title for r in (lobster, octopus) if RecipeFilters(exclude=("fish",)).admits(r)] == ["Pulpo"]


async def test_the_embedded_index_searches_and_excludes_by_facts(tmp_path: Path, embedder):
    database = SqliteDatabase(tmp_path / "t.sqlite3")
    store, index = SqliteRecipeStore(database), SqliteSearchIndex(database)
    recipes = [
        recipe("Apple Pie", "apples", "flour", tags=["dessert"]),
        recipe("Shepherd's Pie", "minced lamb", "potatoes"),
        recipe("Party Mimosa", "orange juice", "prosecco", tags=["drink"]),
        recipe("Assam Tea", "tea leaves", "milk", tags=["drink"]),
    ]
    await Indexer(embedder, store, index).run([(r.id, r.model_dump()) for r in recipes])
    retriever = Retriever(embedder, index, store)

    savoury = await retriever.retrieve("pie", 5, mode="text", filters=RecipeFilters(exclude=("dessert",)))
    sober = await retriever.retrieve("drink", 5, mode="text", filters=RecipeFilters(exclude=("alcoholic",)))
    boozy = await retriever.retrieve("something boozy", 5, mode="text")

    assert [f.recipe.title for f in savoury] == ["Shepherd's Pie"]
    assert [f.recipe.title for f in sober] == ["Assam Tea"]
    assert [f.recipe.title for f in boozy] == ["Party Mimosa"]


def test_the_document_hash_changes_with_the_document_version(monkeypatch: pytest.MonkeyPatch):
    soup = recipe("Soup", "leeks")
    before = document_hash(soup)

    monkeypatch.setattr(recipe_facts, "DOCUMENT_VERSION", "next")

    assert document_hash(soup) != before
    assert document_hash(soup) == document_hash(soup.model_copy())


async def test_an_index_of_older_documents_is_rebuilt_on_start_losing_nothing(
    tmp_path: Path, embedder, settings: Settings, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "docs.sqlite3"
    scratch = settings.model_copy(update={"local_db_path": path})
    database = SqliteDatabase(path)
    store, index = SqliteRecipeStore(database), SqliteSearchIndex(database)
    retriever = Retriever(embedder, index, store)
    await load_sample_catalog(scratch, retriever)
    await Indexer(embedder, store, index).run([("mine", recipe("My Soup", "nettles").model_dump())])
    indexed = index.count()

    monkeypatch.setattr(recipe_facts, "DOCUMENT_VERSION", "next")
    monkeypatch.setattr("app.services.DOCUMENT_VERSION", "next")
    monkeypatch.setattr("app.providers.sqlite_index.DOCUMENT_VERSION", "next")
    await load_sample_catalog(scratch, retriever)

    assert index.document_version() == "next"
    assert store.count() == index.count() == indexed
    assert await index.content_hashes(["my-soup"]) == {"my-soup": document_hash(recipe("My Soup", "nettles"))}
