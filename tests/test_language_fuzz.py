"""Language fuzzing of every route that reads a question (issue 15, item 3).

Schemathesis (tests/test_api_fuzz.py) generates text from the schemas, which is rarely
language, so it never wrote "pasta without chılı" or "within 10000 hours", which were 500s.
These strategies write questions as people do, in pieces the question reader acts on (diets,
"without X", time phrases with any number, hurry words, long lists of exclusions) mixed with
real words, look-alike letters (ı İ ſ ß K ﬁ), combining marks, scripts other than Latin, and
arbitrary Unicode; and they put numbers and long lists where the bodies take them. Every
request goes through the routes the local host mounts, with a model that answers anything:
the answer is never a 5xx, an error is `{"error"}` JSON, and a stream never ends in an error.

Bounded and deterministic in CI (derandomized, no example database): LANGUAGE_FUZZ_EXAMPLES
cases per route and body, 60 by default, so 300 in all. The long run (>= 5,000 cases):
`LANGUAGE_FUZZ_EXAMPLES=1300 .venv/bin/python -m pytest tests/test_language_fuzz.py -q` (5,200 through
the routes, 1,300 through the reader alone).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from app.search.retrieval import Retriever
from app.services import Services, use_services
from tests.support import AnswersAnything

EXAMPLES = int(os.environ.get("LANGUAGE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

INGREDIENTS = [
    "chili",
    "chicken",
    "beef",
    "mushrooms",
    "eggs",
    "nuts",
    "peanuts",
    "tomatoes",
    "onion",
    "garlic",
    "cheese",
    "milk",
    "butter",
    "pasta",
    "rice",
    "tofu",
    "fish",
    "shrimp",
    "pork",
    "bacon",
    "spinach",
    "coriander",
    "cilantro",
    "sesame",
    "soy",
    "gluten",
    "crème fraîche",
    "jalapeños",
    "gruyère",
    "açaí",
    "piñon",
    "smoked paprika",
    "sour cream",
    "bell peppers",
]
DISHES = ["soup", "stew", "curry", "salad", "pie", "pasta", "risotto", "tacos", "dessert", "bread"]
FILLERS = [
    "what",
    "can",
    "I",
    "cook",
    "make",
    "tonight",
    "for",
    "dinner",
    "lunch",
    "the",
    "kids",
    "something",
    "a",
    "quick",
    "easy",
    "with",
    "and",
    "or",
    "but",
    "please",
    "any",
    "ideas",
    "is",
    "it",
    "ok",
    "?",
    "!",
    ",",
    ".",
    "…",
    "I'm",
    "don't",
    "really",
    "like",
]
DIET_WORDS = [
    "vegan",
    "vegetarian",
    "veggie",
    "meatless",
    "meat-free",
    "plant-based",
    "gluten-free",
    "dairy-free",
    "lactose-free",
    "coeliac",
    "no meat",
    "without dairy",
    "no milk",
]
EXCLUDING = [
    "without",
    "no",
    "not",
    "but not",
    "except",
    "excluding",
    "minus",
    "hold the",
    "doesn't involve",
    "does not contain",
    "don't use",
    "that isn't have",
]
TIME_WORDS = [
    "under",
    "less than",
    "within",
    "in",
    "at most",
    "no more than",
    "max",
    "below",
    "up to",
    "only have",
    "I've got",
    "got",
]
UNITS = ["minutes", "minute", "mins", "min", "hours", "hour", "hrs", "h", "m"]
HURRIES = ["in a hurry", "short on time", "no time", "quickly", "fast", "no time limit"]
# Letters that case-insensitive matching confuses with a-z, marks, other scripts, and
# invisible or direction-changing characters.
ODD = [
    "ı",
    "İ",
    "ſ",
    "ß",
    "K",
    "Å",
    "ﬁ",
    "ﬀ",
    "ǅ",
    "ﬅ",
    "e\u0301",
    "\u0307",
    "\u200d",
    "\u200b",
    "\u202e",
    "\ufeff",
    "牛肉",
    "без мяса",
    "بدون لحم",
    "🌶️",
    "👩‍🍳",
    "ＡＢＣ",
    "½",
    "²",
    "٣",
    "Ⅻ",
]


def words(choices: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(choices)


def odd_word() -> st.SearchStrategy[str]:
    """A real word with look-alike letters, marks or other scripts in it."""
    return st.builds(
        lambda word, odd, at: word[:at] + odd + word[at:],
        words(INGREDIENTS + DISHES),
        words(ODD),
        st.integers(0, 12),
    )


def amount() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(0, 10**6).map(str),
        st.integers(10**6, 10**420).map(str),  # past any store's integers, and a float's range
        st.decimals(0, 10**5, places=3, allow_nan=False).map(str),
        words(["a", "an", "half an", "half a", "1e999", "NaN", "Infinity", "-5", "0x10", "٣٠"]),
    )


def phrase() -> st.SearchStrategy[str]:
    """One piece of a question, of the kind the reader acts on or not."""
    excluded = st.one_of(words(INGREDIENTS), odd_word(), st.text(min_size=1, max_size=60))
    return st.one_of(
        words(FILLERS + DISHES + INGREDIENTS),
        words(DIET_WORDS),
        st.builds(lambda w, x: f"{w} {x}", words(EXCLUDING), excluded),
        st.builds(lambda x: f"{x}-free", st.one_of(words(INGREDIENTS), odd_word())),
        st.builds(lambda w, n, u: f"{w} {n} {u}", words(TIME_WORDS), amount(), words(UNITS)),
        st.builds(lambda n, u, t: f"{n} {u} {t}", amount(), words(UNITS), words(["max", "or less", "tops"])),
        words(HURRIES),
        odd_word(),
        st.text(max_size=40),  # anything at all
    )


def exclusion_list() -> st.SearchStrategy[str]:
    """A long list of exclusions, as an allergy list is written."""
    return st.builds(
        lambda dish, items, joiner: f"{dish} " + joiner.join(f"no {i}" for i in items),
        words(DISHES),
        st.lists(st.one_of(words(INGREDIENTS), odd_word()), min_size=8, max_size=40),
        words([", ", " and ", "; ", " "]),
    )


def question() -> st.SearchStrategy[str]:
    pieces = st.lists(phrase(), min_size=1, max_size=25)
    sentence = st.builds(lambda ps, sep: sep.join(ps), pieces, words([" ", ", ", " ,", "  ", "\n", "\t"]))
    # Never blank: a blank question is a 400 by design, and says nothing about the reader.
    return st.one_of(sentence, exclusion_list()).map(lambda q: q if q.strip() else "soup")


def number() -> st.SearchStrategy[Any]:
    """Numbers as JSON carries them, of every size and kind."""
    return st.one_of(
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.none(),
        st.text(max_size=5),
    )


def history() -> st.SearchStrategy[list[dict[str, str]]]:
    turns = st.tuples(question(), st.text(max_size=200))
    return st.lists(turns, max_size=6).map(
        lambda pairs: [
            m for q, a in pairs for m in ({"role": "user", "content": q}, {"role": "assistant", "content": a})
        ]
    )


def filters() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "vegan": st.one_of(st.booleans(), number()),
            "max_total_minutes": number(),
            "exclude": st.lists(st.one_of(words(INGREDIENTS), odd_word(), st.text(max_size=50)), max_size=30),
        },
    )


@pytest.fixture(scope="module")
def client(retriever: Retriever) -> Iterator[TestClient]:
    from local_host import create_app

    use_services(Services(llm=AnswersAnything(), retriever=retriever))
    with TestClient(create_app()) as test_client:
        yield test_client
    use_services(None)


def check(response: Any) -> None:
    """Never a 5xx; an error is `{"error"}` JSON; a stream never carries an error."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    kind = response.headers.get("content-type", "")
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and body["error"], body
    elif kind.startswith(("application/json-lines", "text/event-stream")):
        # Split on "\n", the framing's separator, not str.splitlines(), which also splits on
        # U+2028, U+0085 and the like, which JSON strings may hold unescaped.
        lines = [line.removeprefix("data: ") for line in response.text.split("\n") if line.strip()]
        events = [json.loads(line) for line in lines]
        assert events and not any("error" in event for event in events), response.text[:500]
    else:
        assert response.json() is not None


