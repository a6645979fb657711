"""The OpenAPI document: served, complete (every registered function, nothing else), and true
to the responses the app really sends."""

from __future__ import annotations

import json

import function_app
from app.http.bodies import ChatAnswerEnd, ChatDelta
from app.http.openapi import OPERATIONS, document
from app.protocol.responses import ChatCompletion, ChatCompletionChunk
from local_host import is_catch_all, registered_functions, route_prefix
from tests.readers import json_lines, server_sent_events
from tests.support import ScriptedChatModel


def registered_routes() -> dict[tuple[str, str], str]:
    """(path, method) -> function name, as the local host mounts them (and as Azure does)."""
    routes = {}
    for function in registered_functions(function_app.app):
        trigger = function.get_trigger()
        if is_catch_all(trigger.route):
            continue  # the fallback for unknown paths is no operation
        for method in trigger.methods:
            path = f"{route_prefix()}/{trigger.route}"
            routes[(path, str(getattr(method, "value", method)).lower())] = function.get_function_name()
    return routes


def test_every_registered_function_is_documented_and_nothing_else():
    documented = {key: operation.function for key, operation in OPERATIONS.items()}

    assert documented == registered_routes()


def test_the_document_is_served_as_json_with_a_request_id(client):
    response = client.get("/api/openapi.json")

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-request-id"]
    assert response.json() == json.loads(json.dumps(document()))
    assert response.json()["openapi"] == "3.1.0"


def test_every_error_status_is_the_error_body():
    doc = document()
    error_schema = doc["components"]["schemas"]["ErrorBody"]

    assert error_schema["required"] == ["error"]
    assert error_schema["additionalProperties"] is False
    for status, response in doc["components"]["responses"].items():
        assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
        assert "x-request-id" in response["headers"], status
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            assert "500" in operation["responses"], f"{method} {path}"


def test_chat_documents_every_body_and_both_stream_framings():
    chat = document()["paths"]["/api/chat"]["post"]

    bodies = chat["requestBody"]["content"]["application/json"]["schema"]["anyOf"]
    assert bodies == [
        {"$ref": "#/components/schemas/ChatRequest"},
        {"$ref": "#/components/schemas/ChatProtocolRequest"},
        {"$ref": "#/components/schemas/CurrentProtocolRequest"},
    ]
    ok = chat["responses"]["200"]["content"]
    assert set(ok) == {"application/json", "application/json-lines", "text/event-stream"}
    assert ok["application/json-lines"]["x-item-schema"]["anyOf"][0] == {
        "$ref": "#/components/schemas/ChatCompletionChunk"
    }


def test_the_current_protocol_s_stream_and_the_citation_page_are_documented():
    paths = document()["paths"]
    stream = paths["/api/chat/stream"]["post"]
    assert stream["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CurrentProtocolRequest"
    }
    ok = stream["responses"]["200"]["content"]
    assert set(ok) == {"application/jsonl", "text/event-stream"}
    assert ok["application/jsonl"]["x-item-schema"]["anyOf"][0] == {
        "$ref": "#/components/schemas/CurrentDelta"
    }
    chat_ok = paths["/api/chat"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]["anyOf"]
    assert {"$ref": "#/components/schemas/CurrentCompletion"} in chat_ok
    page = paths["/api/content/{citation}"]["get"]
    assert set(page["responses"]["200"]["content"]) == {"text/html"}
    assert "404" in page["responses"]


def protocol_model() -> ScriptedChatModel:
    model = ScriptedChatModel()
    model.streams.append(["The quickest is ", "[chicken-soup].", "\n<<Is it spicy?>>"])
    return model


def protocol_body(stream: bool) -> dict:
    return {
        "messages": [{"role": "user", "content": "Which soup is the quickest to cook?"}],
        "stream": stream,
        "context": {"overrides": {"suggest_followup_questions": True}},
    }


def test_a_real_protocol_completion_matches_its_documented_model(client, llm, retriever):
    from app.services import Services, use_services

    use_services(Services(llm=protocol_model(), retriever=retriever))

    response = client.post("/api/chat", json=protocol_body(stream=False))

    assert response.status_code == 200
    ChatCompletion.model_validate(response.json())  # the models forbid fields they do not name


def test_every_line_of_a_real_stream_matches_its_documented_model(client, retriever):
    from app.services import Services, use_services

    for accept, read in (("application/json", json_lines), ("text/event-stream", server_sent_events)):
        use_services(Services(llm=protocol_model(), retriever=retriever))

        response = client.post("/api/chat", json=protocol_body(stream=True), headers={"accept": accept})

        assert response.status_code == 200
        chunks = read(response.text)
        assert len(chunks) >= 3
        for chunk in chunks:
            ChatCompletionChunk.model_validate(chunk)


def test_the_app_body_answer_matches_its_documented_model(client, llm):
    llm.streams.append(["Chicken soup [chicken-soup]."])

    response = client.post("/api/chat", json={"userMessage": "Which soup is the quickest to cook?"})

    assert response.status_code == 200
    assert set(response.json()) == set(document()["components"]["schemas"]["ChatResponse"]["properties"])


def test_every_event_of_a_real_app_body_stream_matches_its_documented_models(client, llm):
    llm.streams.append(["Chicken soup [chicken-soup] is quick. ", "It is warming."])

    response = client.post(
        "/api/chat",
        json={"userMessage": "Which soup is the quickest to cook?"},
        headers={"accept": "text/event-stream"},
    )

    assert response.status_code == 200
    events = server_sent_events(response.text)
    documented = document()["paths"]["/api/chat"]["post"]["responses"]["200"]["content"]["text/event-stream"]
    refs = [item["$ref"] for item in documented["x-item-schema"]["anyOf"]]
    assert "#/components/schemas/ChatDelta" in refs and "#/components/schemas/ChatAnswerEnd" in refs
    for event in events[:-1]:
        ChatDelta.model_validate(event)
    ChatAnswerEnd.model_validate(events[-1])
