"""Which part of the conversation goes to the LLM: the last N turns, within a token budget.

Both limits keep a prompt from growing with the conversation. Tokens are estimated, not
counted: a tokenizer per provider would mean shipping (or downloading) its vocabulary, and
the budget only has to bound the prompt, not fill it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.http.bodies import Message

# English text averages about four characters per token with GPT-style tokenizers; three
# keeps the estimate on the safe side for other languages and smaller vocabularies.
CHARS_PER_TOKEN = 3


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 1


def recent_history(conversation: Sequence[Message], max_messages: int, max_tokens: int) -> list[Message]:
    """The newest non-empty messages, at most `max_messages` of them and `max_tokens` in all.

    The window is contiguous: it stops at the first message (going back in time) that does
    not fit, because a turn makes little sense without the turns between it and now.
    """
    kept: list[Message] = []
    budget = max_tokens
    for message in reversed([m for m in conversation if m.content.strip()]):
        if len(kept) == max_messages:
            break
        cost = estimate_tokens(message.content)
        if cost > budget:
            break
        kept.append(message)
        budget -= cost
    kept.reverse()
    return kept
