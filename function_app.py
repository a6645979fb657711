"""The Azure Functions app (Python v2 programming model): routes only.

Each route parses its body, calls the core in `app/`, and shapes the response. The HTTP types
are those of `azurefunctions-extensions-http-fastapi` (Starlette's), chosen so that streaming
responses need no change of types; on Azure they need PYTHON_ENABLE_INIT_INDEXING=1.
"""

from __future__ import annotations

import azure.functions as func
from azurefunctions.extensions.http.fastapi import JSONResponse, Request, Response

from app.chat import answers
from app.chat.understanding import understand
from app.http.bodies import (
    ChatRequest,
    ChatResponse,
    ReformulateRequest,
    ReformulateResponse,
    RetrievedRecipe,
    RetrieveRequest,
    RetrieveResponse,
    Source,
)
from app.http.chat_body import read_chat_body
from app.http.edge import NOTHING_HERE, ApiError, ErrorFormat, api_endpoint, json_endpoint, require_admin
from app.indexing import routes
from app.indexing.pipeline import IndexingReport
from app.protocol import chat_protocol, rendering
from app.protocol.citation_page import citation_page
from app.recipes import Recipe
from app.services import Services, get_services
from app.settings import get_settings

app = func.FunctionApp(http_auth_level=func.AuthLevel.ANONYMOUS)
settings = get_settings()


@app.route(route="chat/reformulate", methods=[func.HttpMethod.POST])
async def chat_reformulate(req: Request) -> Response:
    async def run(body: ReformulateRequest, services: Services) -> ReformulateResponse:
        retriever = services.retriever
        understood = await understand(services.llm, body.userMessage, body.conversation, settings, retriever)
        rewrite, reading = understood.rewrite, understood.reading
        titles = (await retriever.names.get()).titles
        return ReformulateResponse(
            question=rewrite.question,
            recipes=[Source(id=i, title=titles[i]) for i in rewrite.recipe_ids if i in titles],
            carried=list(rewrite.carried),
            rewritten_by=rewrite.by,
            searched=reading.text,
            # The notes of what was not applied stay out, so that a client can send the
            # filters back as they are (a request may not set them).
            filters=reading.filters.model_copy(update={"not_applied": ()}),
        )

    return await json_endpoint(req, ReformulateRequest, settings, run)


@app.route(route="chat", methods=[func.HttpMethod.POST])
async def chat(req: Request) -> Response:
    """The app's own `{userMessage, conversation}`, or an AI chat protocol's `{messages}` in
    one of its dialects (app/protocol/dialects.py)."""
    return await answer_chat(req, stream_route=False)


@app.route(route="chat/stream", methods=[func.HttpMethod.POST])
async def chat_stream(req: Request) -> Response:
    """The current AI chat protocol's stream (`getStreamedCompletion` of its client)."""
    return await answer_chat(req, stream_route=True)


async def answer_chat(req: Request, *, stream_route: bool) -> Response:
    errors = ErrorFormat(nested=stream_route)

    async def run() -> ChatResponse | Response:
        body = await read_chat_body(req, settings, errors, stream_route=stream_route)
        services = await get_services(settings)
        event_stream = chat_protocol.wants_event_stream(req.headers.get("accept", ""))
        # One answer pipeline (app/chat/answers.py) for every body; only the shapes differ.
        if isinstance(body, ChatRequest):
            started = await answers.start_app_answer(
                services.llm,
                services.retriever,
                await services.names(),
                body.userMessage,
                body.conversation,
                settings,
                answers.reading_sent(body),
            )
            if event_stream:
                # The app body streams as server-sent events when asked (the page does).
                return rendering.event_response(answers.app_events(started), event_stream=True)
            return await answers.chat_response(started)
        answer = await answers.start_protocol_answer(
            services.llm, services.retriever, await services.names(), body.request, settings
        )
        if stream_route or body.request.stream:
            return rendering.streaming_response(answer, body, event_stream=event_stream)
        return await rendering.completion(answer, body)

    return await api_endpoint(req, run, errors=errors)


@app.route(route="content/{citation}", methods=[func.HttpMethod.GET])
async def citation_content(req: Request) -> Response:
    """A cited recipe as an HTML page, for the chat-component's citation preview."""

    async def run() -> Response:
        return await citation_page(await get_services(settings), req.path_params["citation"])

    return await api_endpoint(req, run)


@app.route(route="retrieve", methods=[func.HttpMethod.POST])
async def retrieve(req: Request) -> Response:
    async def run(body: RetrieveRequest, services: Services) -> RetrieveResponse:
        retrieval = await services.retriever.retrieve_question(
            body.query,
            body.top or settings.search_top,
            mode=body.retrieval_mode,
            filters=body.filters,
            read_filters=body.read_filters,
        )
        return RetrieveResponse(
            searched=retrieval.searched,
            filters=retrieval.filters,
            results=[RetrievedRecipe(score=f.score, recipe=f.recipe) for f in retrieval.found],
        )

    return await json_endpoint(req, RetrieveRequest, settings, run)


@app.route(route="recipes/{id}", methods=[func.HttpMethod.GET])
async def get_recipe(req: Request) -> Response:
    async def run() -> Recipe:
        return await routes.get_recipe(await get_services(settings), req.path_params["id"])

    return await api_endpoint(req, run)


# Changing the catalog takes the admin key (ADMIN_KEY), which the app checks itself, on
# every host and whatever the spelling of the path; on Azure a function key as well, and
# the admin role through the Static Web App (staticwebapp.config.json).
@app.route(route="recipes/index", methods=[func.HttpMethod.POST], auth_level=func.AuthLevel.FUNCTION)
async def index_recipes(req: Request) -> Response:
    async def run() -> IndexingReport:
        require_admin(req, settings)
        return await routes.index_catalog(req, await get_services(settings), settings)

    # No deadline: cutting a catalog load short would leave it half written; it is an admin
    # call, bounded by the embedding retries and host.json's functionTimeout.
    return await api_endpoint(req, run, timed=False)


@app.route(route="recipes/{id}", methods=[func.HttpMethod.DELETE], auth_level=func.AuthLevel.FUNCTION)
async def delete_recipe(req: Request) -> Response:
    async def run() -> IndexingReport:
        require_admin(req, settings)
        return await routes.delete_recipe(await get_services(settings), req.path_params["id"])

    return await api_endpoint(req, run)


@app.route(route="openapi.json", methods=[func.HttpMethod.GET])
async def openapi_document(req: Request) -> Response:
    """The OpenAPI 3.1 document of these functions, generated from the models (app/http/openapi.py)."""

    async def run() -> Response:
        # Imported here: building the document's models is cold-start time no chat needs.
        from app.http import openapi

        return JSONResponse(openapi.document())

    return await api_endpoint(req, run)


# Azure's Functions host answers a path that no function has with a 404 of its own, with no
# JSON and no request id. This catch-all, which its routing tries after every other route,
# answers as every other error does. The local host does not mount it: its router answers
# unknown paths, and wrong methods with a 405, the same way itself (local_host.routing_error).
@app.route(route="{*path}", methods=list(func.HttpMethod))
async def not_found(req: Request) -> Response:
    async def run() -> Response:
        raise ApiError(404, NOTHING_HERE)

    return await api_endpoint(req, run)
