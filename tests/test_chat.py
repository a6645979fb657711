"""POST /api/chat with the app's own body: retrieve the top recipes for a standalone question,
answer from them through the one answer pipeline (app/chat/answers.py), and shape
`{"answer", "sources"}`, or its server-sent events when asked for."""

from __future__ import annotations

import asyncio

import pytest

from app.chat.answers import answer_messages, asked_about, prompt_recipe, reading_sent
from app.chat.data_phrasing import facts, key_ingredients
from app.http.bodies import ChatRequest
from app.providers.errors import ModelBusyError
from app.providers.protocols import Finish
from app.recipes import Recipe, read_catalog
from app.search.filters import RecipeFilters
from app.search.retrieval import Retrieval, ScoredRecipe
from app.settings import Settings
from tests.readers import appear_in_order, recipe_ids_in_prompt, server_sent_events
from tests.support import DINNER_HISTORY, ScriptedChatModel, say

QUESTION = "What vegetarian recipes with mushrooms are available?"
# The three recipes that question retrieves (vegetarian is read as a filter).
SAUCE, STROGANOV = "mushroom-sauce", "mushroom-stragonov"


def post(client, user_message: str = QUESTION, conversation=DINNER_HISTORY, headers=None):
    return client.post(
        "/api/chat", json={"userMessage": user_message, "conversation": conversation}, headers=headers
    )


def prompted_ids(llm: ScriptedChatModel) -> list[str]:
    return recipe_ids_in_prompt(llm.stream_calls[0]["messages"][0]["content"])


def stroganov() -> Recipe:
    [recipe] = [r for r in read_catalog(Settings().local_catalog_path) if r.id == STROGANOV]
    return recipe


def test_the_dev_console_snippet_gets_an_answer_naming_retrieved_recipes_with_them_as_sources(client, llm):
    llm.streams.append(say("Try the Mushroom Stroganov [mushroom-stragonov], a quick vegetarian pasta."))

    response = post(client)

    assert response.status_code == 200
    assert response.json() == {
        "answer": "Try the Mushroom Stroganov, a quick vegetarian pasta.",
        "sources": [{"id": STROGANOV, "title": "Mushroom Stroganov"}],
    }


def test_the_top_three_vegetarian_recipes_are_in_the_system_prompt_mushroom_dishes_first(
    client, llm, retriever
):
    llm.streams.append(say("Mushroom sauce [mushroom-sauce]."))

    post(client)

    ids = prompted_ids(llm)
    recipes = asyncio.run(retriever.store.get_many(ids))
    assert len(ids) == 3
    # "vegetarian" in the question is a filter: the Mushroom risotto (chicken stock) is out.
    assert all(r.vegetarian for r in recipes)
    assert all("mushroom" in recipe_id for recipe_id in ids[:2])


def test_the_embedded_model_gets_each_recipe_s_facts_not_the_whole_recipe(client, llm):
    llm.streams.append(say("Mushroom sauce [mushroom-sauce]."))

    post(client)

    system = llm.stream_calls[0]["messages"][0]["content"]
    recipe = stroganov()
    # The ingredients are cut, so their first few names stand in for them after the facts.
    assert appear_in_order(system, [recipe.title, facts(recipe), ", ".join(key_ingredients(recipe))])
    assert not any(step in system for step in recipe.steps)
    assert llm.stream_calls[0]["max_tokens"] == 80


def test_a_cloud_model_gets_the_whole_recipe_asked_about_and_room_to_write(client, llm, cloud):
    llm.streams.append(say("Mushroom sauce [mushroom-sauce]."))

    post(client, "How do I make the Mushroom Stroganov?")

    system = llm.stream_calls[0]["messages"][0]["content"]
    recipe = stroganov()
    assert appear_in_order(system, [recipe.title, facts(recipe), *recipe.ingredients, *recipe.steps])
    # A whole ingredient list is not summed up before it as well: each name is sent once.
    assert system.count(key_ingredients(recipe)[0]) == 1
    assert llm.stream_calls[0]["max_tokens"] == 600


def test_a_recipe_too_long_for_the_prompt_is_cut_after_a_whole_sentence():
    recipe = Recipe(
        id="stew",
        title="Stew",
        ingredients=["beef"],
        steps=["Brown the beef. Add the onions.", "Simmer until the liquid is absorbed by the beef."],
    )

    text = prompt_recipe(recipe, 90)

    assert text.endswith("Brown the beef. …")
    assert len(text) <= 90


