"""One model call at most before the answer: the rewrite and the filters of a follow-up come
from one structured-output call (a plain rewrite when the rules read every filter), a first
turn the rules read makes none, and the page's two requests make no more calls than the
protocol's one (app/chat/understanding.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

import function_app
from app.chat.answer_guard import Named
from app.chat.understanding import REWRITE_READING_SCHEMA, rules_suffice
from app.search.question_reader import READING_SCHEMA, ModelReader, read_question
from app.search.retrieval import Retriever
from app.services import Services, use_services
from tests.support import ScriptedChatModel

OFFERED = [
    {"role": "user", "content": "I want something vegetarian"},
    {
        "role": "assistant",
        "content": "I can recommend the Mushroom sauce, the Shakshouka and the Spanish Tortilla.",
    },
]
FOLLOW_UP = "From those, which is the quickest to cook without eggs?"
REWRITTEN = (
    "Which of the Mushroom sauce, the Shakshouka and the Spanish Tortilla"
    " is the quickest to cook without eggs?"
)
# The same, with a filter the rules cannot read ("I hate eggs"): the model reads it.
UNREAD_FOLLOW_UP = "From those, which is the quickest to cook? I hate eggs"
UNREAD_REWRITTEN = (
    "Which of the Mushroom sauce, the Shakshouka and the Spanish Tortilla"
    " is the quickest to cook for someone who hates eggs?"
)
ANSWER = ["The ", "Shakshouka [shakshouka]", "."]


def reading(question: str | None = None, search_text: str = "", **fields: object) -> str:
    nothing = {"vegetarian": None, "vegan": None, "gluten_free": None, "dairy_free": None}
    reply = {"search_text": search_text, **nothing, "max_total_minutes": None, "exclude": []} | fields
    return json.dumps(reply if question is None else {"question": question} | reply)


@pytest.fixture
def client(llm: ScriptedChatModel, retriever: Retriever, named: Named) -> Iterator[TestClient]:
    """The routes as on a cloud model with structured output: the model rewrites follow-ups
    and reads the filters the rules cannot."""
    from local_host import create_app

    model_reads = Retriever(retriever.embedder, retriever.index, retriever.store, ModelReader(llm))
    use_services(Services(llm=llm, retriever=model_reads, named=named))
    with TestClient(create_app()) as test_client:
        yield test_client
    use_services(None)


@pytest.fixture(autouse=True)
def cloud_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(function_app.settings, "rewriter", "model")


def protocol(client: TestClient, messages: list[dict[str, str]]) -> dict:
    response = client.post("/api/chat", json={"messages": messages})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_first_turn_the_rules_read_makes_no_call_before_the_answer(client, llm):
    llm.streams.append(ANSWER)

    body = protocol(client, [{"role": "user", "content": "I want something vegetarian for dinner"}])

    assert llm.calls == []
    assert len(llm.stream_calls) == 1
    thoughts = json.dumps(body["choices"][0]["context"]["thoughts"])
    assert '"vegetarian": true' in thoughts


def test_a_first_turn_with_a_filter_the_rules_cannot_read_asks_the_reader_once(client, llm):
    llm.replies.append(reading(search_text="a dessert", exclude=["nuts"]))
    llm.streams.append(ANSWER)

    protocol(client, [{"role": "user", "content": "a dessert, I hate nuts"}])

    [call] = llm.calls
    assert call["json_schema"] == READING_SCHEMA
    assert len(llm.stream_calls) == 1


def test_a_follow_up_gets_its_rewrite_and_filters_from_one_call(client, llm):
    llm.replies.append(reading(UNREAD_REWRITTEN, "quickest of the three", exclude=["eggs", "onions"]))
    llm.streams.append(ANSWER)

    body = protocol(client, [*OFFERED, {"role": "user", "content": UNREAD_FOLLOW_UP}])

    [call] = llm.calls
    assert call["json_schema"] == REWRITE_READING_SCHEMA
    # The resolver's grounding reaches the model, as for a plain rewrite.
    assert "Mushroom sauce; Shakshouka; Spanish Tortilla" in call["messages"][-1]["content"]
    assert len(llm.stream_calls) == 1
    thoughts = json.dumps(body["choices"][0]["context"]["thoughts"])
    assert UNREAD_REWRITTEN in thoughts
    # Held to the question as the reader's are: "onions" was never said.
    assert '"exclude": ["eggs"]' in thoughts


def test_a_rewrite_the_guard_sets_aside_takes_the_rules_filters_of_the_catalogs_rewrite(client, llm):
    # Drops the recipes the message refers to, and invents a filter.
    llm.replies.append(reading("Which recipe is quickest without eggs?", "recipe", vegan=True))

    response = client.post(
        "/api/chat/reformulate", json={"userMessage": UNREAD_FOLLOW_UP, "conversation": OFFERED}
    )

    body = response.json()
    assert [c["json_schema"] for c in llm.calls] == [REWRITE_READING_SCHEMA]
    assert body["rewritten_by"] == "catalog"
    assert "Mushroom sauce" in body["question"]
    assert body["filters"] == read_question(body["question"]).filters.model_dump(mode="json")
    assert body["filters"]["vegan"] is None


def test_a_reply_that_is_not_the_json_asked_for_falls_back_to_the_catalog_and_the_rules(client, llm):
    llm.replies.append("Which is quickest?")

    response = client.post(
        "/api/chat/reformulate", json={"userMessage": UNREAD_FOLLOW_UP, "conversation": OFFERED}
    )

    assert response.status_code == 200
    body = response.json()
    assert body["rewritten_by"] == "catalog"
    assert body["filters"] == read_question(body["question"]).filters.model_dump(mode="json")


def test_a_follow_up_whose_filters_the_rules_read_asks_for_the_rewrite_alone(client, llm):
    llm.replies.append(REWRITTEN)
    llm.streams.append(ANSWER)

    response = client.post("/api/chat/reformulate", json={"userMessage": FOLLOW_UP, "conversation": OFFERED})

    body = response.json()
    [call] = llm.calls
    # No schema: the reply is the rewrite as plain text, and the rules read its filters.
    assert call["json_schema"] is None
    assert "Mushroom sauce; Shakshouka; Spanish Tortilla" in call["messages"][-1]["content"]
    assert body["rewritten_by"] == "model"
    assert body["question"] == REWRITTEN
    assert body["filters"]["exclude"] == ["eggs"]
    assert body["searched"] == read_question(REWRITTEN).text


def test_the_pages_two_requests_make_no_more_calls_than_the_protocols_one(client, llm):
    llm.replies.append(reading(UNREAD_REWRITTEN, "quickest of the three", exclude=["eggs"]))
    llm.streams.append(ANSWER)

    rewrite = client.post(
        "/api/chat/reformulate", json={"userMessage": UNREAD_FOLLOW_UP, "conversation": OFFERED}
    ).json()
    answer = client.post(
        "/api/chat",
        json={
            "userMessage": rewrite["question"],
            "conversation": OFFERED,
            "searched": rewrite["searched"],
            "filters": rewrite["filters"],
        },
    )

    assert answer.status_code == 200, answer.text
    assert len(llm.calls) == 1 and len(llm.stream_calls) == 1
    assert rewrite["searched"] == "quickest of the three"
    assert rewrite["filters"]["exclude"] == ["eggs"]


def test_a_client_that_sends_no_filters_has_them_read_as_before(client, llm):
    llm.replies.append(reading(search_text="a dessert", exclude=["nuts"]))
    llm.streams.append(ANSWER)

    answer = client.post("/api/chat", json={"userMessage": "a dessert, I hate nuts"})

    assert answer.status_code == 200
    assert [c["json_schema"] for c in llm.calls] == [READING_SCHEMA]


def test_filters_sent_to_chat_are_applied_as_sent(client, llm):
    llm.streams.append(ANSWER)

    client.post(
        "/api/chat",
        json={"userMessage": "a quick soup", "filters": {"vegan": True, "exclude": ["lentils"]}},
    )

    assert llm.calls == []
    # No recipe in the prompt may break the filters the client sent.
    prompt = llm.stream_calls[0]["messages"][0]["content"]
    assert "lentil" not in prompt.lower()


def test_a_chat_body_may_not_set_the_apps_notes_on_the_filters(client, llm):
    response = client.post(
        "/api/chat", json={"userMessage": "soup", "filters": {"not_applied": ["anything"]}}
    )

    assert response.status_code == 400
    assert "not_applied" in response.json()["error"]


@pytest.mark.parametrize(
    ("question", "suffice"),
    [
        ("I want something vegetarian for dinner", True),
        ("Is there a pasta dish without meat?", True),
        ("Which soup is the quickest to cook?", True),
        ("How do I make pizza dough?", True),
        ("beef but not stew", True),
        ("vegan", True),
        ("a dessert, I hate nuts", False),
        # "not too spicy" is read (mild recipes first); "not too heavy" is not.
        ("something not too spicy", True),
        ("something not too heavy", False),
        ("pasta free from tomatoes", False),
    ],
)
def test_the_rules_suffice_when_they_leave_no_hint_of_a_filter_unread(question: str, suffice: bool):
    assert rules_suffice(question, read_question(question)) is suffice


def test_the_combined_schema_is_the_readers_with_the_question_first():
    assert next(iter(REWRITE_READING_SCHEMA["properties"])) == "question"
    required = READING_SCHEMA["required"]
    assert isinstance(required, list)
    assert set(REWRITE_READING_SCHEMA["required"]) == {"question", *required}
    assert REWRITE_READING_SCHEMA["additionalProperties"] is False


def test_a_filter_the_rules_could_not_read_earlier_keeps_the_follow_up_in_one_reading_call(client, llm):
    # The model's rewrite may carry "hates nuts" where the resolver does not: the rules
    # could not read it from the rewrite, so the model reads the filters.
    earlier = [
        {"role": "user", "content": "A dessert, I hate nuts"},
        {"role": "assistant", "content": "I can recommend the Apple pie."},
    ]
    question = "Something quicker?"
    llm.replies.append(
        reading("A quicker dessert for someone who hates nuts?", "quicker dessert", exclude=["nuts"])
    )

    response = client.post("/api/chat/reformulate", json={"userMessage": question, "conversation": earlier})

    assert response.status_code == 200
    assert [c["json_schema"] for c in llm.calls] == [REWRITE_READING_SCHEMA]
