"""A question that names catalog recipes retrieves those recipes: the design's problem,
solved by construction. Any other question searches as before."""

from __future__ import annotations

from app.search.retrieval import Retriever
from app.services import Services, open_local_database, recipe_store, search_index
from app.settings import Settings
from tests.support import ScriptedChatModel

SET = (
    "Considering the Mushroom sauce, the Shakshouka and the Spanish Tortilla, which is the quickest to cook?"
)


def retrieved(client, query: str, **extra) -> list[str]:
    response = client.post("/api/retrieve", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    return [found["recipe"]["id"] for found in response.json()["results"]]


def test_the_recipes_a_question_names_are_what_is_retrieved(client):
    assert sorted(retrieved(client, SET)) == ["mushroom-sauce", "shakshouka", "spanish-tortilla"]


def test_more_named_recipes_than_the_top_are_all_kept(client):
    assert len(retrieved(client, SET, top=2)) == 3


def test_filters_still_apply_to_the_named_recipes(client):
    # Of the three, only the Mushroom sauce is not gluten-free.
    assert sorted(retrieved(client, SET + " Gluten-free please.")) == ["shakshouka", "spanish-tortilla"]


def test_a_question_that_names_no_recipe_searches_the_catalog(client):
    found = retrieved(client, "Which vegetarian recipes use mushrooms?")

    assert len(found) == 3
    assert "mushroom-sauce" in found


async def test_a_recipe_indexed_while_the_app_runs_can_be_named_at_once(tmp_path, embedder):
    settings = Settings(local_db_path=tmp_path / "recipes.sqlite3")
    database = open_local_database(settings)
    # Naming needs no model: a scripted one with nothing to say fails the test if it is called.
    services = Services(
        ScriptedChatModel(),
        Retriever(embedder, search_index(settings, database), recipe_store(settings, database)),
    )
    assert (await services.retriever.names.get()).titles == {}
    recipe = {"id": "trout-pate", "title": "Smoked Trout Pâté", "ingredients": ["trout"], "steps": ["Blend."]}

    await services.indexer().run([("trout-pate", recipe)])

    retrieval = await services.retriever.retrieve_question("How long does the Smoked Trout Pâté keep?", 3)
    assert retrieval.named == ("trout-pate",)


def test_a_question_about_a_named_recipe_keeps_it_though_it_fails_the_diet_asked_about(client):
    # The Shakshouka is vegetarian, not vegan: the answer needs it to say so.
    assert retrieved(client, "Is the Shakshouka vegan?") == ["shakshouka"]


def test_a_swap_of_ingredients_keeps_to_the_recipe_named(client):
    # The lard is what would change, not the dish: "instead of" names no other dish here.
    question = "Is the Torta Frita Criolla vegan if I use oil instead of lard?"
    assert retrieved(client, question) == ["torta-frita-criolla"]


def test_a_recipe_named_as_a_likeness_is_not_kept_to(client):
    # "like shepherd's pie but made with beef" wants something else.
    assert len(retrieved(client, "like shepherd's pie but made with beef")) == 3


def test_like_said_as_a_filler_names_no_likeness(client):
    # "till like thursday" compares the dish to nothing: the recipe named is kept to.
    question = "does the Egyptian Lentils stay ok in the fridge till like thursday? for like 3 days?"
    assert retrieved(client, question) == ["egyptian-lentils"]
    question = "can i get the Egyptian Lentils on the table in time? I get home at like 7"
    assert retrieved(client, question) == ["egyptian-lentils"]


def test_a_kind_of_dish_described_is_searched_not_the_recipe_of_that_name(client):
    # "a pizza dough that …" asks for one with those qualities; "the pizza dough" is the recipe.
    assert retrieved(client, "do you have a pizza dough that rises overnight with no kneading?")[0] == (
        "no-knead-pizza-dough"
    )
    assert retrieved(client, "how do i make the pizza dough?") == ["pizza-dough"]


def test_a_question_is_read_strictly_for_names(client):
    # "the chocolate sweet" names no "Banana Muffins with Chocolate": the catalog is searched.
    assert len(retrieved(client, "the chocolate sweet every Brazilian birthday party has")) == 3


def test_a_dish_to_go_with_a_named_recipe_is_another_dish(client):
    found = retrieved(client, "Ok and a dessert to go with the Beef Stroganoff?")

    assert "stroganoff" not in found[:2]


def test_going_with_a_recipe_chooses_it(client):
    assert retrieved(client, "I'll go with the Shakshouka. Can I skip the cumin?") == ["shakshouka"]


def test_what_goes_with_a_recipe_asks_for_a_side(client):
    found = retrieved(client, "What should I serve with the Beef Stroganoff?")

    assert "stroganoff" not in found[:2]


def test_other_recipes_besides_those_named_are_other_recipes(client):
    found = retrieved(
        client, "What other vegetarian recipes are there besides the Mushroom sauce and the Shakshouka?"
    )

    assert len(found) == 3
    assert not {"mushroom-sauce", "shakshouka"} & set(found)


def test_a_recipe_named_after_not_is_set_aside_and_the_catalog_is_searched(client):
    found = retrieved(client, "freezing, anything soupy that's actually hot? not the Russian Okroshka lol")

    assert "okroshka" not in found[:2]
    assert len(found) == 3
