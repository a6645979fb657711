"""POST /api/chat takes two kinds of body: the app's own `{userMessage, conversation}` and an
AI chat protocol's `{messages, ...}`, in one of its dialects (app/protocol/dialects.py);
POST /api/chat/stream takes the current protocol's only. The body is read once, checked as
every body is (content type, size, encoding, syntax), and then validated as the shape it has."""

from __future__ import annotations

from starlette.requests import Request

from app.http.bodies import ChatRequest
from app.http.edge import ErrorFormat, read_json_object, validated
from app.protocol.chat_protocol import speaks_protocol
from app.protocol.dialects import ProtocolCall, dialect_of, unused_fields
from app.settings import Settings


async def read_chat_body(
    request: Request, settings: Settings, errors: ErrorFormat, *, stream_route: bool = False
) -> ChatRequest | ProtocolCall:
    """The body as the shape it has; `errors` learns how this exchange's errors are written."""
    # Read and checked once, then validated once, as the shape it has.
    data = await read_json_object(request, settings)
    if not stream_route and not speaks_protocol(data):
        # The same limits, and the same strictness, as for any other body.
        return validated(ChatRequest, data, settings)
    dialect = dialect_of(data, stream_route=stream_route)
    errors.nested = dialect.nested_errors
    body = validated(dialect.request_model, data, settings)
    return ProtocolCall(body, dialect, tuple(unused_fields(data, dialect)))
