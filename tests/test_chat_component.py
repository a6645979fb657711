"""The request and response shapes of the chat-component of Azure-Samples/azure-search-openai-
javascript (not on npm, and its code cannot come into this repository): it posts `{messages,
context: {its overrides, flat, and approach}, stream}` to `<api>/chat`, and reads

- one answer: `choices[0].message.content` (citations as `[text]`, follow-up questions as
  `<<question>>`), `choices[0].message.context.thoughts` (a string it renders as HTML) and
  `choices[0].message.context.data_points.text` (strings it renders as text);
- a stream: JSON lines; the chunk whose `choices[0].delta.context` has `data_points` gives the
  thoughts and the data points, the others `choices[0].delta.content`; a piece with `<<` opens
  a follow-up question and a piece with `>` and a line break closes it; a line with `error`
  (and its `message`, `statusCode`) is a failure;
- a citation's preview: it frames `<api>/content/<citation text>`.

The readers below do what the component does with those fields, and nothing more."""

from __future__ import annotations

import base64
import hashlib
import re
from types import SimpleNamespace
from typing import Any

import pytest

from app.protocol import component
from app.protocol.responses import ChatCompletion, ChatCompletionChunk
from app.providers.errors import UpstreamError
from app.recipes import Recipe
from app.services import Services, use_services
from tests.readers import json_lines

API = "/api"
QUESTION = "What recipes with mushrooms are available?"
# The component's default overrides (its global config), sent flat in context with `approach`.
CONTEXT = {
    "retrieval_mode": "hybrid",
    "semantic_ranker": True,
    "semantic_captions": False,
    "suggest_followup_questions": True,
    "approach": "rrr",
}
ANSWER = ["Try the Mushroom risotto [mushroom-risotto]. ", "Or the Mushroom sauce [mushroom-sauce]."]
FOLLOWUPS = "\n<<Is the risotto vegetarian?>>\n<<What goes well with the sauce?>>"
QUESTIONS = ["Is the risotto vegetarian?", "What goes well with the sauce?"]


def post(client, *, stream: bool, question: str = QUESTION, context: dict[str, Any] = CONTEXT):
    body = {"messages": [{"content": question, "role": "user"}], "context": context, "stream": stream}
    return client.post(f"{API}/chat", json=body)


def citations(text: str) -> list[str]:
    """The component's citations: the text of each `[...]`, once each, in order."""
    return list(dict.fromkeys(c.strip() for c in re.findall(r"\[(.*?)]", text)))


def read_answer(body: dict[str, Any]) -> dict[str, Any]:
    message = body["choices"][0]["message"]
    return {
        # The component shows the text up to the questions, which it lists apart.
        "text": message["content"].split("<<")[0],
        "questions": re.findall(r"<<([^<>]+)>>", message["content"]),
        "thoughts": message["context"]["thoughts"],
        "data_points": message["context"]["data_points"]["text"],
    }


def read_stream(lines: list[dict[str, Any]]) -> dict[str, Any]:
    read: dict[str, Any] = {"text": "", "questions": [], "thoughts": None, "data_points": None, "error": None}
    asking = False
    for chunk in lines:
        if chunk.get("error"):
            read["error"] = (chunk["message"], chunk["statusCode"])
            break
        delta = chunk["choices"][0]["delta"]
        context = delta.get("context")
        if context and context.get("data_points"):
            read["data_points"], read["thoughts"] = context["data_points"]["text"], context["thoughts"]
            continue
        piece = delta.get("content") or ""
        if "<<" in piece:
            asking = True
            read["questions"].append("")
        elif ">\n" in piece:
            asking = False
        elif asking:
            read["questions"][-1] += piece
        else:
            read["text"] += piece
    return read


@pytest.mark.parametrize("stream", [False, True], ids=["one answer", "stream"])
def test_every_field_the_component_reads_is_where_it_reads_it(client, llm, stream):
    llm.streams.append([*ANSWER, FOLLOWUPS])

    response = post(client, stream=stream)

    assert response.status_code == 200
    if stream:
        lines = json_lines(response.text)
        for line in lines:
            ChatCompletionChunk.model_validate(line)
        read = read_stream(lines)
    else:
        ChatCompletion.model_validate(response.json())
        read = read_answer(response.json())
    assert read["text"].strip() == "".join(ANSWER).strip()
    assert citations(read["text"]) == ["mushroom-risotto", "mushroom-sauce"]
    assert read["questions"] == QUESTIONS
    # Supporting content: a string per recipe the answer was given, the cited ones among them.
    assert all(isinstance(p, str) for p in read["data_points"])
    assert {"mushroom-risotto", "mushroom-sauce"} <= {p.split(": ", 1)[0] for p in read["data_points"]}
    assert "<h4>Original user query</h4>" in read["thoughts"]
    # The embedded store has no semantic ranker; the thoughts say so, and name `approach`.
    assert "Search options not applied" in read["thoughts"]
    assert "context.approach" in read["thoughts"]


