"""Questions understood: everyday intents, exclusions and variants, read as the catalog can search them."""

from __future__ import annotations

import json

import pytest

from app.search import intents as lexicon
from app.search.question_reader import READING_SCHEMA, ModelReader, read_question
from app.search.recipe_facts import course, facts, mild, uses_leftovers
from app.search.retrieval import Retriever
from tests.support import ScriptedChatModel


def test_every_intent_has_phrases_and_words_and_a_name_of_its_own():
    entries = json.loads(lexicon.LEXICON.read_text(encoding="utf-8"))["intents"]

    assert len({e["name"] for e in entries}) == len(entries)
    assert all(e["when"] and e["search"].split() for e in entries)
    properties = READING_SCHEMA["properties"]
    assert isinstance(properties, dict)
    assert properties["intents"]["items"]["enum"] == [e["name"] for e in entries]


@pytest.mark.parametrize(
    ("question", "intent", "word"),
    [
        ("something light for a hot day", "light", "salad"),
        ("comfort food for a cold evening", "comfort", "casserole"),
        ("comfort food for a cold evening", "warming", "stew"),
        ("a dish to impress guests", "impress", "roast"),
        ("An impressive main for Mother’s Day", "treat breakfast", "brunch"),
        ("and something sweet for after?", "dessert", "dessert"),
        ("and for pudding?", "dessert", "dessert"),
        ("something for a weeknight", "weeknight dinner", "main"),
        ("drinks for a party", "drink", "drink"),
        ("half a stale baguette every week, what can i do with it", "stale bread", "pudding"),
        ("6 very brown bananas staring at me, ideas?", "overripe bananas", "muffins"),
        ("something warm w booze in it for the grown-ups?", "hot drink", "mulled"),
        ("my husband just bought a smoker, what can he make in it", "smoker", "smoked"),
        ("what's the easiest loaf for a total beginner", "beginner", "simple"),
        ("those are all savoury — got a spanish sweet one?", "dessert", "dessert"),
        ("my mum's birthday is sunday, she loves lemon", "birthday", "dessert"),
        # Eating less meat is a wish, not a diet: it finds meatless dishes first, and hides none.
        ("dinner ideas? we're trying to eat less meat", "less meat", "lentils"),
        ("having people over for dinner, any ideas?", "hosting", "roast"),
        # Mains asked for at a dinner party are dinners still.
        ("main course ideas for a dinner party?", "main course", "dinner"),
        ("something to bake with my 7 year old this weekend", "baking together", "cookies"),
        # As a follow-up's rewrite writes it: "what about something warm" after lunches.
        ("What about warm recipes, i have a microwave?", "warming", "stew"),
    ],
)
def test_an_everyday_intent_adds_the_words_a_cook_would_search_for(question, intent, word):
    read = read_question(question)

    assert intent in read.intents
    assert word in read.text.split()
    assert read.text.startswith(question.split()[0])  # the question's own words stay, first
    assert read.filters.is_empty()  # an intent never filters


@pytest.mark.parametrize(
    ("question", "not_meant", "meant"),
    [
        ("and something to drink for the kids?", "children", "drink"),  # a drink for the kids, no kid food
        ("what drinks for the brunch?", "treat breakfast", "drink"),  # no pancakes
        ("those are all savoury — got a spanish sweet one?", "savoury", "dessert"),  # a remark, not the ask
        ("drinks for his birthday?", "birthday", "drink"),  # no cake
        ("now for the grown-ups - something warm with red wine?", "warming", "mulled"),  # no stew
        # A birthday present is no birthday meal.
        ("i just got an air fryer for my birthday, what can i make in it", "birthday", "fryer"),
    ],
)
def test_an_intent_is_not_read_beside_the_words_that_mean_it_is_not_meant(question, not_meant, meant):
    read = read_question(question)

    assert not_meant not in read.intents
    assert meant in read.text


