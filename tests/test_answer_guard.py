"""The answer guard and the answers composed from the recipes' data, on their own."""

from __future__ import annotations

import pytest

from app.catalog.names import RecipeNames
from app.chat.answer_guard import AnswerGuard, guard_text, loops
from app.chat.data_answers import compose
from app.chat.data_phrasing import key_ingredients
from app.recipes import Recipe


def recipe(recipe_id: str, title: str, **fields) -> Recipe:
    base = {"ingredients": ["2 cloves of garlic", "200g (7 oz) mushrooms"], "steps": ["Cook."]}
    return Recipe.model_validate({"id": recipe_id, "title": title, **base, **fields})


SOUP = recipe("mushroom-soup", "Mushroom Soup", total_minutes=40, servings="4", vegetarian=True)
RISOTTO = recipe(
    "mushroom-risotto",
    "Mushroom Risotto",
    total_minutes=35,
    prep_minutes=10,
    cook_minutes=25,
    servings="2-3",
    ingredients=["300g risotto rice", "50g parmesan cheese"],
)
TART = recipe("onion-tart", "Onion Tart", total_minutes=60, servings="6", vegetarian=True)
CATALOG = [SOUP, RISOTTO, TART, recipe("rice", "Rice")]
NAMED = RecipeNames.of(CATALOG).in_prose


def guarded(text: str, recipes=(SOUP, RISOTTO), *, cut: bool = False):
    return guard_text(text, list(recipes), NAMED, cut=cut)


def test_the_stand_in_names_catalog_titles_but_not_one_word_ones():
    assert NAMED("Try the mushroom soup with rice.") == ["mushroom-soup"]


def test_sentences_pass_whole_even_when_split_over_pieces():
    guard = AnswerGuard([SOUP], NAMED)

    assert guard.feed("The Mushroom ") == ""
    assert guard.feed("Soup takes 40 min. It is ") == "The Mushroom Soup takes 40 min."
    assert guard.feed("warming.") == ""
    assert guard.finish(cut=False) == " It is warming."


def test_a_recipe_that_was_not_retrieved_is_refused():
    shown, report = guarded("Make the Onion Tart.")

    assert shown == ""
    assert "onion-tart" in (report.refused or "")


def test_times_servings_and_diets_the_data_contradicts_are_refused_and_stated_ones_pass():
    assert guarded("The Mushroom Soup takes 40 minutes and serves 4.")[1].refused is None
    assert guarded("The Mushroom Risotto takes 1 hour.")[1].refused
    assert guarded("The Mushroom Soup serves 8.")[1].refused
    assert guarded("The Mushroom Risotto serves 3.")[1].refused is None  # "2-3"
    assert guarded("The Mushroom Risotto is vegetarian.")[1].refused
    assert guarded("The Mushroom Risotto is not vegetarian.")[1].refused is None
    # Each fact is checked against the recipe it follows.
    assert guarded("The Mushroom Soup takes 40 min, the Mushroom Risotto 35 min.")[1].refused is None


def test_loops_and_repeated_lines_are_refused():
    assert guarded("100g (110g) Arborio rice; " * 6)[1].refused == "loops"
    shown, report = guarded("The Mushroom Soup is warming.\nThe Mushroom Soup is warming.\n")
    assert shown == "The Mushroom Soup is warming.\n"
    assert report.refused == "repeats an earlier line"


@pytest.mark.parametrize(
    ("sentence", "looping"),
    [
        ("add a pinch of salt, add a pinch of pepper, add a pinch of sugar", False),  # a list
        ("add a pinch of salt, add a pinch of pepper, add a pinch of sugar, add a pinch of mace", True),
        ("then add the rice and stir it well " * 2, True),  # a run of eight twice
        ("then add the rice and stir it now, then add the rice and stir it well", False),
        (" ".join(f"word{n}" for n in range(60)), False),
        (" ".join(f"word{n}" for n in range(61)), True),  # too long for one sentence
        ("", False),
    ],
)
def test_a_sentence_loops_when_a_run_of_words_comes_back_too_often(sentence, looping):
    assert loops(sentence) is looping


