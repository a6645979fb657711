"""The current AI chat protocol's responses (the TypeSpec of microsoft/ai-chat-protocol, read by
`@microsoft/ai-chat-protocol`'s client): one `{message, context, sessionState}`, or at
/api/chat/stream JSON lines of `{delta, context?, sessionState?}`. The context is the app's to
define: the 2024-01-28 context (data points, thoughts), and at the end the finish reason, the
follow-up questions and the usage."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from app.chat.answers import StartedAnswer

# The media type of the current protocol's stream (its TypeSpec's `contentType`).
JSONL = "application/jsonl"


def message(content: str) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def ending(answer: StartedAnswer) -> dict[str, Any]:
    """What is known once the answer is written: why it ended, its follow-up questions (when
    asked for) and the usage (when the provider reports it)."""
    reply = answer.reply
    usage = reply.usage
    end: dict[str, Any] = {"finish_reason": reply.finish_reason}
    if reply.followup_questions is not None:
        end["followup_questions"] = reply.followup_questions
    if usage is not None:
        end["usage"] = {
            "completion_tokens": usage.completion_tokens,
            "prompt_tokens": usage.prompt_tokens,
            "total_tokens": usage.total_tokens,
        }
    return end


def completion(
    answer: StartedAnswer, content: str, context: dict[str, Any], session_state: Any
) -> dict[str, Any]:
    return {"message": message(content), "context": context | ending(answer), "sessionState": session_state}


async def deltas(
    answer: StartedAnswer, context: dict[str, Any], session_state: Any
) -> AsyncGenerator[dict[str, Any], None]:
    """The role, the context and the session state first (known before the model writes), then
    one delta per piece of the answer, and last the ending."""
    yield {"delta": {"role": "assistant"}, "context": context, "sessionState": session_state}
    async for piece in answer.reply:
        yield {"delta": {"content": piece}}
    yield {"delta": {}, "context": ending(answer)}
