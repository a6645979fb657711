"""POST /api/chat takes two bodies: the app's own `{userMessage, conversation}` and the AI chat
app protocol's `{messages, ...}`. The body is read once, checked as every body is (content
type, size, encoding, syntax), and then validated as the shape it has."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from starlette.requests import Request

from app.http.bodies import ChatRequest
from app.http.edge import read_body, validated
from app.protocol.chat_protocol import ChatProtocolRequest, speaks_protocol
from app.settings import Settings


class JsonObject(BaseModel):
    """Any JSON object, kept whole, until its shape is known."""

    model_config = ConfigDict(extra="allow")


async def read_chat_body(request: Request, settings: Settings) -> ChatRequest | ChatProtocolRequest:
    data = dict((await read_body(request, JsonObject, settings)).model_extra or {})
    model: type[ChatRequest | ChatProtocolRequest] = (
        ChatProtocolRequest if speaks_protocol(data) else ChatRequest
    )
    # The same limits, and the same strictness, as for any other body.
    return validated(model, data, settings)
