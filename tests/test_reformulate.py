"""POST /api/chat/reformulate: the latest message, rewritten to stand on its own.

On the embedded default the catalog resolver writes the rewrite, with no model call; with a
cloud model (or `REWRITER=model`) the model writes it, grounded in what the resolver found,
and a rewrite that fails the guard falls back to the resolver's.
"""

from __future__ import annotations

import pytest

import function_app

DINNER_HISTORY = [
    {"role": "user", "content": "I’m looking for dinner ideas."},
    {"role": "assistant", "content": "What kind of cuisine are you interested in?"},
    {"role": "user", "content": "Vegetarian."},
    {"role": "assistant", "content": "Any ingredients you particularly like or want to avoid?"},
]
OFFERED = [
    {"role": "user", "content": "I want something vegetarian"},
    {
        "role": "assistant",
        "content": "I can recommend the Mushroom sauce, the Shakshouka and the Spanish Tortilla.",
    },
]


# What the resolver makes of "What about mushrooms?" after DINNER_HISTORY: where a model's
# rewrite is set aside, this stands.
CATALOGS_REWRITE = "What about vegetarian recipes with mushrooms?"


def post(client, user_message: str, conversation: list[dict[str, str]]):
    return client.post(
        "/api/chat/reformulate", json={"userMessage": user_message, "conversation": conversation}
    )


def question(response) -> str:
    assert response.status_code == 200, response.text
    return response.json()["question"]


