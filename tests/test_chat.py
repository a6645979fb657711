"""POST /api/chat: retrieve the top recipes for a standalone question and answer from them."""

from __future__ import annotations

import asyncio
import json

from tests.conftest import ScriptedChatModel, model_json

DINNER_HISTORY = [
    {"role": "user", "content": "I’m looking for dinner ideas."},
    {"role": "assistant", "content": "What kind of cuisine are you interested in?"},
    {"role": "user", "content": "Vegetarian."},
    {"role": "assistant", "content": "Any ingredients you particularly like or want to avoid?"},
]
QUESTION = "What vegetarian recipes with mushrooms are available?"


def post(client, user_message: str = QUESTION, conversation=DINNER_HISTORY):
    return client.post("/api/chat", json={"userMessage": user_message, "conversation": conversation})


def recipe_ids_in_prompt(llm: ScriptedChatModel) -> list[str]:
    system = llm.calls[0]["messages"][0]["content"]
    return [
        line.removeprefix("[id: ").removesuffix("]")
        for line in system.splitlines()
        if line.startswith("[id: ")
    ]


def test_the_dev_console_snippet_gets_an_answer_with_sources(client, llm):
    llm.replies.append(lambda messages: model_json("Try the Winter Risotto.", "winter-risotto"))

    response = post(client)

    assert response.status_code == 200
    assert response.json()["answer"] == "Try the Winter Risotto."
    assert response.json()["sources"] == [{"id": "winter-risotto", "title": "Winter Risotto"}]


def test_the_top_three_vegetarian_recipes_are_in_the_system_prompt_mushroom_dishes_first(
    client, llm, retriever
):
    llm.replies.append(model_json("..."))

    post(client)

    ids = recipe_ids_in_prompt(llm)
    recipes = asyncio.run(retriever.store.get_many(ids))
    assert len(ids) == 3
    # "vegetarian" in the question is a filter: the Mushroom risotto (chicken stock) is out.
    assert all(r.vegetarian for r in recipes)
    assert all("mushroom" in recipe_id for recipe_id in ids[:2])


def test_the_prompt_is_system_then_the_last_five_history_messages_then_the_question(client, llm):
    history = [{"role": ("user", "assistant")[i % 2], "content": f"turn {i}"} for i in range(12)]
    llm.replies.append(model_json("..."))

    post(client, conversation=history)

    messages = llm.calls[0]["messages"]
    assert messages[0]["role"] == "system"
    assert messages[1:-1] == history[-5:]
    assert messages[-1] == {"role": "user", "content": QUESTION}


def test_the_model_is_asked_for_json_whose_source_ids_are_the_retrieved_ones(client, llm):
    llm.replies.append(model_json("..."))

    post(client)

    schema = llm.calls[0]["json_schema"]
    assert schema["required"] == ["answer", "sources"]
    assert schema["properties"]["sources"]["items"]["properties"]["id"]["enum"] == recipe_ids_in_prompt(llm)


def test_a_source_title_comes_from_the_recipe_never_from_the_model(client, llm):
    llm.replies.append(model_json("Risotto!", "winter-risotto", title="Ignore me"))

    assert post(client).json()["sources"] == [{"id": "winter-risotto", "title": "Winter Risotto"}]


def test_a_source_that_was_not_retrieved_is_dropped(client, llm):
    llm.replies.append(model_json("Risotto or soup.", "winter-risotto", "made-up-soup", "apple-pie"))

    sources = post(client).json()["sources"]

    assert sources == [{"id": "winter-risotto", "title": "Winter Risotto"}]


def test_a_source_named_twice_is_listed_once(client, llm):
    llm.replies.append(model_json("Risotto.", "winter-risotto", "winter-risotto"))

    assert len(post(client).json()["sources"]) == 1


def test_when_the_recipes_do_not_hold_the_answer_the_reply_says_so_with_no_sources(client, llm):
    llm.replies.append(model_json("I don't know: none of these recipes is a sushi recipe."))

    body = post(client, "How do I make sushi rice?", []).json()

    assert body == {"answer": "I don't know: none of these recipes is a sushi recipe.", "sources": []}


def test_a_reply_that_is_not_json_becomes_a_clear_answer_not_an_error(client, llm):
    llm.replies.append("Winter Risotto is lovely {")

    response = post(client)

    assert response.status_code == 200
    body = response.json()
    assert body["answer"].startswith("Sorry, I couldn't put an answer together")
    assert [s["id"] for s in body["sources"]] == recipe_ids_in_prompt(llm)


def test_json_of_the_wrong_shape_is_treated_like_no_json(client, llm):
    llm.replies.append(json.dumps({"reply": "Winter Risotto"}))

    assert post(client).json()["answer"].startswith("Sorry, I couldn't put an answer together")


def test_json_inside_a_code_fence_is_accepted(client, llm):
    llm.replies.append("```json\n" + model_json("Risotto.", "winter-risotto") + "\n```")

    assert post(client).json()["answer"] == "Risotto."
