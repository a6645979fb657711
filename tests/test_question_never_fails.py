"""The question reader never fails a request (issue 15, item 3): what the filters refuse is
dropped, what they take is kept, and the answer says what was not applied.

Each question below was a 500 on /api/retrieve and both bodies of /api/chat, before any
model call, because a filter read from it was refused when the filters were built.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.search.filters import RecipeFilters
from app.search.question_reader import read_question
from app.search.retrieval import Retriever
from app.services import Services, use_services
from tests.support import AnswersAnything, ScriptedChatModel

# Letters that case-insensitive matching took for a-z: they fold to the letter meant.
FOLDED = [
    ("pasta without chılı", "chili"),  # a dotless i
    ("pasta without chİli", "chili"),  # a dotted capital I
    ("ſoup without ſpinach", "spinach"),  # a long s
    ("tacos without jalapeños", "jalapenos"),
]


TWELVE = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx"]


@pytest.fixture
def any_client(retriever: Retriever) -> Iterator[TestClient]:
    """The app's routes on the sample catalog, with a model that answers anything."""
    from local_host import create_app

    use_services(Services(llm=AnswersAnything(), retriever=retriever))
    with TestClient(create_app()) as client:
        yield client
    use_services(None)


REFUSED = [
    # Not "something within 10000 hours": with the limit refused nothing is left to search
    # by, and such a question searches for a main course (tests/test_open_question.py).
    ("a curry within 10000 hours", "a curry"),
    ("a stew in under " + "9" * 400 + " minutes", "a stew"),
    ("soup without " + "x" * 41, "soup"),
    ("noodles without 牛肉", "noodles"),
    (
        "a salad "
        + ", ".join(
            f"no {w}" for w in ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx"]
        ),
        "a salad",
    ),
]
QUESTIONS = [question for question, _ in FOLDED + REFUSED]


@pytest.mark.parametrize(("question", "excluded"), FOLDED)
def test_a_look_alike_letter_folds_to_the_one_meant(question: str, excluded: str):
    read = read_question(question)

    assert read.filters.exclude == (excluded,)
    assert read.filters.not_applied == ()


@pytest.mark.parametrize(("question", "searched"), REFUSED)
def test_a_refused_filter_is_dropped_and_said(question: str, searched: str):
    read = read_question(question)

    assert read.text.startswith(searched)
    assert read.filters.not_applied  # each refusal is named
    assert all(len(note) < 300 for note in read.filters.not_applied)


def test_what_can_be_kept_is_kept():
    read = read_question("vegan pasta without chılı or nuts, under 10000 hours")

    assert read.filters.vegan is True
    assert read.filters.max_total_minutes is None
    # "chılı" folds to "chili": the reader keeps it rather than dropping it.
    assert read.filters.exclude == ("chili", "nuts")
    [note] = read.filters.not_applied
    assert "600000 minutes" in note


def test_twelve_exclusions_keep_the_first_ten():
    words = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx"]
    read = read_question("a salad " + ", ".join(f"no {w}" for w in words))

    assert read.filters.exclude == tuple(words[:10])
    assert read.filters.not_applied == ("exclude: only 10 words can be left out; not applied: uv, wx",)


def test_not_applied_is_the_apps_to_say_not_the_callers(client: TestClient):
    response = client.post("/api/retrieve", json={"query": "soup", "filters": {"not_applied": ["x"]}})

    assert response.status_code == 400
    assert "not_applied" in response.json()["error"]


@pytest.mark.parametrize(("question", "searched"), REFUSED)
def test_retrieve_answers_and_says_what_was_not_applied(client: TestClient, question: str, searched: str):
    response = client.post("/api/retrieve", json={"query": question})

    assert response.status_code == 200, response.text
    assert response.json()["searched"].startswith(searched)
    assert response.json()["filters"]["not_applied"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_apps_chat_body_answers(client: TestClient, llm: ScriptedChatModel, question: str):
    llm.streams.append(["Try the soup."])

    response = client.post("/api/chat", json={"userMessage": question})

    assert response.status_code == 200, response.text
    assert response.json()["answer"].strip()


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("question", "searched"), REFUSED)
def test_the_protocol_answers_and_says_what_was_not_applied(
    any_client: TestClient, question: str, searched: str, stream: bool
):
    body = {"messages": [{"role": "user", "content": question}], "stream": stream}

    response = any_client.post("/api/chat", json=body)

    assert response.status_code == 200, response.text
    first = json.loads(response.text.splitlines()[0]) if stream else response.json()
    context = first["choices"][0]["context"]
    [search] = [t for t in context["thoughts"] if t["title"] == "Generated search query"]
    assert search["props"]["filters"]["not_applied"]
    assert context["thoughts"][1]["description"].startswith(searched)


def test_a_filter_the_caller_gives_is_still_refused_when_wrong(client: TestClient):
    response = client.post("/api/retrieve", json={"query": "soup", "filters": {"exclude": ["chılı"]}})

    assert response.status_code == 400
    assert RecipeFilters().not_applied == ()
