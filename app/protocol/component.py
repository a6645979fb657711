"""What the chat-component of Azure-Samples/azure-search-openai-javascript reads beyond the
2024-01-28 shapes: the context at `choices[0].message.context` (`choices[0].delta.context` in a
stream), with `thoughts` as one HTML string, and follow-up questions as `<<question>>` lines at
the end of the answer.

The component renders the thoughts and the answer as HTML (lit's `unsafeHTML`), so everything
in them that comes from recipes, users or the model is escaped here: a recipe or an answer
holding `<img onerror=...>` shows as text. The data points it renders as text, so they are
left as they are."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any


def escape(text: str) -> str:
    """Text safe inside HTML: no `<`, `>` or `&` of its own (escaped piece by piece, a stream
    stays safe however it is cut)."""
    return html.escape(text, quote=False)


def _block(value: Any) -> str:
    if isinstance(value, str):
        return f"<p>{html.escape(value)}</p>"
    return f"<pre>{html.escape(json.dumps(value, ensure_ascii=False, indent=2))}</pre>"


def thoughts_html(thoughts: Sequence[dict[str, Any]]) -> str:
    """The thoughts as HTML: a heading per step, its description, and its details."""
    parts = []
    for thought in thoughts:
        parts += [f"<h4>{html.escape(str(thought['title']))}</h4>", _block(thought["description"])]
        if thought.get("props"):
            parts.append(_block(thought["props"]))
    return "".join(parts)


def message_context(context: dict[str, Any], followups: list[str] | None = None) -> dict[str, Any]:
    """The context where the component reads it; `data_points.text` as the 2024-01-28 context has it."""
    shown: dict[str, Any] = {
        "data_points": context["data_points"],
        "thoughts": thoughts_html(context["thoughts"]),
    }
    return shown | ({"followup_questions": followups} if followups is not None else {})


def followup_pieces(questions: Sequence[str]) -> list[str]:
    """The follow-up questions as the component finds them in an answer: `<<question>>` lines.
    In a stream they go as these pieces, since the component's stream reader takes a piece with
    `<<` for a marker and a piece with `>` and a line break for the end of a question. No
    question may hold `<` or `>`: they would end it early, or make markup of it."""
    pieces: list[str] = []
    for question in questions:
        if text := question.replace("<", "").replace(">", "").strip():
            # Not escaped: the component shows the questions as text, where `&amp;` would show.
            pieces += ["\n\n<<" if not pieces else "<<", text, ">>\n"]
    return pieces


def stream_error(status: int, message: str) -> dict[str, Any]:
    """A stream's error as the component reads it: `error` (that there is one), `message` and
    `statusCode` (a 400 shows as a request it cannot answer, anything else as a fault)."""
    return {"error": message, "message": message, "statusCode": status}