def test_the_model_is_given_the_method_of_the_recipes_the_question_is_about():
    soup = Recipe(id="soup", title="Soup", ingredients=["leeks"], steps=["Simmer the leeks."])
    stew = Recipe(id="stew", title="Stew", ingredients=["beef"], steps=["Brown the beef."])

    def prompt(question: str) -> str:
        found = Retrieval(question, RecipeFilters(), [ScoredRecipe(soup, 1.0), ScoredRecipe(stew, 0.5)])
        about = asked_about(found, question)
        return answer_messages([soup, stew], [], question, recipe_chars=1800, about=about)[0]["content"]

    # Naming none, the first found is what the question is about; the others are alternatives,
    # offered by their facts and ingredients.
    offered = prompt("something warming?")
    assert "Simmer the leeks." in offered and "Brown the beef." not in offered
    assert "Ingredients: beef" in offered
    asked = prompt("how do I make the Stew?")
    assert "Brown the beef." in asked and "Simmer the leeks." not in asked


def test_the_prompt_is_system_then_the_last_five_history_messages_then_the_question(client, llm):
    history = [{"role": ("user", "assistant")[i % 2], "content": f"turn {i}"} for i in range(12)]
    llm.streams.append(say("Mushroom sauce [mushroom-sauce]."))

    post(client, conversation=history)

    messages = llm.stream_calls[0]["messages"]
    assert messages[0]["role"] == "system"
    assert messages[1:-1] == history[-5:]
    assert messages[-1] == {"role": "user", "content": QUESTION}


def test_a_source_title_comes_from_the_store_and_a_citation_not_retrieved_is_dropped(client, llm):
    llm.streams.append(say("Mushroom sauce [mushroom-sauce, made-up-soup] is rich."))

    body = post(client).json()

    assert body == {
        "answer": "Mushroom sauce is rich.",
        "sources": [{"id": SAUCE, "title": "Mushroom sauce"}],
    }


@pytest.mark.parametrize(
    ("reply", "refused"),
    [
        # The Mushroom risotto is in the catalog, but the vegetarian filter kept it out.
        pytest.param(
            "Make the Mushroom risotto. It is lovely.", "Mushroom risotto", id="a-recipe-not-retrieved"
        ),
        pytest.param(
            "Sure, here is a soup. Title: " + "100g (110g) Arborio rice; " * 30,
            "Arborio rice; 100g",
            id="a-loop",
        ),
        # Held until it names a retrieved recipe, which it never does.
        pytest.param(
            "Sure, I can help with that. I'm sorry for any confusion.", "sorry", id="no-recipe-named"
        ),
    ],
)
def test_a_reply_refused_before_it_names_a_retrieved_recipe_is_replaced_by_the_data(
    client, llm, reply, refused
):
    llm.streams.append(say(reply))

    body = post(client).json()

    assert refused not in body["answer"]  # none of the reply is shown
    assert body["answer"].startswith("These 3 recipes match best:")
    assert {s["id"] for s in body["sources"]} == set(prompted_ids(llm))


def test_a_repeated_line_is_dropped(client, llm):
    line = "Mushroom sauce [mushroom-sauce] is vegetarian.\n"
    llm.streams.append(say(line * 4))

    body = post(client).json()

    assert body["answer"] == "Mushroom sauce is vegetarian."


def test_a_time_the_recipe_contradicts_is_never_shown(client, llm):
    llm.streams.append(
        say("Mushroom Stroganov [mushroom-stragonov] takes 30 min. Mushroom sauce takes 90 minutes.")
    )

    body = post(client).json()

    assert body["answer"] == "Mushroom Stroganov takes 30 min."


def test_a_reply_cut_at_the_token_limit_loses_its_unfinished_sentence_and_says_length(client, llm):
    llm.streams.append(
        [*say("Mushroom sauce [mushroom-sauce] is quick. The Stroganov is made with"), Finish("length")]
    )

    events = server_sent_events(post(client, headers={"Accept": "text/event-stream"}).text)

    assert events[-1]["answer"] == "Mushroom sauce is quick."
    assert events[-1]["finish_reason"] == "length"


def test_the_design_s_chat_example_on_the_embedded_default_names_retrieved_mushroom_dishes(
    client, llm, data_writes
):
    body = post(client).json()

    assert body["answer"].startswith("These 3 recipes match best:")
    assert [s["id"] for s in body["sources"]][:2] == [SAUCE, STROGANOV]
    assert "Mushroom sauce (35 min in all, serves 3, vegetarian)" in body["answer"]
    assert llm.stream_calls == []


def test_a_small_model_s_opening_is_shown_once_it_names_a_retrieved_recipe(client, llm):
    llm.streams.append(say("Sure! Here is one. Mushroom sauce [mushroom-sauce] is rich."))

    assert post(client).json()["answer"] == "Sure! Here is one. Mushroom sauce is rich."