@pytest.mark.parametrize(
    "reply",
    [
        "The Mushroom Soup takes 40 min. It is warming!\nServe it hot? Yes.",
        "Steps:\n1. Chop the mushrooms.\n2. Cook them for 40 min.\n10. Eat.",
        "The Mushroom Soup is warming. The Mushroom Soup is warming. Again.",
        "Chop it " * 12 + "now.",
        "The Mushroom Soup, 4. Then 2.5 cups. Done",
    ],
)
def test_a_reply_is_guarded_alike_however_it_is_split_into_pieces(reply):
    whole = guarded(reply)
    for size in range(1, 8):
        guard = AnswerGuard([SOUP, RISOTTO], NAMED)
        shown = "".join(guard.feed(reply[i : i + size]) for i in range(0, len(reply), size))
        shown += guard.finish(cut=False)
        assert (shown, guard.report) == whole, size


def test_a_cut_reply_loses_its_unfinished_sentence():
    shown, report = guarded("The Mushroom Soup is warming. The Mushroom Risotto needs", cut=True)

    assert shown == "The Mushroom Soup is warming."
    assert report.cut and report.named == ["mushroom-soup"]


def test_the_data_answers_which_is_quickest_serves_most_and_has_no_cheese():
    recipes = [SOUP, RISOTTO, TART]

    assert compose("Which is the quickest?", recipes).text.startswith(
        "The quickest is Mushroom Risotto [mushroom-risotto], 35 min in all."
    )
    assert compose("Which one serves the most?", recipes).text.startswith(
        "Onion Tart [onion-tart] serves the most"
    )
    assert compose("of the others, which serves more?", recipes).text.startswith(
        "Onion Tart [onion-tart] serves the most"
    )
    no_cheese = compose("Which has no cheese?", recipes).text
    assert no_cheese.startswith("Without cheese: Mushroom Soup [mushroom-soup] and Onion Tart [onion-tart].")
    assert "Mushroom Risotto [mushroom-risotto] has cheese: 50g parmesan cheese." in no_cheese


def test_how_many_a_recipe_makes_and_how_many_times_to_make_it_for_more():
    tart = recipe("tart", "Tart", servings="8")

    assert compose("How many will the Tart make?", [tart]).text == "Tart [tart] serves 8."
    assert compose("How many will the Tart make? i need like 24", [tart]).text == (
        "Tart [tart] serves 8. For 24, make it 3 times (24)."
    )
    assert compose("How many will the Tart make? we'll be 10", [tart]).text == (
        "Tart [tart] serves 8. For 10, make it 2 times (16)."
    )
    # Scaling is asked as how many it serves, against how many are eating.
    assert compose("how do I scale the Tart for 8?", [tart]).text == (
        "Tart [tart] serves 8. For 8, make it as written."
    )
    assert compose("how do i scale the Tart down for 2", [tart]).text == (
        "Tart [tart] serves 8. For 2, use 1/4 of every amount."
    )


def test_a_recipe_serving_a_range_serves_each_number_in_it():
    slaw = recipe("slaw", "Slaw", servings="8 - 10")

    assert compose("ok the Slaw. how much do i need for 8?", [slaw]).text == (
        "Slaw [slaw] serves 8 - 10. For 8, make it as written."
    )
    assert compose("is the Slaw enough for 4?", [slaw]).text == (
        "Slaw [slaw] serves 8 - 10. For 4, use 1/2 of every amount."
    )
    assert compose("how much do we need for 12 of the Slaw?", [slaw]).text == (
        "Slaw [slaw] serves 8 - 10. For 12, make it 2 times (20)."
    )


def test_what_goes_with_a_recipe_is_listed_as_going_with_it():
    answer = compose("What would go well with the Mushroom Risotto on the side?", [SOUP, TART, RISOTTO]).text

    assert answer.startswith("To go with Mushroom Risotto [mushroom-risotto]:\n- Mushroom Soup")
    assert answer.count("Mushroom Risotto") == 1


def test_a_food_free_need_is_answered_from_the_ingredient_lines():
    cookies = recipe("cookies", "Cookies", ingredients=["2 cups oats", "1 cup chopped nuts (optional)"])

    assert compose("Can she eat the Cookies, nut-free?", [cookies, SOUP]).text == (
        "Cookies [cookies] has nuts: 1 cup chopped nuts (optional)."
    )
    assert compose("Which of them are nut-free?", [cookies, SOUP]).text.endswith(
        "Mushroom Soup [mushroom-soup] lists no nuts in its ingredients."
    )
    # As the rewrite writes it, and as people type it.
    assert compose(
        "Considering the Cookies and the Mushroom Soup, which of those is nut free?", [cookies, SOUP]
    ).text == (
        "Cookies [cookies] has nuts: 1 cup chopped nuts (optional)."
        " Mushroom Soup [mushroom-soup] lists no nuts in its ingredients."
    )


