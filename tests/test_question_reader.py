"""The model reads the filters where it can: structured output, checked against the question."""

from __future__ import annotations

import json

from app.search.filters import RecipeFilters
from app.search.question_reader import READING_SCHEMA, ModelReader, RuleReader
from app.services import question_reader
from app.settings import Settings
from tests.support import ScriptedChatModel


def reading(search_text: str, **fields) -> str:
    nothing = {"vegetarian": None, "vegan": None, "gluten_free": None, "dairy_free": None}
    return json.dumps(
        {"search_text": search_text, **nothing, "max_total_minutes": None, "exclude": []} | fields
    )


async def test_the_model_is_asked_for_the_filters_as_structured_output():
    llm = ScriptedChatModel(reading("paella", max_total_minutes=45, vegetarian=True))

    read = await ModelReader(llm).read("a veggie paella, I've got 45 minutes")

    assert read.text == "paella"
    assert read.filters == RecipeFilters(vegetarian=True, max_total_minutes=45)
    [call] = llm.calls
    assert call["json_schema"] == READING_SCHEMA
    assert call["messages"][1] == {"role": "user", "content": "a veggie paella, I've got 45 minutes"}


async def test_the_model_cannot_exclude_what_the_question_never_said_nor_forbid_a_diet():
    llm = ScriptedChatModel(reading("beef", exclude=["stews", "onions"], vegan=False))

    read = await ModelReader(llm).read("beef but not stew")

    assert read.filters == RecipeFilters(exclude=("stews",))


async def test_an_unusable_reply_falls_back_to_the_rules():
    llm = ScriptedChatModel("Sure! The filters are: vegan.")

    read = await ModelReader(llm).read("vegan pasta without tomatoes")

    assert read == await RuleReader().read("vegan pasta without tomatoes")


def test_auto_asks_the_model_only_where_structured_output_is_there():
    llm = ScriptedChatModel()
    azure = Settings(
        azure_openai_endpoint="https://x.openai.azure.com", azure_openai_chat_deployment="gpt-4o-mini"
    )
    llama_server = Settings(
        openai_base_url="http://127.0.0.1:8080/v1", llm_response_format="json_object_schema"
    )

    assert isinstance(question_reader(azure, llm), ModelReader)
    assert isinstance(question_reader(llama_server, llm), RuleReader)
    assert isinstance(question_reader(Settings(), llm), RuleReader)  # the embedded model
    assert isinstance(question_reader(Settings(question_reader="model"), llm), ModelReader)
    assert isinstance(question_reader(azure.model_copy(update={"question_reader": "rules"}), llm), RuleReader)