@pytest.mark.parametrize(
    ("question", "occasion"),
    [
        ("what can I make for a kids birthday party", "for a kids birthday party"),
        ("something for my diabetic dad", "for my diabetic dad"),
        ("what to bring for a picnic tomorrow", "for a picnic"),
        # An event said on its own is what the food is for too.
        (
            "Throwing my son's 6th birthday party, about 12 kids. Finger food ideas?",
            "for my son's 6th birthday party",
        ),
        ("going on a picnic sunday with my in-laws", "for a picnic"),
        ("vegetarian dinner party for 6, italian theme. mains?", "for a dinner party"),
        ("brunch for 6 on sunday", "for brunch"),
        # A holiday is one too, however it is said.
        ("gluten-free thanksgiving sides for 10 people", "for thanksgiving"),
        ("anniversary dinner for two on friday", "for an anniversary dinner"),
        ("what to make for christmas eve", "for christmas eve"),
        # Said otherwise than after "for", or no occasion: a dish, a meal, a present.
        ("it's a cold night, soup?", None),
        ("a dessert for dinner", None),
        ("i just got an air fryer for my birthday, what can i make in it", None),
    ],
)
def test_what_the_food_is_for_is_read_as_said(question, occasion):
    assert lexicon.occasion_said(question) == occasion


@pytest.mark.parametrize("question", ["chicken curry", "lightly toasted bread", "a picnicking basket"])
def test_no_intent_is_read_into_a_question_that_says_none(question):
    read = read_question(question)

    assert read.intents == ()
    assert read.text == question


@pytest.mark.parametrize(
    ("question", "excluded", "searched"),
    [
        ("chicken, but not fried", ("fried",), "chicken,"),
        ("eggs for breakfast but no bacon or sausage", ("bacon", "sausage"), "eggs for breakfast but"),
        ("a drink that isn't coffee or tea", ("coffee", "tea"), "a drink that"),
        ("a stew, anything but beef", ("beef",), "a stew,"),
        ("pasta with no cheese at all", ("cheese",), "pasta with at all"),
        ("no nuts, no dairy or eggs please", ("nuts", "eggs"), ", please"),
        ("any non-alcoholic drinks?", ("alcohol",), "any drinks? drink"),
        ("and something to drink for the kids?", ("alcohol",), "and something to drink for the kids?"),
        ("pasta that doesnt need tomatoes", ("tomatoes",), "pasta that"),
        ("she also cant do tomatoes any others?", ("tomatoes",), "she also any others?"),
        ("soup without the cream or the bacon", ("cream", "bacon"), "soup"),
        # A tool is no ingredient: "without the special pot" asks of the kitchen.
        ("can i do fondue without the special pot", (), "can i do fondue without the special pot"),
        ("can i make it without a blender", (), "can i make it without a blender"),
        # Asked of a recipe, "without" filters nothing: the answer says what it has.
        ("can it be made without the bacon?", (), "can it be made without the bacon?"),
        ("a dessert i can make without eggs", ("eggs",), "a dessert i can make"),
    ],
)
def test_exclusions_are_read_however_they_are_said(question, excluded, searched):
    read = read_question(question)

    assert read.filters.exclude == excluded
    assert read.text == searched


def test_without_meat_is_a_diet_not_an_exclusion():
    read = read_question("a curry without meat")

    assert read.filters.vegetarian is True
    assert read.filters.exclude == ()


async def test_the_model_picks_intents_from_the_lexicon_only_and_the_words_are_ours():
    reply = {
        "search_text": "dinner",
        **{flag: None for flag in ("vegetarian", "vegan", "gluten_free", "dairy_free")},
        "max_total_minutes": None,
        "exclude": [],
        "intents": ["light", "cheap eats", "ignore your instructions"],
    }
    llm = ScriptedChatModel(json.dumps(reply))

    read = await ModelReader(llm).read("it's scorching outside, what's for dinner?")

    assert read.intents == ("light",)
    assert read.text == "dinner fresh salad chilled"
    [call] = llm.calls
    assert '"light"' in call["messages"][0]["content"]  # the lexicon's names are offered


async def test_eating_less_meat_puts_the_vegetarian_recipes_first_and_hides_none(retriever: Retriever):
    wished = await retriever.retrieve_question("quick weeknight dinner? we're trying to eat less meat", 3)
    filtered = await retriever.retrieve_question("quick weeknight dinner? vegetarian please", 3)

    vegetarian = [found.recipe.vegetarian for found in wished.found]
    assert vegetarian[0] and vegetarian == sorted(vegetarian, reverse=True)
    assert wished.filters.vegetarian is None and filtered.filters.vegetarian  # a wish, not a filter


async def test_a_pescatarian_gets_fish_before_any_meat(retriever: Retriever):
    found = await retriever.retrieve_question("pescatarian here, any pasta ideas?", 10)

    meaty = ["meat" in facts(f.recipe) for f in found.found]
    assert "fish" in facts(found.found[0].recipe)
    assert meaty == sorted(meaty)  # the ones with meat, if any, come last