@given(q=question(), top=st.one_of(st.none(), st.integers(1, 50), number()), given_filters=filters())
@FUZZ
def test_retrieve(client: TestClient, q: str, top: Any, given_filters: dict[str, Any]):
    body: dict[str, Any] = {"query": q, "filters": given_filters}
    if top is not None:
        body["top"] = top
    check(client.post("/api/retrieve", json=body))


@given(q=question(), conversation=history())
@FUZZ
def test_chat_with_the_apps_body(client: TestClient, q: str, conversation: list[dict[str, str]]):
    check(client.post("/api/chat", json={"userMessage": q, "conversation": conversation}))


@given(q=question(), conversation=history())
@FUZZ
def test_reformulate(client: TestClient, q: str, conversation: list[dict[str, str]]):
    check(client.post("/api/chat/reformulate", json={"userMessage": q, "conversation": conversation}))


@given(
    q=question(),
    conversation=history(),
    stream=st.booleans(),
    sse=st.booleans(),
    overrides=st.fixed_dictionaries(
        {},
        optional={
            "top": number(),
            "temperature": number(),
            "filters": filters(),
            "suggest_followup_questions": number(),
        },
    ),
    session_state=st.one_of(number(), st.lists(number(), max_size=50), st.text(max_size=30)),
)
@FUZZ
def test_chat_with_the_protocols_body(
    client: TestClient,
    q: str,
    conversation: list[dict[str, str]],
    stream: bool,
    sse: bool,
    overrides: dict[str, Any],
    session_state: Any,
):
    body = {
        "messages": [*conversation, {"role": "user", "content": q}],
        "stream": stream,
        "context": {"overrides": overrides},
        "session_state": session_state,
    }
    headers = {"accept": "text/event-stream"} if sse else {}
    check(client.post("/api/chat", json=body, headers=headers))


@given(q=question())
@FUZZ
def test_the_question_reader_alone(q: str):
    """The reader itself, many more cases a second: it returns, and every filter it keeps is
    one the filters take."""
    from app.search.filters import RecipeFilters
    from app.search.question_reader import read_question

    read = read_question(q)
    assert read.text.strip()
    RecipeFilters.model_validate(read.filters.model_dump(exclude={"not_applied"}))
