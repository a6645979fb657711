"""POST /api/chat/reformulate: the latest message, rewritten to stand on its own.

On the embedded default the catalog resolver writes the rewrite, with no model call; with a
cloud model (or `REWRITER=model`) the model writes it, grounded in what the resolver found,
and a rewrite that fails the guard falls back to the resolver's.
"""

from __future__ import annotations

import pytest

import function_app
from app.prompts import examples, prompt
from tests.readers import appear_in_order
from tests.support import DINNER_HISTORY, VEGETARIAN_OFFERED, turns

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
    response = post(client, "From those, which is the quickest to cook?", VEGETARIAN_OFFERED)

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

    response = post(client, "From those, which is the quickest to cook?", VEGETARIAN_OFFERED)

    assert (
        question(response) == "Which is quickest: the Mushroom sauce, the Shakshouka or the Spanish Tortilla?"
    )
    assert response.json()["rewritten_by"] == "model"
    transcript = llm.calls[0]["messages"][-1]["content"]
    message = "From those, which is the quickest to cook?"
    assert appear_in_order(transcript, [message, "Mushroom sauce", "Shakshouka", "Spanish Tortilla"])


def test_a_model_rewrite_that_loses_the_recipes_referred_to_falls_back_to_the_catalogs(
    client, llm, model_rewrites
):
    llm.replies.append("Which recipe is the quickest to cook?")

    response = post(client, "From those, which is the quickest to cook?", VEGETARIAN_OFFERED)

    assert response.json()["rewritten_by"] == "catalog"
    assert "Mushroom sauce" in question(response)


def test_a_model_rewrite_that_reads_the_reference_otherwise_within_the_set_stands(
    client, llm, model_rewrites
):
    llm.replies.append("Which is the quickest to cook of the Shakshouka and the Spanish Tortilla?")

    response = post(client, "From those, which is the quickest to cook?", VEGETARIAN_OFFERED)

    assert response.json()["rewritten_by"] == "model"


def test_the_model_gets_the_rewrite_prompt_its_examples_then_the_conversation_in_order(
    client, llm, model_rewrites
):
    llm.replies.append("What vegetarian recipes with mushrooms are available?")

    post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    [call] = llm.calls
    system, *shown, last = call["messages"]
    assert system == {"role": "system", "content": prompt("reformulate_system")}
    assert [m["role"] for m in shown] == ["user", "assistant"] * len(examples("reformulate_examples"))
    assert [m["content"] for m in shown[1::2]] == [e["rewrite"] for e in examples("reformulate_examples")]
    assert last["role"] == "user"
    # Every turn, then the message, then the request it keeps (vegetarian, from the history).
    message = "What about ones with mushrooms?"
    assert appear_in_order(last["content"], [*turns(DINNER_HISTORY), message, "vegetarian"])


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


def test_the_catalog_reads_what_was_asked_before_the_models_window(client, llm):
    said_first = [{"role": "user", "content": "I'm vegan. Something for lunch?"}]
    since = [{"role": "assistant" if i % 2 else "user", "content": f"turn {i}"} for i in range(1, 9)]

    response = post(client, "And a dessert?", said_first + since)

    assert question(response) == "What about a vegan dessert?"


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


@pytest.mark.parametrize(
    "rewrite",
    [
        pytest.param("   ", id="empty"),
        pytest.param("Which vegetarian recipes " + "with mushrooms " * 30 + "are there?", id="much-longer"),
        pytest.param("The Mushroom Risotto is a great vegetarian choice.", id="an-answer"),
        pytest.param("Sure! Here are some mushroom recipes?", id="chatty"),
        pytest.param(
            "Which mushroom recipes are vegetarian?\n1. Mushroom soup\n2. Risotto", id="several-lines"
        ),
        # Small models copy a worked example or invent a dish.
        pytest.param(
            "What about mushroom recipes with chickpeas, spinach and feta?", id="adds-what-nobody-said"
        ),
    ],
)
def test_a_model_rewrite_the_guard_refuses_falls_back_to_the_catalogs(client, llm, model_rewrites, rewrite):
    llm.replies.append(rewrite)

    response = post(client, "What about mushrooms?", DINNER_HISTORY)

    assert question(response) == CATALOGS_REWRITE
    assert response.json()["rewritten_by"] == "catalog"


def test_a_rewrite_that_loses_what_the_user_said_falls_back(client, llm, model_rewrites):
    history = [
        {"role": "user", "content": "Give me a breakfast idea."},
        {"role": "assistant", "content": "Pancakes or a Spanish Omelette."},
    ]
    llm.replies.append("How long does it take to make pancakes?")

    # The user's own question, its recipe spelled as the catalog spells it.
    assert (
        question(post(client, "How long does the omelette take?", history))
        == "How long does the Omelet take?"
    )


def test_a_model_rewrite_that_names_a_recipe_nobody_mentioned_falls_back(client, llm, model_rewrites):
    llm.replies.append(
        "Is the Beef Wellington quicker than the Mushroom sauce, Shakshouka and Spanish Tortilla?"
    )

    response = post(client, "From those, which is the quickest to cook?", VEGETARIAN_OFFERED)

    assert response.json()["rewritten_by"] == "catalog"
    assert "Wellington" not in question(response)


def test_the_model_may_name_a_recipe_of_the_conversation_the_catalog_could_not_resolve(
    client, llm, model_rewrites
):
    # Which of three "it" means is beyond the resolver; the model's reading is kept.
    llm.replies.append("Does the Shakshouka reheat well?")

    response = post(client, "does it reheat well?", VEGETARIAN_OFFERED)

    assert question(response) == "Does the Shakshouka reheat well?"
    assert response.json()["rewritten_by"] == "model"


@pytest.fixture
def cloud_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A capable cloud model writes the rewrite (the scripted one stands in for it)."""
    monkeypatch.setattr(function_app.settings, "rewriter", "model")
    monkeypatch.setattr(function_app.settings, "openai_base_url", "http://model.invalid/v1")


@pytest.mark.parametrize(("strict", "written_by"), [(True, "catalog"), (False, "model")])
def test_a_capable_model_may_rephrase_where_a_small_one_may_not(
    client, llm, monkeypatch, model_rewrites, strict, written_by
):
    if not strict:
        monkeypatch.setattr(function_app.settings, "openai_base_url", "http://model.invalid/v1")
    llm.replies.append("How many servings does the Shakshouka make?")

    response = post(client, "how many people does the second one feed", VEGETARIAN_OFFERED)

    assert response.json()["rewritten_by"] == written_by
    assert "Shakshouka" in question(response)


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("how many does the second one serve", "How many vegan servings does the Shakshouka make?"),
        ("is the second one quick with extra mushrooms?", "Is the Shakshouka quick?"),
    ],
)
def test_a_capable_models_rewrite_keeps_the_foods_and_adds_no_diet(client, llm, cloud_model, message, reply):
    llm.replies.append(reply)

    response = post(client, message, VEGETARIAN_OFFERED)

    assert response.json()["rewritten_by"] == "catalog"