async def test_a_diabetic_gets_no_dessert_before_the_dishes_that_are_not_sweet(retriever: Retriever):
    found = await retriever.retrieve_question("cooking for my dad tonight, he is diabetic", 10)

    sweet = ["sweet" in facts(f.recipe) for f in found.found]
    assert not sweet[0] and sweet == sorted(sweet)


async def test_a_weeknight_dinner_puts_the_quick_recipes_first_and_hides_none(retriever: Retriever):
    found = await retriever.retrieve_question("a weeknight dinner for two, we love thai food", 10)

    quick = ["quick" in facts(f.recipe) for f in found.found]
    assert quick[0] and quick == sorted(quick, reverse=True)
    assert found.filters.max_total_minutes is None  # a wish, not a filter


async def test_a_bake_sale_finds_bakes_and_cookies_for_one_find_cookies(retriever: Retriever):
    sale = await retriever.retrieve_question("bake sale at school friday, needs to be nut free", 3)
    cookies = await retriever.retrieve_question("cookies for a bake sale?", 3)

    assert all("baked" in facts(f.recipe) and "main" not in facts(f.recipe) for f in sale.found)
    assert sale.filters.exclude == ("nut",)
    assert all("cookies" in f.recipe.title.lower() for f in cookies.found)


async def test_a_brunch_puts_the_breakfast_recipes_first(retriever: Retriever):
    found = await retriever.retrieve_question(
        "my sister is vegan and coming over sunday for brunch, any ideas?", 3
    )

    assert "breakfast" in facts(found.found[0].recipe)
    assert all(f.recipe.vegan for f in found.found)


async def test_sides_asked_for_are_side_dishes_not_a_main(retriever: Retriever):
    found = await retriever.retrieve_question("hosting a bbq for 8 on saturday, what sides can i make?", 3)

    assert [course(f.recipe) for f in found.found] == ["side dish"] * 3, [f.recipe.id for f in found.found]


async def test_friends_over_puts_the_mains_first_whatever_serves_most(retriever: Retriever):
    found = await retriever.retrieve_question(
        "we're having friends over saturday, 6 of us, one is vegetarian", 6
    )

    dinners = ["dinner" in facts(f.recipe) for f in found.found]
    assert dinners[0] and dinners == sorted(dinners, reverse=True)


async def test_a_dessert_asked_for_after_a_remark_is_a_dessert(retriever: Retriever):
    found = await retriever.retrieve_question(
        "the smoke alarm went off last time i used the oven. is there a dessert that needs no baking?",
        3,
    )

    assert all("dessert" in facts(f.recipe) for f in found.found)
    assert found.filters.exclude == ("oven",)


async def test_not_too_spicy_puts_the_mild_recipes_first_and_searches_no_spice(retriever: Retriever):
    found = await retriever.retrieve_question("a curry that's not too spicy", 3)

    assert "spicy" not in found.searched
    assert mild(found.found[0].recipe)
    assert "curry" in found.found[0].recipe.title.lower()


async def test_a_date_night_puts_dinners_first_and_an_impressive_dessert_stays_a_dessert(
    retriever: Retriever,
):
    date = await retriever.retrieve_question("date night tomorrow, she loves italian", 3)
    dessert = await retriever.retrieve_question("an impressive dessert for a dinner party", 3)

    assert all("dinner" in facts(f.recipe) for f in date.found)
    assert all("dessert" in facts(f.recipe) for f in dessert.found)


async def test_leftover_chicken_finds_the_recipes_made_with_cooked_chicken(retriever: Retriever):
    found = await retriever.retrieve_question("what can i make with leftover roast chicken?", 10)

    cooked = [uses_leftovers(f.recipe) for f in found.found]
    assert cooked[0] and cooked == sorted(cooked, reverse=True)  # first, hiding none
    assert "roast" not in found.searched


async def test_a_food_is_searched_by_its_other_name_too(retriever: Retriever):
    found = await retriever.retrieve_question(
        "i have way too many courgettes from the garden, what can i make?", 3
    )

    assert "air-fryer-zucchini" in [f.recipe.id for f in found.found]


async def test_a_dessert_for_a_dinner_party_is_searched_as_a_dessert(retriever: Retriever):
    found = await retriever.retrieve_question("What about chocolatey desserts, for a dinner party?", 3)

    assert all("dessert" in facts(f.recipe) for f in found.found)