@pytest.fixture
def model_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cloud configuration: the model writes the rewrite."""
    monkeypatch.setattr(function_app.settings, "rewriter", "model")


def test_the_dev_console_snippet_asks_for_vegetarian_recipes_with_mushrooms_without_a_model_call(client, llm):
    response = post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    assert response.json() == {
        "question": "What about vegetarian recipes with mushrooms?",
        "recipes": [],
        "carried": ["vegetarian"],
        "rewritten_by": "catalog",
        # What /api/chat is to search, read by the rules: the page sends it back.
        "searched": "What about recipes with mushrooms?",
        "filters": {
            "vegetarian": True,
            "vegan": None,
            "gluten_free": None,
            "dairy_free": None,
            "max_total_minutes": None,
            "exclude": [],
            "not_applied": [],
        },
    }
    assert llm.calls == []


def test_the_designs_follow_up_names_the_recipes_offered_as_the_catalog_titles_them(client, llm):
    response = post(client, "From those, which is the quickest to cook?", OFFERED)

    assert question(response) == (
        "Considering the Mushroom sauce, the Shakshouka and the Spanish Tortilla,"
        " which is the quickest to cook?"
    )
    assert response.json()["recipes"] == [
        {"id": "mushroom-sauce", "title": "Mushroom sauce"},
        {"id": "shakshouka", "title": "Shakshouka"},
        {"id": "spanish-tortilla", "title": "Spanish Tortilla"},
    ]
    assert llm.calls == []


def test_a_conversation_about_recipes_the_catalog_lacks_leaves_the_message_alone(client, llm):
    history = [
        {"role": "user", "content": "Anything Ethiopian?"},
        {"role": "assistant", "content": "People often make Doro Wat or Misir Wot."},
    ]

    response = post(client, "How long does the second one take?", history)

    assert response.json()["question"] == "How long does the second one take?"
    assert response.json()["rewritten_by"] == "unchanged"


def test_the_model_gets_the_recipes_the_catalog_resolved_and_its_rewrite_is_used(client, llm, model_rewrites):
    llm.replies.append("Which is quickest: the Mushroom sauce, the Shakshouka or the Spanish Tortilla?")

    response = post(client, "From those, which is the quickest to cook?", OFFERED)

    assert (
        question(response) == "Which is quickest: the Mushroom sauce, the Shakshouka or the Spanish Tortilla?"
    )
    assert response.json()["rewritten_by"] == "model"
    transcript = llm.calls[0]["messages"][-1]["content"]
    assert "Mushroom sauce; Shakshouka; Spanish Tortilla" in transcript


def test_a_model_rewrite_that_loses_the_recipes_referred_to_falls_back_to_the_catalogs(
    client, llm, model_rewrites
):
    llm.replies.append("Which recipe is the quickest to cook?")

    response = post(client, "From those, which is the quickest to cook?", OFFERED)

    assert response.json()["rewritten_by"] == "catalog"
    assert "Mushroom sauce" in question(response)


def test_a_model_rewrite_that_reads_the_reference_otherwise_within_the_set_stands(
    client, llm, model_rewrites
):
    llm.replies.append("Which is the quickest to cook of the Shakshouka and the Spanish Tortilla?")

    response = post(client, "From those, which is the quickest to cook?", OFFERED)

    assert response.json()["rewritten_by"] == "model"


def test_the_model_sees_rules_examples_and_the_conversation_as_a_transcript(client, llm, model_rewrites):
    llm.replies.append("What vegetarian recipes with mushrooms are available?")

    post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    [call] = llm.calls
    system, *examples, last = call["messages"]
    assert system["role"] == "system"
    assert "standalone question" in system["content"]
    assert "Do NOT answer the question" in system["content"]
    assert [m["role"] for m in examples] == ["user", "assistant"] * (len(examples) // 2)
    assert last == {
        "role": "user",
        "content": "Conversation:\n"
        "User: I’m looking for dinner ideas.\n"
        "Assistant: What kind of cuisine are you interested in?\n"
        "User: Vegetarian.\n"
        "Assistant: Any ingredients you particularly like or want to avoid?\n"
        "Latest question: What about ones with mushrooms?\n"
        "Earlier requests it keeps: vegetarian",
    }


def test_a_first_message_is_returned_unchanged_without_calling_the_model(client, llm):
    response = post(client, "Something quick with eggs?", [])

    assert question(response) == "Something quick with eggs?"
    assert llm.calls == []


def test_a_history_of_only_empty_turns_counts_as_no_history(client, llm):
    empty = [{"role": "user", "content": "  "}, {"role": "assistant", "content": ""}]

    response = post(client, "Something quick with eggs?", empty)

    assert question(response) == "Something quick with eggs?"
    assert llm.calls == []


def test_only_the_last_six_messages_reach_the_model(client, llm, model_rewrites):
    long_history = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(30)
    ]
    llm.replies.append("Which of those is vegan?")

    post(client, "Which is vegan?", long_history)

    transcript = llm.calls[0]["messages"][-1]["content"]
    assert [line for line in transcript.splitlines() if "turn" in line] == [
        f"{'User' if i % 2 == 0 else 'Assistant'}: turn {i}" for i in range(24, 30)
    ]


def test_a_token_budget_caps_the_history_even_within_six_messages(client, llm, settings, model_rewrites):
    # Each message alone is within the limits, but four of them overflow the token budget.
    big = "word " * (settings.history_max_tokens // 2)
    history = [{"role": "user", "content": f"{i} {big}"} for i in range(4)]
    llm.replies.append("Which is vegan?")

    post(client, "Which is vegan?", history)

    transcript = llm.calls[0]["messages"][-1]["content"]
    assert transcript.count(big.strip()) < 4
    assert "3 word" in transcript  # the newest is kept


def test_a_label_and_quotes_around_the_rewrite_are_removed(client, llm, model_rewrites):
    llm.replies.append('Standalone question: "Which vegetarian dishes use mushrooms?"')

    response = post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    assert question(response) == "Which vegetarian dishes use mushrooms?"


def test_an_empty_rewrite_falls_back_to_the_users_message(client, llm, model_rewrites):
    llm.replies.append("   ")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_a_rewrite_much_longer_than_the_message_falls_back(client, llm, model_rewrites):
    llm.replies.append("Which vegetarian recipes " + "with mushrooms " * 30 + "are there?")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_an_answer_instead_of_a_question_falls_back(client, llm, model_rewrites):
    llm.replies.append("The Mushroom Risotto is a great vegetarian choice.")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_a_chatty_reply_falls_back(client, llm, model_rewrites):
    llm.replies.append("Sure! Here are some mushroom recipes?")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_a_reply_over_several_lines_falls_back(client, llm, model_rewrites):
    llm.replies.append("Which mushroom recipes are vegetarian?\n1. Mushroom soup\n2. Risotto")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_a_rewrite_that_adds_what_nobody_said_falls_back(client, llm, model_rewrites):
    # Small models copy a worked example or invent a dish.
    llm.replies.append("What about mushroom recipes with chickpeas, spinach and feta?")

    assert question(post(client, "What about mushrooms?", DINNER_HISTORY)) == CATALOGS_REWRITE


def test_a_rewrite_that_loses_what_the_user_said_falls_back(client, llm, model_rewrites):
    history = [
        {"role": "user", "content": "Give me a breakfast idea."},
        {"role": "assistant", "content": "Pancakes or a Spanish Omelette."},
    ]
    llm.replies.append("How long does it take to make pancakes?")

    assert (
        question(post(client, "How long does the omelette take?", history))
        == "How long does the omelette take?"
    )


def test_a_model_rewrite_that_names_a_recipe_nobody_mentioned_falls_back(client, llm, model_rewrites):
    llm.replies.append(
        "Is the Beef Wellington quicker than the Mushroom sauce, Shakshouka and Spanish Tortilla?"
    )

    response = post(client, "From those, which is the quickest to cook?", OFFERED)

    assert response.json()["rewritten_by"] == "catalog"
    assert "Wellington" not in question(response)


def test_the_model_may_name_a_recipe_of_the_conversation_the_catalog_could_not_resolve(
    client, llm, model_rewrites
):
    # Which of three "it" means is beyond the resolver; the model's reading is kept.
    llm.replies.append("Does the Shakshouka reheat well?")

    response = post(client, "does it reheat well?", OFFERED)

    assert question(response) == "Does the Shakshouka reheat well?"
    assert response.json()["rewritten_by"] == "model"