def test_a_food_asked_left_out_of_a_recipe_that_has_none_is_said_whole():
    assert compose("Could i make the Mushroom Soup without the coconut milk?", [SOUP]).text == (
        "Mushroom Soup [mushroom-soup] lists no coconut milk, so it is made without it."
    )


def test_whether_a_recipe_suits_a_coeliac_is_whether_it_is_gluten_free():
    assert compose("is the Mushroom Soup safe for a coeliac?", [SOUP]).text == (
        "No: Mushroom Soup [mushroom-soup] is not marked gluten-free."
    )


def test_the_fewest_ingredients_are_counted_not_listed():
    stew = recipe("stew", "Stew", ingredients=["beef", "carrots", "onions", "stock"])

    assert compose(
        "Considering the Stew and the Mushroom Soup, which has the fewest ingredients?", [stew, SOUP]
    ).text == ("Mushroom Soup [mushroom-soup] has the fewest ingredients: 2. Stew [stew] has 4.")
    # Tied recipes are said together.
    assert compose(
        "Considering the Mushroom Soup and the Onion Tart, which has fewer ingredients?", [SOUP, TART]
    ).text == ("Mushroom Soup [mushroom-soup] and Onion Tart [onion-tart] have the fewest ingredients: 2.")


def test_recipes_tied_for_quickest_are_said_to_take_the_same_time():
    stew = recipe("stew", "Stew", total_minutes=35)

    assert compose("Which is the quickest?", [SOUP, RISOTTO, stew]).text == (
        "Mushroom Risotto [mushroom-risotto] and Stew [stew] both take 35 min in all."
        " Mushroom Soup [mushroom-soup] takes 40 min."
    )


def test_the_data_answers_about_one_named_recipe():
    recipes = [SOUP, RISOTTO]

    assert (
        compose("Is the Mushroom Soup vegan?", recipes).text
        == "No: Mushroom Soup [mushroom-soup] is not marked vegan."
    )
    assert compose("How long does the mushroom risotto take?", recipes).text == (
        "Mushroom Risotto [mushroom-risotto] takes 35 min in all (prep 10 min, cook 25 min)."
    )
    assert compose("What do I need for the Mushroom Risotto?", recipes).text.startswith(
        "For Mushroom Risotto [mushroom-risotto] you need:\n- 300g risotto rice"
    )


def test_a_recipe_named_as_people_spell_it_is_the_one_asked_about():
    shakshouka = recipe("shakshouka", "Shakshouka", total_minutes=20, steps=["Simmer the tomatoes."])

    assert compose("how do i make shakshuka", [shakshouka, SOUP]).text.startswith(
        "To make Shakshouka [shakshouka] (20 min in all), you need:"
    )


def test_no_recipe_found_is_said_plainly():
    assert compose("Sushi?", []).kind == "none"


def test_key_ingredients_drop_amounts_and_units():
    assert key_ingredients(SOUP) == ["garlic", "mushrooms"]


def test_the_data_reads_how_hot_a_dish_is_from_its_ingredients():
    chili = Recipe(id="chili", title="Chili", ingredients=["1 tsp cayenne"], steps=["Cook."])
    mild = Recipe(id="mild", title="Mild Stew", ingredients=["2 carrots"], steps=["Stew."])

    assert compose("Is the Chili spicy?", [chili, mild]).text == (
        'By its ingredients, Chili [chili] has some heat: it lists "1 tsp cayenne".'
    )

    assert compose("Which is the least spicy?", [chili, mild]).text == (
        "By their ingredients, the mildest is Mild Stew [mild]: no chili or other hot ingredient."
        ' Chili [chili] lists "1 tsp cayenne".'
    )
    # The mild ones are said too: asked of the set, each recipe gets an answer.
    assert compose("Which is the spiciest?", [mild, chili]).text == (
        'By their ingredients, the hottest is Chili [chili], with "1 tsp cayenne".'
        " Mild Stew [mild]: no chili or other hot ingredient."
    )