def test_a_cloud_model_stays_in_charge_of_a_reply_that_names_no_recipe(client, llm, cloud):
    llm.streams.append(say("None of these is a stew."))

    assert post(client).json() == {"answer": "None of these is a stew.", "sources": []}


def test_a_busy_embedded_model_means_an_answer_from_the_data(client, llm):
    llm.streams.append([ModelBusyError()])

    body = post(client).json()

    assert body["answer"].startswith("These 3 recipes match best:")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Of the Mushroom sauce and the Mushroom Stroganov, which is the quickest?",
            "The quickest is Mushroom Stroganov",
        ),
        ("Which vegetarian mushroom recipe serves the most?", "serves the most"),
        ("Which mushroom recipe has no cheese?", "Without cheese:"),
        ("Is the Mushroom Stroganov vegetarian?", "Yes: Mushroom Stroganov is vegetarian."),
        (
            "How long does the Mushroom Stroganov take?",
            "Mushroom Stroganov takes 30 min in all (prep 10 min, cook 20 min).",
        ),
        ("What do I need for the Mushroom sauce?", "For Mushroom sauce you need:"),
        ("How do I make the Mushroom Stroganov?", "To make Mushroom Stroganov (30 min in all"),
        ("Can I make the Mushroom sauce without dairy?", "Mushroom sauce has dairy: "),
        ("Is the Mushroom Stroganov spicy?", "Mushroom Stroganov has no chili or other hot ingredient."),
    ],
)
def test_on_the_embedded_default_the_recipes_data_answers_with_no_model_call(
    client, llm, data_writes, question, expected
):
    body = post(client, question, []).json()

    assert expected in body["answer"]
    assert body["sources"]
    assert llm.stream_calls == []


def test_the_data_lists_what_each_named_recipe_needs_in_the_order_asked(client, llm, data_writes):
    question = "What do I need for the Mushroom Stroganov and the Mushroom sauce?"

    answer = post(client, question, []).json()["answer"]

    assert answer.index("For Mushroom Stroganov you need:") < answer.index("For Mushroom sauce you need:")


def test_recipes_without_a_time_are_said_so_in_the_plural(client, llm, data_writes):
    question = (
        "Of the Brigadeiro, the Mazurek and the Grands-pères au sirop d'érable (Maple Dumplings),"
        " which is the quickest?"
    )

    answer = post(client, question, []).json()["answer"]

    [untimed] = [sentence for sentence in answer.split(". ") if "do not give their times" in sentence]
    assert {"Brigadeiro", "Mazurek"} <= set(untimed.replace(" and ", " ").split())


def test_a_cloud_model_answers_those_too(client, llm, cloud):
    llm.streams.append(say("Mushroom Stroganov [mushroom-stragonov] is quickest, at 30 min."))

    body = post(client, "Which vegetarian mushroom recipe is the quickest?", []).json()

    assert body["answer"] == "Mushroom Stroganov is quickest, at 30 min."


def test_when_a_cloud_model_says_the_recipes_do_not_hold_the_answer_there_are_no_sources(client, llm, cloud):
    llm.streams.append(say("I don't know: none of these recipes is a sushi recipe."))

    body = post(client, "How do I make sushi rice?", []).json()

    assert body == {"answer": "I don't know: none of these recipes is a sushi recipe.", "sources": []}


def test_the_app_body_streams_as_server_sent_events_when_asked(client, llm):
    llm.streams.append(
        say("Mushroom sauce [mushroom-sauce] is rich. Mushroom Stroganov [mushroom-stragonov] is quick.")
    )

    response = post(client, headers={"Accept": "text/event-stream"})

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = server_sent_events(response.text)
    deltas = [e["delta"] for e in events[:-1]]
    assert len(deltas) >= 2
    assert "".join(deltas) == "Mushroom sauce is rich. Mushroom Stroganov is quick."
    assert events[-1] == {
        "answer": "Mushroom sauce is rich. Mushroom Stroganov is quick.",
        "sources": [
            {"id": SAUCE, "title": "Mushroom sauce"},
            {"id": STROGANOV, "title": "Mushroom Stroganov"},
        ],
        "finish_reason": "stop",
    }


def test_a_reading_sent_back_keeps_the_wishes_that_order_what_is_found():
    # The page sends back the reformulate's filters and searched text; the intents that order
    # the results ("eat less meat": the vegetarian ones first) are read from the question.
    body = ChatRequest(
        userMessage="dinner ideas? we're trying to eat less meat",
        searched="dinner ideas? we're trying to eat vegetarian vegetable beans lentils tofu",
        filters=RecipeFilters(),
    )

    read = reading_sent(body)

    assert read is not None and "less meat" in read.intents