def test_the_component_s_overrides_are_honoured(client, llm):
    llm.streams.append(ANSWER)

    body = post(client, stream=False, context=CONTEXT | {"top": 2, "retrieval_mode": "text"}).json()

    context = body["choices"][0]["context"]
    assert len(context["data_points"]["text"]) == 2
    [search] = [t for t in context["thoughts"] if t["title"] == "Generated search query"]
    assert search["props"]["retrieval_mode"] == "text" and search["props"]["top"] == 2


def test_every_citation_of_an_answer_previews_at_the_content_route(client, llm):
    llm.streams.append(ANSWER)

    answer = read_answer(post(client, stream=False).json())

    for citation in citations(answer["text"]):
        page = client.get(f"{API}/content/{citation}")
        assert page.status_code == 200
        [point] = [p for p in answer["data_points"] if p.startswith(f"{citation}: ")]
        title = point.split(": ", 1)[1].split(". ", 1)[0]
        assert f"<title>{title}</title>" in page.text


@pytest.mark.parametrize("stream", [False, True], ids=["one answer", "stream"])
def test_what_the_component_renders_as_html_has_nothing_that_could_run(client, llm, stream):
    hostile = 'Which <img src=x onerror="alert(1)"> mushroom dish?'
    llm.streams.append(["Try the Mushroom risotto [mushroom-risotto], <b>now</b>.", "\n<<Is it spicy?>>"])

    response = post(client, stream=stream, question=hostile)

    read = read_stream(json_lines(response.text)) if stream else read_answer(response.json())
    for html in (read["thoughts"], read["text"]):
        assert "<img" not in html and "<b>" not in html and "<script" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in read["thoughts"]
    assert "Try the Mushroom risotto [mushroom-risotto], &lt;b&gt;now&lt;/b&gt;." in read["text"]
    assert read["questions"] == ["Is it spicy?"]


def test_a_follow_up_question_can_hold_no_markup():
    # The model's follow-ups never hold `<` or `>` (app/chat/followups.py splits them off at
    # those), and the pieces would not let one through if it did.
    assert "".join(component.followup_pieces(["Is it <script>?", "<>"])) == "\n\n<<Is it script?>>\n"


def test_a_failure_during_the_stream_is_a_line_the_component_reads(client, llm):
    llm.streams.append(
        ["Try the Mushroom risotto [mushroom-risotto]. ", "Or", UpstreamError("The model failed.")]
    )

    read = read_stream(json_lines(post(client, stream=True).text))

    assert read["error"] == ("The model failed.", 502)


# The citation preview.

PWNED = Recipe(
    id="pwned-pie",
    title="Pie <script>alert(1)</script>",
    description='"><img src=x onerror=alert(2)>',
    ingredients=["1 <iframe src=//evil.example>"],
    steps=["</style><script>alert(3)</script>", "<a href=javascript:alert(4)>bake</a>"],
    total_minutes=40,
    servings="4",
)


class OneRecipe:
    async def get_many(self, ids: list[str]) -> list[Recipe]:
        return [PWNED] if PWNED.id in ids else []


@pytest.fixture
def pwned(client, llm, named):
    use_services(Services(llm=llm, retriever=SimpleNamespace(store=OneRecipe()), named=named))  # type: ignore[arg-type]
    return client


def test_the_content_page_shows_a_recipe_with_everything_in_it_escaped(pwned):
    page = pwned.get(f"{API}/content/pwned-pie")

    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    text = page.text
    for tag in ("<script", "<img", "<iframe", "<a "):
        assert tag not in text.lower()
    assert "<li>&lt;/style&gt;&lt;script&gt;alert(3)&lt;/script&gt;</li>" in text
    assert "<title>Pie &lt;script&gt;alert(1)&lt;/script&gt;</title>" in text
    assert "<li>1 &lt;iframe src=//evil.example&gt;</li>" in text
    assert "40 min in all" in text


def test_the_content_page_is_safe_to_frame_and_can_run_nothing(pwned):
    page = pwned.get(f"{API}/content/pwned-pie")

    policy = page.headers["content-security-policy"]
    directives = {name: value for name, _, value in (d.strip().partition(" ") for d in policy.split(";"))}
    assert directives["default-src"] == "'none'"
    assert "script-src" not in directives and "sandbox" in directives
    assert directives["frame-ancestors"] == "'self'"
    assert "x-frame-options" not in page.headers
    # The one style allowed is the page's own, by its hash.
    [style] = re.findall(r"<style>(.*?)</style>", page.text, flags=re.S)
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert directives["style-src"] == f"'sha256-{digest}'"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["x-request-id"]


@pytest.mark.parametrize(
    "citation", ["no-such-recipe", "Northwind_Benefits.pdf#page=2", "Mushroom-Risotto", "x" * 300]
)
def test_an_unknown_citation_is_a_json_404(client, citation):
    page = client.get(f"{API}/content/{citation}")

    assert page.status_code == 404
    assert page.json() == {"error": "There is no recipe with that citation."}
    assert page.headers["x-request-id"]


def test_a_citation_that_is_a_path_is_a_json_404_too(client):
    page = client.get(f"{API}/content/..%2F..%2Fetc%2Fpasswd")

    assert page.status_code == 404
    assert set(page.json()) == {"error"}
    assert page.headers["x-request-id"]