def test_the_data_answers_a_diet_asked_of_the_recipes_a_question_names():
    rice = Recipe(id="rice", title="Rice", ingredients=["rice"], steps=["Boil."], vegan=True)
    pudding = Recipe(id="rice-pudding", title="Rice Pudding", ingredients=["rice", "milk"], steps=["Bake."])

    assert compose(
        "Considering the Rice and the Rice Pudding, any of those vegan?", [rice, pudding]
    ).text == ('Rice [rice] is vegan. Rice Pudding [rice-pudding] is not marked vegan: it lists "milk".')
    # The longer title is the one named: "the Rice Pudding" is no "Rice".
    assert compose("thanks! is the Rice Pudding vegan?", [rice, pudding]).text == (
        'No: Rice Pudding [rice-pudding] is not marked vegan: it lists "milk".'
    )
    # A diet asked for, not asked about, lists what fits: here, beside the dish it goes with.
    assert compose("What vegan dessert goes with the Rice Pudding?", [rice, pudding]).text == (
        "To go with Rice Pudding [rice-pudding]:\n- Rice [rice] (vegan): rice"
    )


def test_a_diet_that_none_of_the_recipes_has_is_said_first_with_the_ingredients_that_say_why():
    soup = Recipe(
        id="chicken-soup",
        title="Chicken Soup",
        ingredients=["2 chicken breasts", "1 onion"],
        steps=["Simmer."],
    )
    stew = Recipe(id="bean-stew", title="Bean Stew", ingredients=["4 cups chicken broth."], steps=["Stew."])
    onion = Recipe(id="onion-soup", title="Onion Soup", ingredients=["onions", "stock"], steps=["Simmer."])

    assert compose(
        "Considering the Chicken Soup, the Bean Stew and the Onion Soup, which of those is vegetarian?",
        [soup, stew, onion],
    ).text == (
        "None of them is marked vegetarian."
        ' Chicken Soup [chicken-soup] is not marked vegetarian: it lists "2 chicken breasts".'
        ' Bean Stew [bean-stew] is not marked vegetarian: it lists "4 cups chicken broth".'
        # Its data says it is not; its ingredients do not say why.
        " Onion Soup [onion-soup] is not marked vegetarian."
    )
    leek = Recipe(
        id="leek-soup", title="Leek Soup", ingredients=["leeks"], steps=["Simmer."], vegetarian=True
    )
    kale = Recipe(id="kale-soup", title="Kale Soup", ingredients=["kale"], steps=["Simmer."], vegetarian=True)
    assert compose(
        "Considering the Leek Soup and the Kale Soup, which of those is vegetarian?", [leek, kale]
    ).text == ("All of them are vegetarian: Leek Soup [leek-soup] and Kale Soup [kale-soup].")


def test_the_data_answers_whether_recipes_have_an_ingredient_line_by_line():
    oats = Recipe(id="oats", title="Oats", ingredients=["oats", "peanut butter"], steps=["Soak."])
    ratatouille = Recipe(id="rat", title="Ratatouille", ingredients=["1 eggplant", "nutmeg"], steps=["Stew."])
    both = [oats, ratatouille]

    assert compose("do any of them have nuts? my son is allergic", both).text == (
        "Oats [oats] has nuts: peanut butter. Ratatouille [rat] lists no nuts in its ingredients."
        " With an allergy, check the labels of bought ingredients too."
    )
    # Peanut butter is no dairy, an eggplant no egg.
    assert (
        compose("Does the Oats contain dairy?", both).text == "Oats [oats] lists no dairy in its ingredients."
    )
    assert "lists no egg" in compose("is there any egg in the Ratatouille?", both).text
    # A search for recipes that have something is not asked of these.
    assert compose("What recipes have chicken?", both).kind == "list"


def test_the_data_quotes_what_a_recipe_says_about_keeping_it_or_says_it_does_not():
    jam = Recipe(id="jam", title="Jam", ingredients=["fruit"], steps=["Boil.", "Store in jars for months."])
    soup = Recipe(id="soup", title="Soup", ingredients=["leeks"], steps=["Preheat the pot.", "Simmer."])

    assert compose("Does the Jam keep?", [jam, soup]).text == 'Jam [jam] says: "Store in jars for months."'
    assert compose("how long does the Jam keep?", [jam]).kind == "keeping"  # not how long it takes
    assert compose("can I freeze the Soup?", [jam, soup]).text == (
        "Soup [soup] does not say how it keeps, frozen or ahead of time."
    )
    stew = Recipe(id="stew", title="Stew", ingredients=["beef"], steps=["Brown.", "Simmer."])
    # Said once of all those that say nothing.
    assert compose("can I freeze the Soup and the Stew?", [soup, stew]).text == (
        "None of them says how it keeps, frozen or ahead of time: Soup [soup] and Stew [stew]."
    )
    # Kept out of the fridge, too.
    assert compose("does the Jam keep till lunch without a fridge?", [jam]).kind == "keeping"
    assert compose("would the Jam survive a few hours in the car?", [jam]).kind == "keeping"
    # Made ahead on the day, too.
    assert (
        compose("which of the Soup and the Stew can i prep in the morning?", [soup, stew]).kind == "keeping"
    )


