"""The OpenAPI 3.1 document of every HTTP function, served at GET /api/openapi.json.

Every schema in it is generated from the pydantic models that parse the requests and shape
the responses; nothing is written twice by hand. The table below adds only what the models
cannot say: which model goes with which route and method, and which statuses a route
answers with. It is not a routing table (function_app.py's decorators are): the Functions
worker lists an app's functions once and refuses a second listing, so the document cannot
read them at runtime. tests/test_openapi.py checks that the table and the registered
functions hold exactly the same routes and methods.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from pydantic import BaseModel, ConfigDict
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from app.http.bodies import (
    ChatAnswerEnd,
    ChatDelta,
    ChatRequest,
    ChatResponse,
    ErrorBody,
    ReformulateRequest,
    ReformulateResponse,
    RetrieveRequest,
    RetrieveResponse,
    StreamError,
)
from app.indexing.pipeline import IndexingReport
from app.protocol.chat_protocol import EVENT_STREAM, JSON_LINES, ChatProtocolRequest, CurrentProtocolRequest
from app.protocol.current import JSONL
from app.protocol.responses import ChatCompletion, ChatCompletionChunk, CurrentCompletion, CurrentDelta
from app.recipes import RECIPE_ID_PATTERN, Recipe

OPENAPI_VERSION = "3.1.0"
SCHEMAS = "#/components/schemas/"


class IndexingRequest(BaseModel):
    """The object form of POST /api/recipes/index. Items are checked one by one, and a bad
    one is reported in the result rather than refusing the request."""

    recipes: list[Recipe]
    force_indexing: bool = False
    allow_indexing: bool = True


class OpenApiDocument(BaseModel):
    """Any JSON object: the document describes itself no further."""

    model_config = ConfigDict(extra="allow")


STATUS_MEANINGS = {
    400: "The body or a parameter is invalid (the message names it), or the content filter flagged it.",
    401: "The admin key is missing (header `x-functions-key`).",
    403: "The admin key is wrong, or the admin routes are closed (ADMIN_KEY is not set).",
    404: "There is no recipe with that id (or citation).",
    408: "The body took too long to arrive (BODY_READ_SECONDS).",
    409: "The search index was built with another embedding model (`code`: `index_incompatible`).",
    413: "The body is over the size limit (a catalog load: or holds over MAX_INDEX_RECIPES recipes).",
    415: "The body is not of a content type the route takes.",
    500: "An unexpected fault; the details are only in the log, under the request id.",
    502: "A service the app depends on (language model, embeddings, search, store) failed.",
    503: "A service the app depends on is throttling.",
    504: "A service, or the request as a whole, took too long.",
}
BODY_ERRORS = (400, 408, 413, 415)
ADMIN_ERRORS = (401, 403)
UPSTREAM_ERRORS = (500, 502, 503, 504)


@dataclass(frozen=True)
class Operation:
    function: str  # the Python name of the function in function_app.py
    summary: str
    body: tuple[type[BaseModel], ...] = ()  # application/json, any one of these
    ok: tuple[type[BaseModel], ...] = ()  # the 200 body, any one of these
    errors: tuple[int, ...] = ()
    streams: type[BaseModel] | None = None  # each line or event of a streamed 200
    stream_type: str = JSON_LINES  # the media type of those lines
    html: bool = False  # the 200 is a text/html page
    # The events of the app's own body streamed as server-sent events (`Accept: text/event-stream`).
    app_events: tuple[type[BaseModel], ...] = ()
    json_lines_body: bool = False
    flags: tuple[str, ...] = ()  # boolean query parameters
    needs_key: bool = False


OPERATIONS: dict[tuple[str, str], Operation] = {
    ("/api/chat/reformulate", "post"): Operation(
        "chat_reformulate",
        "Rewrite the user's message into a standalone question",
        body=(ReformulateRequest,),
        ok=(ReformulateResponse,),
        errors=BODY_ERRORS + UPSTREAM_ERRORS,
    ),
    ("/api/chat", "post"): Operation(
        "chat",
        "Answer from the recipes: the app's own body, or an AI chat protocol's, in its dialect "
        "(2024-01-28, current, chat-component: docs/protocol.md)",
        body=(ChatRequest, ChatProtocolRequest, CurrentProtocolRequest),
        ok=(ChatResponse, ChatCompletion, CurrentCompletion),
        errors=(*BODY_ERRORS, 409, *UPSTREAM_ERRORS),
        streams=ChatCompletionChunk,
        app_events=(ChatDelta, ChatAnswerEnd),
    ),
    ("/api/chat/stream", "post"): Operation(
        "chat_stream",
        "The current AI chat protocol's stream of an answer (getStreamedCompletion)",
        body=(CurrentProtocolRequest,),
        errors=(*BODY_ERRORS, 409, *UPSTREAM_ERRORS),
        streams=CurrentDelta,
        stream_type=JSONL,
    ),
    ("/api/content/{citation}", "get"): Operation(
        "citation_content",
        "A cited recipe as an HTML page, safe to frame (the chat-component's citation preview)",
        html=True,
        errors=(404, *UPSTREAM_ERRORS),
    ),
    ("/api/retrieve", "post"): Operation(
        "retrieve",
        "Search the recipes, with no language model call",
        body=(RetrieveRequest,),
        ok=(RetrieveResponse,),
        errors=(*BODY_ERRORS, 409, *UPSTREAM_ERRORS),
    ),
    ("/api/recipes/{id}", "get"): Operation(
        "get_recipe", "One recipe, whole", ok=(Recipe,), errors=(400, 404, *UPSTREAM_ERRORS)
    ),
    ("/api/recipes/index", "post"): Operation(
        "index_recipes",
        "Validate, embed, store and index recipes, each with its own result",
        body=(IndexingRequest,),
        ok=(IndexingReport,),
        errors=(*BODY_ERRORS, *ADMIN_ERRORS, 409, *UPSTREAM_ERRORS),
        json_lines_body=True,
        flags=("force_indexing", "allow_indexing"),
        needs_key=True,
    ),
    ("/api/recipes/{id}", "delete"): Operation(
        "delete_recipe",
        "Remove a recipe from the index and the store",
        ok=(IndexingReport,),
        errors=(400, *ADMIN_ERRORS, 404, 409, *UPSTREAM_ERRORS),
        needs_key=True,
    ),
    ("/api/openapi.json", "get"): Operation(
        "openapi_document", "This document", ok=(OpenApiDocument,), errors=UPSTREAM_ERRORS
    ),
}


def one_of(refs: list[dict[str, Any]]) -> dict[str, Any]:
    return refs[0] if len(refs) == 1 else {"anyOf": refs}


SchemaRefs = dict[tuple[type[BaseModel], JsonSchemaMode], dict[str, Any]]


def json_schemas() -> tuple[SchemaRefs, dict[str, Any]]:
    """A `$ref` for every model the table names (requests as they are parsed, responses as
    they are written), and the shared definitions they point into."""
    wanted: list[tuple[type[BaseModel], JsonSchemaMode]] = [(ErrorBody, "serialization")]
    for operation in OPERATIONS.values():
        wanted += [(model, "validation") for model in operation.body]
        wanted += [(model, "serialization") for model in operation.ok]
        if operation.streams is not None:
            wanted += [(operation.streams, "serialization"), (StreamError, "serialization")]
        wanted += [(model, "serialization") for model in operation.app_events]
    refs, top = models_json_schema(list(dict.fromkeys(wanted)), ref_template=SCHEMAS + "{model}")
    # Keyed by the models given, all of them BaseModels (pydantic also takes its dataclasses).
    return cast(SchemaRefs, refs), top.get("$defs", {})


def operation_object(path: str, operation: Operation, refs: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {"operationId": operation.function, "summary": operation.summary}
    parameters = [
        {
            "name": name,
            "in": "path",
            "required": True,
            # A citation is any text an answer put in brackets; a recipe id has a pattern.
            "schema": {"type": "string"} | ({"pattern": RECIPE_ID_PATTERN} if name == "id" else {}),
        }
        for name in re.findall(r"{(\w+)}", path)
    ]
    parameters += [
        {"name": flag, "in": "query", "required": False, "schema": {"type": "boolean"}}
        for flag in operation.flags
    ]
    if parameters:
        result["parameters"] = parameters
    if operation.body or operation.json_lines_body:
        content: dict[str, Any] = {}
        if operation.body:
            content["application/json"] = {
                "schema": one_of([refs[(m, "validation")] for m in operation.body])
            }
        if operation.json_lines_body:
            content["application/jsonl"] = {
                "schema": {"type": "string", "description": "One recipe per line, as JSON."}
            }
        result["requestBody"] = {"required": True, "content": content}
    ok: dict[str, Any] = {}
    if operation.ok:
        ok["application/json"] = {"schema": one_of([refs[(m, "serialization")] for m in operation.ok])}
    if operation.html:
        ok["text/html"] = {"schema": {"type": "string"}}
    if operation.streams is not None:
        # OpenAPI 3.1 has no schema for the items of a stream (3.2's `itemSchema`); the
        # extension names it, and the tests validate every line of real streams against it.
        chunk, error = refs[(operation.streams, "serialization")], refs[(StreamError, "serialization")]
        ok[operation.stream_type] = {"schema": {"type": "string"}, "x-item-schema": {"anyOf": [chunk, error]}}
        # Server-sent events carry the protocol's chunks, or, for the app's own body, its deltas
        # and then the whole answer.
        events = [refs[(m, "serialization")] for m in operation.app_events]
        ok[EVENT_STREAM] = {"schema": {"type": "string"}, "x-item-schema": {"anyOf": [chunk, *events, error]}}
    responses: dict[str, Any] = {
        "200": {
            "description": "OK",
            "headers": {"x-request-id": {"$ref": "#/components/headers/RequestId"}},
            "content": ok,
        }
    }
    for status in operation.errors:
        responses[str(status)] = {"$ref": f"#/components/responses/Error{status}"}
    result["responses"] = responses
    if operation.needs_key:
        result["security"] = [{"functionKey": []}]
    return result


@cache
def document() -> dict[str, Any]:
    refs, definitions = json_schemas()
    paths: dict[str, dict[str, Any]] = {}
    for (path, method), operation in OPERATIONS.items():
        paths.setdefault(path, {})[method] = operation_object(path, operation, refs)
    error_ref = refs[(ErrorBody, "serialization")]
    used = sorted({status for operation in OPERATIONS.values() for status in operation.errors})
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "recipe-chat",
            "version": "1.0.0",
            "description": 'A RAG chat over a recipe catalog. Every error is `{"error": ...}`, '
            "and every response carries an `x-request-id` header. /api/chat speaks the app's own "
            "body and three dialects of the AI chat protocol, told apart by what the body holds "
            "(docs/protocol.md).",
        },
        "paths": paths,
        "components": {
            "schemas": definitions,
            "headers": {
                "RequestId": {
                    "description": "The caller's own request id if it sent a sane one, else a new one; "
                    "the log line of the request carries it too.",
                    "schema": {"type": "string"},
                }
            },
            "responses": {
                f"Error{status}": {
                    "description": STATUS_MEANINGS[status],
                    "headers": {"x-request-id": {"$ref": "#/components/headers/RequestId"}},
                    "content": {"application/json": {"schema": error_ref}},
                }
                for status in used
            },
            "securitySchemes": {
                # The admin key (ADMIN_KEY), which the app checks on every host; on Azure the
                # same header also carries the function key (auth_level=FUNCTION).
                "functionKey": {"type": "apiKey", "in": "header", "name": "x-functions-key"}
            },
        },
    }
