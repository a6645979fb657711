"""The Azure Functions app (Python v2 programming model): routes only.

Each route parses its body, calls the core in `app/`, and shapes the response. The HTTP types
are those of `azurefunctions-extensions-http-fastapi` (Starlette's), chosen so that streaming
responses need no change of types; on Azure they need PYTHON_ENABLE_INIT_INDEXING=1.
"""

from __future__ import annotations

import azure.functions as func
from azurefunctions.extensions.http.fastapi import Request, Response

from app import answerer, query_rewriter
from app.api_models import ChatRequest, ChatResponse, ReformulateResponse
from app.http_api import json_endpoint
from app.services import Services
from app.settings import get_settings

app = func.FunctionApp(http_auth_level=func.AuthLevel.ANONYMOUS)
settings = get_settings()


@app.route(route="chat/reformulate", methods=[func.HttpMethod.POST])
async def chat_reformulate(req: Request) -> Response:
    async def run(body: ChatRequest, services: Services) -> ReformulateResponse:
        rewrite = await query_rewriter.reformulate(
            services.llm, body.userMessage, body.conversation, settings
        )
        return ReformulateResponse(question=rewrite.question)

    return await json_endpoint(req, ChatRequest, settings, run)


@app.route(route="chat", methods=[func.HttpMethod.POST])
async def chat(req: Request) -> Response:
    async def run(body: ChatRequest, services: Services) -> ChatResponse:
        return await answerer.answer(
            services.llm, services.retriever, body.userMessage, body.conversation, settings
        )

    return await json_endpoint(req, ChatRequest, settings, run)