def test_which_course_a_dish_is_is_read_from_its_data_when_asked_of_the_dishes():
    stew = Recipe(id="stew", title="Beef Stew", ingredients=["beef"], steps=["Simmer."], tags=["Main"])
    cake = Recipe(id="cake", title="Lemon Cake", ingredients=["flour"], steps=["Bake."], tags=["Dessert"])

    assert compose("would any of those work as a main?", [stew, cake]).text == (
        "As a main course: Beef Stew [stew]. Lemon Cake [cake] is a dessert."
    )
    assert (
        compose("is the Lemon Cake a side?", [stew, cake]).text
        == "Lemon Cake [cake] is a dessert, not a side dish."
    )
    # A request for a course is a search, not a question about these.
    assert compose("what can i make for a main?", [stew, cake]).kind == "list"


def test_the_oven_temperature_is_quoted_from_the_step_that_gives_it():
    muffins = Recipe(
        id="muffins",
        title="Muffins",
        ingredients=["flour"],
        steps=["Preheat the oven to 375°F (190°C).", "Bake."],
    )
    salad = Recipe(id="salad", title="Salad", ingredients=["lettuce"], steps=["Toss."])

    assert compose("what temp is the oven for the Muffins and the Salad?", [muffins, salad]).text == (
        'Muffins [muffins], step 1: "Preheat the oven to 375°F (190°C)."'
        " The steps of Salad [salad] give no oven temperature."
    )


def test_calories_are_no_part_of_the_data_and_the_answer_says_so():
    soup = Recipe(id="soup", title="Soup", ingredients=["leeks"], steps=["Simmer."])

    assert compose("how many calories is the Soup?", [soup]).text == (
        "The recipe data gives no calories or nutrition for Soup [soup], so I cannot say."
        " Its ingredients are in the recipe."
    )


def test_a_question_about_a_named_recipe_the_data_cannot_answer_says_so():
    norma = Recipe(id="norma", title="Pasta Alla Norma", ingredients=["aubergines"], steps=["Roast."])

    answer = compose("Could I add chicken to the Pasta Alla Norma?", [norma]).text

    assert answer.startswith("I answer only from the recipe as written, and it says nothing more on that:")
    assert "Pasta Alla Norma [norma]" in answer
    # Said as a wish, it asks for the recipe itself.
    assert compose("my kid wants the Pasta Alla Norma tomorrow", [norma]).kind == "list"


def test_a_food_the_question_names_is_no_recipe_named():
    pie = Recipe(id="apple-pie", title="Apple Pie", ingredients=["apples"], steps=["Bake."])
    pancakes = Recipe(id="pancakes", title="Spiced Apple Pancakes", ingredients=["apple"], steps=["Fry."])

    # "too many apples" asks for recipes with apples, not about the Apple Pie alone.
    assert compose("we have way too many apples, ideas?", [pie, pancakes]).kind == "list"


def test_how_long_without_a_total_time_quotes_the_step_that_says():
    eggs = Recipe(
        id="eggs",
        title="Eggs",
        ingredients=["eggs"],
        steps=[
            "Bring water to a boil.",
            "Boil about 5 minutes for soft boiled, 10 for hard boiled.",
            "Fry for 3 minutes.",
        ],
    )

    assert compose("how long do i boil eggs for soft boiled", [eggs]).text == (
        'Eggs [eggs] does not give its total time. Its steps say: "Boil about 5 minutes for soft boiled,'
        ' 10 for hard boiled."'
    )


def test_the_data_reads_how_much_work_a_dish_is_from_its_lists():
    tart = Recipe(id="tart", title="Tart", ingredients=["pastry", "jam"], steps=["Fill.", "Bake."])
    stew = Recipe(id="stew", title="Stew", ingredients=["beef", "onion", "wine"], steps=["Brown.", "Simmer."])

    assert compose("Which of those is the least work?", [stew, tart]).text == (
        "By their lists, the simplest is Tart [tart]: 2 ingredients and 2 steps."
        " Stew [stew] has 3 ingredients and 2 steps."
    )


