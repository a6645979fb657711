"""Citations and follow-up questions in a plain-text answer, checked as the answer streams."""

from __future__ import annotations

from itertools import pairwise

import pytest

from app.chat.citations import CitationFilter, check_citations
from app.chat.followups import FollowupSplitter

RETRIEVED = ["mushroom-risotto", "mushroom-sauce"]


def fed_in_pieces(answer: str, *cuts: int) -> str:
    citations = CitationFilter(RETRIEVED)
    bounds = [0, *cuts, len(answer)]
    shown = [citations.feed(answer[start:end]) for start, end in pairwise(bounds)]
    return "".join(shown) + citations.flush()


def test_a_citation_of_a_retrieved_recipe_is_kept():
    assert (
        check_citations("Try the risotto [mushroom-risotto].", RETRIEVED)
        == "Try the risotto [mushroom-risotto]."
    )


def test_a_citation_of_anything_else_is_removed_with_the_space_before_it():
    answer = "Try the soup [made-up-soup]. Or the pie [apple-pie] tonight [1]!"

    assert check_citations(answer, RETRIEVED) == "Try the soup. Or the pie tonight!"


def test_recipes_cited_in_one_bracket_are_cited_one_by_one_if_retrieved():
    answer = "Both [mushroom-risotto, made-up; mushroom-sauce mushroom-risotto] work."

    assert check_citations(answer, RETRIEVED) == "Both [mushroom-risotto][mushroom-sauce] work."


def test_a_model_that_copies_the_prompt_s_id_label_still_cites_the_recipe():
    assert check_citations("Risotto [id: mushroom-risotto].", RETRIEVED) == "Risotto [mushroom-risotto]."


def test_a_bracket_that_spans_lines_or_never_closes_is_prose_and_shown_as_it_was():
    assert check_citations("Note [see\nbelow] here", RETRIEVED) == "Note [see\nbelow] here"
    assert check_citations("Ends with [mushroom-ris", RETRIEVED) == "Ends with [mushroom-ris"


@pytest.mark.parametrize(
    "answer",
    [
        "Try the risotto [mushroom-risotto] or the soup [made-up-soup].",
        "Both [mushroom-risotto, mushroom-sauce] work.  \n Or [1]  none.",
    ],
)
def test_an_answer_split_anywhere_comes_out_as_it_does_whole(answer):
    whole = check_citations(answer, RETRIEVED)

    for cut in range(len(answer) + 1):
        assert fed_in_pieces(answer, cut) == whole
    assert fed_in_pieces(answer, *range(1, len(answer))) == whole


def test_text_inside_an_open_bracket_is_held_until_it_closes():
    citations = CitationFilter(RETRIEVED)

    assert citations.feed("Try [mush") == "Try"
    assert citations.feed("room-risotto") == ""
    assert citations.feed("] now") == " [mushroom-risotto] now"


def test_follow_up_questions_are_split_off_even_when_their_markers_are_split():
    splitter = FollowupSplitter()

    shown = [splitter.feed(p) for p in ["Try the risotto.\n<", "<How long?>", ">\n<<Is it vegan?>>"]]

    assert "".join(shown) + splitter.flush() == "Try the risotto.\n"
    assert splitter.questions() == ["How long?", "Is it vegan?"]


def test_a_lone_angle_bracket_is_part_of_the_answer():
    splitter = FollowupSplitter()

    shown = splitter.feed("Serves <") + splitter.feed(" 4 people, and then <") + splitter.flush()

    assert shown == "Serves < 4 people, and then <"
    assert splitter.questions() == []


def test_at_most_three_distinct_follow_up_questions_are_kept():
    splitter = FollowupSplitter()

    splitter.feed("Done. <<A?>> <<A?>> <<B?>> <<  >> <<C?>> <<D?>>")

    assert splitter.questions() == ["A?", "B?", "C?"]
