"""POST /api/chat/reformulate: the latest message, rewritten to stand on its own."""

from __future__ import annotations

from tests.conftest import ScriptedChatModel

DINNER_HISTORY = [
    {"role": "user", "content": "I’m looking for dinner ideas."},
    {"role": "assistant", "content": "What kind of cuisine are you interested in?"},
    {"role": "user", "content": "Vegetarian."},
    {"role": "assistant", "content": "Any ingredients you particularly like or want to avoid?"},
]


def post(client, user_message: str, conversation: list[dict[str, str]]):
    return client.post(
        "/api/chat/reformulate", json={"userMessage": user_message, "conversation": conversation}
    )


def test_the_dev_console_snippet_gets_the_models_standalone_question(client, llm: ScriptedChatModel):
    llm.replies.append("What vegetarian recipes with mushrooms are available?")

    response = post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    assert response.status_code == 200
    assert response.json() == {"question": "What vegetarian recipes with mushrooms are available?"}


def test_the_model_sees_rules_examples_and_the_conversation_as_a_transcript(client, llm):
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
        "Latest question: What about ones with mushrooms?",
    }


def test_a_first_message_is_returned_unchanged_without_calling_the_model(client, llm):
    response = post(client, "Something quick with eggs?", [])

    assert response.json() == {"question": "Something quick with eggs?"}
    assert llm.calls == []


def test_a_history_of_only_empty_turns_counts_as_no_history(client, llm):
    empty = [{"role": "user", "content": "  "}, {"role": "assistant", "content": ""}]

    response = post(client, "Something quick with eggs?", empty)

    assert response.json() == {"question": "Something quick with eggs?"}
    assert llm.calls == []


def test_only_the_last_six_messages_reach_the_model(client, llm):
    long_history = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(30)
    ]
    llm.replies.append("Which of those is vegan?")

    post(client, "Which is vegan?", long_history)

    transcript = llm.calls[0]["messages"][-1]["content"]
    assert [line for line in transcript.splitlines() if "turn" in line] == [
        f"{'User' if i % 2 == 0 else 'Assistant'}: turn {i}" for i in range(24, 30)
    ]


def test_a_token_budget_caps_the_history_even_within_six_messages(client, llm, settings):
    # Each message alone is within the limits, but four of them overflow the token budget.
    big = "word " * (settings.history_max_tokens // 2)
    history = [{"role": "user", "content": f"{i} {big}"} for i in range(4)]
    llm.replies.append("Which is vegan?")

    post(client, "Which is vegan?", history)

    transcript = llm.calls[0]["messages"][-1]["content"]
    assert transcript.count(big.strip()) < 4
    assert "3 word" in transcript  # the newest is kept


def test_a_label_and_quotes_around_the_rewrite_are_removed(client, llm):
    llm.replies.append('Standalone question: "Which vegetarian dishes use mushrooms?"')

    response = post(client, "What about ones with mushrooms?", DINNER_HISTORY)

    assert response.json() == {"question": "Which vegetarian dishes use mushrooms?"}


def test_an_empty_rewrite_falls_back_to_the_users_message(client, llm):
    llm.replies.append("   ")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_a_rewrite_much_longer_than_the_message_falls_back(client, llm):
    llm.replies.append("Which vegetarian recipes " + "with mushrooms " * 30 + "are there?")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_an_answer_instead_of_a_question_falls_back(client, llm):
    llm.replies.append("The Mushroom Risotto is a great vegetarian choice.")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_a_chatty_reply_falls_back(client, llm):
    llm.replies.append("Sure! Here are some mushroom recipes?")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_a_reply_over_several_lines_falls_back(client, llm):
    llm.replies.append("Which mushroom recipes are vegetarian?\n1. Mushroom soup\n2. Risotto")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_a_rewrite_that_adds_what_nobody_said_falls_back(client, llm):
    # Small models copy a worked example or invent a dish.
    llm.replies.append("What about mushroom recipes with chickpeas, spinach and feta?")

    assert post(client, "What about mushrooms?", DINNER_HISTORY).json() == {
        "question": "What about mushrooms?"
    }


def test_a_rewrite_that_loses_what_the_user_said_falls_back(client, llm):
    history = [
        {"role": "user", "content": "Give me a breakfast idea."},
        {"role": "assistant", "content": "Pancakes or a Spanish Omelette."},
    ]
    llm.replies.append("How long does it take to make pancakes?")

    assert post(client, "How long does the omelette take?", history).json() == {
        "question": "How long does the omelette take?"
    }