def test_a_request_without_something_is_a_search_not_a_question_about_the_recipes():
    casserole = Recipe(id="c", title="Potato Casserole", ingredients=["1 tsp onion, minced"], steps=["Bake."])

    assert compose("any ideas for a cosy dinner for two? no meat please", [casserole]).kind == "list"
    # "minced" onion is no mince.
    assert compose("Which of them has no meat?", [casserole]).text == "Without meat: Potato Casserole [c]."


def test_the_data_says_which_steps_use_a_tool_and_how_much_one_recipe_asks():
    salmon = Recipe(
        id="salmon", title="Baked Salmon", ingredients=["salmon", "butter"], steps=["Bake at 200°C."]
    )

    assert compose("Can I make the Baked Salmon without the oven?", [salmon]).text == (
        'Baked Salmon [salmon] uses the oven in step 1: "Bake at 200°C."'
    )
    assert compose("is the Baked Salmon hard?", [salmon]).text == (
        "Baked Salmon [salmon] has 2 ingredients and 1 step; the recipe does not rate its difficulty."
    )
    assert compose("whats in the Baked Salmon", [salmon]).kind == "ingredients"


@pytest.mark.parametrize("message", ["thanks!", "great, thank you so much", "ok"])
def test_thanks_is_answered_as_thanks(message):
    tart = Recipe(id="tart", title="Tart", ingredients=["jam"], steps=["Bake."])

    assert compose(message, [tart]).text.startswith("You're welcome!")


def test_the_data_answers_how_long_a_part_takes_from_the_step_that_says():
    tiramisu = Recipe(
        id="tiramisu",
        title="Tiramisù",
        ingredients=["mascarpone"],
        steps=["Layer the biscuits and cream.", "Leave in the fridge for at least 4 hours."],
    )
    cake = Recipe(
        id="cake", title="Cake", ingredients=["flour"], steps=["Bake 40 minutes."], total_minutes=60
    )

    assert compose("how long does the Tiramisù need in the fridge?", [tiramisu]).text == (
        'Tiramisù [tiramisu] says: "Leave in the fridge for at least 4 hours."'
    )
    assert compose("how long does the Cake need in the fridge?", [cake]).text == (
        "The steps of Cake [cake] do not say how long it needs in the fridge."
    )
    # How long a dish keeps is another question than how long it chills.
    assert compose("how long does the Cake keep in the fridge?", [cake]).kind == "keeping"


def test_the_data_says_which_recipes_need_no_baking():
    pudding = Recipe(
        id="pudding", title="Lemon Pudding", ingredients=["lemon"], steps=["Bake in a slow oven."]
    )
    granita = Recipe(
        id="granita", title="Granita", ingredients=["lemons"], steps=["Mix in the baking powder.", "Freeze."]
    )

    text = compose("which of the Lemon Pudding and the Granita doesnt need baking?", [pudding, granita]).text

    assert text == (
        "Without the oven: Granita [granita] (its steps do not mention it)."
        ' Lemon Pudding [pudding] uses the oven in step 1: "Bake in a slow oven."'
    )


def test_the_data_says_which_recipes_need_an_oven():
    pudding = Recipe(
        id="pudding", title="Lemon Pudding", ingredients=["lemon"], steps=["Bake in a slow oven."]
    )
    granita = Recipe(id="granita", title="Granita", ingredients=["lemons"], steps=["Freeze."])

    text = compose(
        "Considering the Lemon Pudding and the Granita, do any of them need an oven?", [pudding, granita]
    ).text

    assert text == (
        "Without the oven: Granita [granita] (its steps do not mention it)."
        ' Lemon Pudding [pudding] uses the oven in step 1: "Bake in a slow oven."'
    )


def test_a_dutch_oven_is_a_pot_and_the_first_step_with_the_oven_is_quoted():
    ragu = Recipe(
        id="ragu",
        title="Ragu",
        ingredients=["beef"],
        steps=["Brown the meat in a Dutch oven.", "Simmer for 3 hours.", "Serve."],
    )
    lasagna = Recipe(
        id="lasagna",
        title="Lasagna",
        ingredients=["pasta"],
        steps=["Preheat the oven.", "Layer the sauce and pasta in a Dutch oven.", "Bake 40 minutes."],
    )

    text = compose("do any of them need an oven? ours is broken", [ragu, lasagna]).text

    assert text == (
        "Without the oven: Ragu [ragu] (its steps do not mention it)."
        ' Lasagna [lasagna] uses the oven in step 1 (and 1 more): "Preheat the oven."'
    )


