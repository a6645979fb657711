"""The same pipeline as users would build it with LangChain, served over HTTP like ours.

`create_history_aware_retriever` + `create_retrieval_chain`, with the prompts of LangChain's
own conversational-RAG tutorial, on `ChatOpenAI` against the same upstream, searching the
same embedded index through the app's `Retriever` (wrapped as a LangChain `BaseRetriever`),
each recipe shown to the model as the app shows it. Like the tutorial, the whole history goes
to both calls. It is served by the same Starlette and uvicorn as the local host, so the two
differ only in what happens between the request and the model.

Run: `OPENAI_BASE_URL=... OPENAI_CHAT_MODEL=... LOCAL_DB_PATH=... python -m bench.langchain_app --port N`
Body: `{"messages": [{"role": "user", "content": "..."}, ...]}` → `{"answer", "sources"}`.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from langchain_classic.chains import create_history_aware_retriever, create_retrieval_chain
from langchain_classic.chains.combine_documents import create_stuff_documents_chain
from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app.chat.answers import ANSWER_MAX_TOKENS, prompt_recipe
from app.search.retrieval import Retriever
from app.services import build_retriever
from app.settings import get_settings

# LangChain's tutorial prompts, word for word.
CONTEXTUALIZE_SYSTEM = (
    "Given a chat history and the latest user question which might reference context in the chat "
    "history, formulate a standalone question which can be understood without the chat history. Do "
    "NOT answer the question, just reformulate it if needed and otherwise return it as is."
)
ANSWER_SYSTEM = (
    "You are an assistant for question-answering tasks. Use the following pieces of retrieved context "
    "to answer the question. If you don't know the answer, say that you don't know. Use three sentences "
    "maximum and keep the answer concise.\n\n{context}"
)


class RecipeRetriever(BaseRetriever):
    """The app's retriever, so both pipelines search the same index the same way."""

    retriever: Any
    top: int = 3
    prompt_chars: int = 1800

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        raise NotImplementedError("the benchmark calls the chain asynchronously")

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        retriever: Retriever = self.retriever
        retrieval = await retriever.retrieve_question(query, self.top)
        return [
            Document(page_content=prompt_recipe(f.recipe, self.prompt_chars), metadata={"id": f.recipe.id})
            for f in retrieval.found
        ]


def build_chain() -> Runnable:
    settings = get_settings()
    # The same deterministic filter reading as ours would do with JSON mode: no extra call.
    retriever = RecipeRetriever(
        retriever=build_retriever(settings),
        top=settings.search_top,
        prompt_chars=settings.recipe_prompt_chars,
    )
    llm = ChatOpenAI(
        model=settings.openai_chat_model or "",
        base_url=settings.openai_base_url,
        api_key=os.environ.get("OPENAI_API_KEY", "none"),
        temperature=0,
        max_tokens=ANSWER_MAX_TOKENS,
        max_retries=settings.llm_max_retries,
        timeout=settings.llm_timeout_seconds,
    )
    contextualize = ChatPromptTemplate.from_messages(
        [("system", CONTEXTUALIZE_SYSTEM), MessagesPlaceholder("chat_history"), ("human", "{input}")]
    )
    answer = ChatPromptTemplate.from_messages(
        [("system", ANSWER_SYSTEM), MessagesPlaceholder("chat_history"), ("human", "{input}")]
    )
    history_aware = create_history_aware_retriever(llm, retriever, contextualize)
    return create_retrieval_chain(history_aware, create_stuff_documents_chain(llm, answer))


def create_app() -> Starlette:
    chain = build_chain()

    async def chat(request: Request) -> JSONResponse:
        messages = (await request.json())["messages"]
        history = [(m["role"], m["content"]) for m in messages[:-1]]
        result = await chain.ainvoke({"input": messages[-1]["content"], "chat_history": history})
        sources = [doc.metadata["id"] for doc in result["context"]]
        return JSONResponse({"answer": result["answer"], "sources": sources})

    return Starlette(routes=[Route("/chat", chat, methods=["POST"])])


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8200)
    args = parser.parse_args()
    uvicorn.run(create_app(), host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