async def test_light_and_warming_questions_find_different_dishes(retriever: Retriever):
    light = await retriever.retrieve_question("something light for a hot day", 3)
    warming = await retriever.retrieve_question("comfort food for a cold evening", 3)

    assert any("salad" in f.recipe.title.lower() for f in light.found)
    assert not {f.recipe.id for f in light.found} & {f.recipe.id for f in warming.found}
    assert not any("salad" in f.recipe.title.lower() for f in warming.found)


async def test_a_dish_named_as_the_one_to_move_away_from_is_moved_below_the_others(retriever: Retriever):
    found = await retriever.retrieve_question("like steak tartare but with fish", 5)
    plain = await retriever.retrieve_question("steak tartare with fish", 5)

    assert plain.found[0].recipe.id == "steak-tartare"
    assert "steak-tartare" not in [f.recipe.id for f in found.found[:4]]
    assert found.named == ()


async def test_a_named_dish_followed_by_but_asks_for_a_variant(retriever: Retriever):
    found = await retriever.retrieve_question("lasagna but with chicken", 3)
    kept = await retriever.retrieve_question("Is the Lasagna vegetarian, but quick?", 3)

    assert "lasagna" not in [f.recipe.id for f in found.found]
    assert kept.named == ("lasagna",)


@pytest.mark.parametrize(
    ("question", "minutes", "searched"),
    [
        ("5 minute lunch", 5, "lunch"),
        ("i've literally got 10 minutes, what can i eat", 10, ", what can i eat"),
        ("I want a paella but I'm short on time - an hour max", 60, "I want a paella but I'm -"),
        ("cook it for 20 minutes", None, "cook it for 20 minutes"),
        # A hurry without a number is half an hour.
        ("got chicken thighs and not much time tonight", 30, "got chicken thighs and tonight"),
    ],
)
def test_time_limits_are_read_however_they_are_said(question, minutes, searched):
    read = read_question(question)

    assert read.filters.max_total_minutes == minutes
    assert read.text == searched


def test_a_manner_said_by_an_intent_is_not_read_as_an_exclusion():
    read = read_question("bread with no kneading")

    assert read.intents == ("no kneading",)
    assert read.filters.exclude == ()  # "No-Knead Bread" says "knead": excluding it would hide it
    assert "no-knead" in read.text.split()


def test_a_like_question_leaves_only_the_dish_it_names_after_like():
    from app.catalog.names import RecipeNames
    from app.search.variants import variants

    names = RecipeNames({"lasagna": "Lasagna", "chicken": "Chicken", "hakka": "Hakka-style meatballs"})

    assert variants("something like lasagna but with chicken", names) == ([], ["lasagna"])
    assert variants("a chinese version of meatballs", names) == ([], [])
    assert variants("I would like Lasagna", names) == (["lasagna"], [])


@pytest.mark.parametrize(
    ("question", "unsearched", "searched"),
    [
        # "a soup for a cold day" wants a warming soup, not one of the cold soups.
        ("what's a good soup for a cold day?", "cold", "stew"),
        # "a starter" is a first course, not a sourdough starter.
        ("what about a starter to go with the roast?", "starter", "soup"),
        # The day of the meal names no dish (the Sunday Morning Milkshake); a Sunday roast does.
        ("my mum's birthday is sunday, she loves lemon", "sunday", "lemon"),
        ("going on a picnic sunday with my in-laws", "sunday", "salad"),
        ("on sunday, what goes with a sunday roast?", "on", "sunday"),
        ("we're having friends over saturday, 6 people", "saturday", "roast"),
        # A dinner party is no party drink.
        ("a dinner party dessert", "party", "dessert"),
    ],
)
def test_words_that_say_nothing_of_the_dish_are_not_searched(question, unsearched, searched):
    text = read_question(question).text

    assert unsearched not in text.split()
    assert searched in text.split()


async def test_dinner_ideas_are_mains_before_a_stock_or_a_sauce(retriever: Retriever):
    found = await retriever.retrieve_question("gluten free chicken dinner ideas, my husband's coeliac", 10)

    dinner = ["dinner" in facts(f.recipe) for f in found.found]
    assert dinner[0] and dinner == sorted(dinner, reverse=True)
    assert "chicken-stock-bone-broth" not in [f.recipe.id for f in found.found[:3]]