RAVIOLI = Recipe(
    id="ravioli",
    title="Ravioli",
    ingredients=["flour", "eggs", "ricotta"],
    steps=[
        "Pile the flour in a bowl, or use a stand mixer with a dough hook.",
        "Roll the dough out with a pasta machine or a rolling pin.",
        "Cut them with a pasta cutter or a knife.",
        "Cook in a pot of salted boiling water.",
    ],
)


def test_special_equipment_is_what_the_steps_name_that_not_every_kitchen_has():
    assert compose("Does the Ravioli need any special equipment?", [RAVIOLI]).text == (
        "The steps of Ravioli [ravioli] name a mixer (step 1), a dough hook (step 1), a rolling pin"
        " (step 2), a pasta machine (step 2) and a pasta cutter (step 3); everyday things: a bowl"
        " (step 1), a knife (step 3) and a saucepan (step 4)."
    )


def test_equipment_asked_of_the_set_is_answered_recipe_by_recipe():
    soup = Recipe(id="soup", title="Soup", ingredients=["leek"], steps=["Simmer in a pan over low heat."])
    salad = Recipe(id="salad", title="Salad", ingredients=["lettuce"], steps=["Toss the leaves."])

    text = compose("which of them need special equipment?", [RAVIOLI, soup, salad]).text

    assert text.splitlines()[1:] == [
        "- Soup [soup] needs nothing special: its steps name a stove (step 1) and a pan (step 1).",
        "- The steps of Salad [salad] name no equipment.",
    ]


def test_recipes_without_special_equipment_are_searched_for_not_answered_about():
    assert compose("recipes that need no special equipment", [RAVIOLI]).kind == "list"


KUNG_PAO = Recipe(
    id="kung-pao",
    title="Spicy Kung Pao-Style Chicken",
    ingredients=["4 Chicken Thighs", "3/4 cup Basmati Rice", "2 Tbsp Chili Garlic Sauce", "1/4 cup Peanuts"],
    steps=["Fry the chicken.", "Serve over rice."],
)
PAPRIKASH = Recipe(
    id="paprikash",
    title="Chicken Paprikash",
    ingredients=["1 whole chicken", "1 tablespoon cayenne pepper (optional)"],
    steps=["Braise the chicken."],
)
SATAY = Recipe(
    id="satay",
    title="Chicken Satay",
    ingredients=["2 lbs boneless chicken breast or thigh", "1 tbsp massaman curry paste"],
    steps=["Grill the skewers."],
)


def test_a_word_of_a_title_asks_nothing_and_the_mildest_is_the_one_whose_heat_can_be_left_out():
    question = (
        "Considering the Spicy Kung Pao-Style Chicken, the Chicken Satay and the Chicken Paprikash,"
        " which one is the least spicy? my kid is 5"
    )

    text = compose(question, [KUNG_PAO, SATAY, PAPRIKASH]).text

    assert text.startswith(
        'By their ingredients, the mildest is Chicken Paprikash [paprikash], with "1 tablespoon cayenne'
        ' pepper (optional)".'
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "Can I use chicken breast instead in the Spicy Kung Pao-Style Chicken?",
            "Spicy Kung Pao-Style Chicken [kung-pao] as written uses 4 Chicken Thighs, and says nothing"
            " about chicken breast instead.",
        ),
        (
            "what can I use instead of peanuts in the Spicy Kung Pao-Style Chicken?",
            "Spicy Kung Pao-Style Chicken [kung-pao] as written uses 1/4 cup Peanuts, and says nothing"
            " about what to use instead.",
        ),
        (
            "can I substitute tofu for the chicken in the Chicken Satay?",
            "Chicken Satay [satay] as written uses 2 lbs boneless chicken breast or thigh, and says nothing"
            " about tofu instead.",
        ),
        (
            "Can I use chicken breast instead of thighs in the Chicken Satay?",
            'Chicken Satay [satay] allows it: its list says "2 lbs boneless chicken breast or thigh".',
        ),
        (
            "I don't have peanuts, is that a problem in the Spicy Kung Pao-Style Chicken?",
            "Spicy Kung Pao-Style Chicken [kung-pao] as written uses 1/4 cup Peanuts, and says nothing"
            " about what to use instead.",
        ),
    ],
)
def test_a_swap_is_answered_by_what_the_list_says_of_the_food_swapped_out(question, answer):
    assert compose(question, [KUNG_PAO, SATAY]).text == answer


@pytest.mark.parametrize(
    "question",
    [
        "No cayenne pepper here, can I skip it in the Chicken Paprikash?",
        "we're out of cayenne pepper, is that a problem for the Chicken Paprikash?",
    ],
)
def test_a_food_the_list_marks_optional_can_be_left_out(question):
    assert compose(question, [PAPRIKASH]).text == (
        "Chicken Paprikash [paprikash] can be made without the cayenne pepper: its list says"
        ' "1 tablespoon cayenne pepper (optional)".'
    )


def test_a_tool_the_user_lacks_is_answered_by_the_step_that_names_it():
    asked = "I don't have a pasta machine, is that a problem in the Ravioli?"

    assert compose(asked, [RAVIOLI]).text == (
        'Ravioli [ravioli] uses a pasta machine in step 2: "Roll the dough out with a pasta machine or a'
        ' rolling pin."'
    )
    assert compose("we don't have a wok, is that ok for the Ravioli?", [RAVIOLI]).text == (
        "The steps of Ravioli [ravioli] do not name a wok."
    )
    # A tool no kit names is read where the steps say it.
    mash = Recipe(
        id="mash", title="Mash", ingredients=["potatoes"], steps=["Boil.", "Mash with a potato masher."]
    )
    assert compose("I don't have a potato masher, is that a problem in the Mash?", [mash]).text == (
        'Mash [mash] uses a potato masher in step 2: "Mash with a potato masher."'
    )


def test_a_need_said_beside_a_dish_to_serve_is_no_question_about_the_recipe():
    asked = "what could I serve with the Ravioli, without fish?"

    assert compose(asked, [RAVIOLI]).kind != "without"


def test_how_sweet_a_dish_is_is_read_from_its_list_and_a_request_for_sweets_is_not_asked_of_it():
    cake = Recipe(
        id="cake", title="Cake", ingredients=["flour", "1 cup sugar", "2 tbsp honey"], steps=["Bake."]
    )
    salad = Recipe(id="salad", title="Salad", ingredients=["lettuce"], steps=["Toss."])

    assert compose("is the Cake very sweet?", [cake, salad]).text == (
        "By its ingredients: Cake [cake] has 1 cup sugar; 2 tbsp honey."
    )
    assert compose("which of them is the least sweet?", [cake, salad]).text.startswith(
        "By their ingredients: Salad [salad] has no sugar"
    )
    assert compose("and something sweet for after?", [cake, salad]).kind == "list"


def test_a_step_asked_by_its_number_is_quoted():
    assert compose("what's step 2 of the Ravioli again?", [RAVIOLI]).text == (
        'Step 2 of Ravioli [ravioli]: "Roll the dough out with a pasta machine or a rolling pin."'
    )
    assert compose("and the last step of the Ravioli?", [RAVIOLI]).text.startswith("Step 4 of Ravioli")
    assert compose("step 9 of the Ravioli?", [RAVIOLI]).text == "Ravioli [ravioli] has 4 steps."


def test_the_sentence_that_names_the_oven_is_quoted_before_one_that_only_uses_it():
    cake = Recipe(
        id="cake",
        title="Coffee Cake",
        ingredients=["flour"],
        steps=[
            "Shape into a ring on a greased baking sheet.",
            "Let it rise. Bake in a hot oven for 30 min. Cool.",
        ],
    )

    assert compose("do I need an oven for the Coffee Cake?", [cake]).text == (
        'Coffee Cake [cake] uses the oven in step 2 (and 1 more): "Bake in a hot oven for 30 min."'
    )


def test_a_time_said_in_words_in_a_step_is_quoted():
    pudding = Recipe(
        id="pudding", title="Lemon Pudding", ingredients=["lemon"], steps=["Bake it half an hour."]
    )

    assert compose("how long does the Lemon Pudding take?", [pudding]).text == (
        'Lemon Pudding [pudding] does not give its total time. Its steps say: "Bake it half an hour."'
    )
