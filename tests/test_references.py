"""Follow-ups resolved against the catalog: what "those", "the second one", "the noodle one",
"it" and "not the soup" mean, and what an elliptical follow-up inherits.

The resolver is deterministic and uses only the shipped catalog, so each case reads as a
conversation and the standalone question it becomes.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from app.catalog.names import RecipeNames
from app.chat.references.resolution import Resolution
from app.chat.references.resolver import Resolver
from app.http.bodies import Message
from app.recipes import Recipe, read_catalog
from app.settings import Settings
from tests.support import DINNER_HISTORY, VEGETARIAN_OFFERED, turns


@cache
def catalog() -> dict[str, Recipe]:
    return {r.id: r for r in read_catalog(Settings().local_catalog_path)}


@cache
def names() -> RecipeNames:
    return RecipeNames.of(catalog().values())


def resolve(message: str, *turns: str) -> Resolution:
    """`turns` alternate user, assistant, user…, as a conversation does."""
    history = [Message(role="user" if n % 2 == 0 else "assistant", content=t) for n, t in enumerate(turns)]
    return Resolver(names(), catalog()).resolve(message, history)


VEGETARIAN = turns(VEGETARIAN_OFFERED)


# The set last offered.


def test_those_are_the_recipes_the_assistant_just_offered():
    resolved = resolve("From those, which is the quickest to cook?", *VEGETARIAN)

    assert resolved.question == (
        "Considering the Mushroom sauce, the Shakshouka and the Spanish Tortilla,"
        " which is the quickest to cook?"
    )
    assert resolved.recipe_ids == ["mushroom-sauce", "shakshouka", "spanish-tortilla"]


@pytest.mark.parametrize(
    "message", ["Which one is vegan?", "are either of them quick?", "Do any of these need eggs?"]
)
def test_which_one_either_and_these_keep_the_whole_set(message):
    assert resolve(message, *VEGETARIAN).recipe_ids == ["mushroom-sauce", "shakshouka", "spanish-tortilla"]


# Ordinals.


@pytest.mark.parametrize(
    ("message", "recipe_ids"),
    [
        ("How long does the second one take?", ["shakshouka"]),
        ("What do I need for the last one?", ["spanish-tortilla"]),
        ("Tell me about the first two", ["mushroom-sauce", "shakshouka"]),
        ("is option 3 gluten free?", ["spanish-tortilla"]),
    ],
)
def test_an_ordinal_picks_from_the_set_in_the_order_it_was_offered(message, recipe_ids):
    assert resolve(message, *VEGETARIAN).recipe_ids == recipe_ids


def test_the_ordinal_is_replaced_by_the_catalog_title():
    assert (
        resolve("How long does the second one take?", *VEGETARIAN).question
        == "How long does the Shakshouka take?"
    )


def test_a_bare_first_is_a_word_of_the_sentence_not_an_ordinal():
    assert resolve("What do I do first?", *VEGETARIAN).recipe_ids == []


# Descriptions, from the catalog's data.


ASIAN = (
    "Something asian?",
    "Try the Teriyaki Beef Wok, the Hoisin Tofu and Broccoli or the Yibin Burning Noodles.",
)


@pytest.mark.parametrize(
    ("message", "turns", "recipe_ids"),
    [
        ("What's in the noodle one?", ASIAN, ["yibin-burning-noodles"]),  # a word of its title
        ("Is the tofu one spicy?", ASIAN, ["hoisin-tofu-and-broccoli"]),
        (
            "how do I make the french one",  # a tag
            ("Chicken?", "Chicken in Red Wine Vinegar Sauce or Chicken Paprikash."),
            ["chicken-in-red-wine-vinegar-sauce"],
        ),
        ("is the meaty one spicy?", ("A stew?", "The Beef Goulash or the Drunken beans."), ["beef-goulash"]),
        (
            "What do I need for the vegan one?",  # a diet flag
            ("Soup?", "The Lebanese Lentil Soup or the Potato Soup."),
            ["lebanese-lentil-soup"],
        ),
        ("the quicker one, please", ("Pancakes!", "Swedish Pancakes or Oaty Pancakes."), ["oaty-pancakes"]),
        ("How long does the one with potatoes take?", VEGETARIAN, ["spanish-tortilla"]),  # ingredients
        (
            "What about the Stroganov?",
            ("Beef?", "Beef Goulash or Beef Stroganoff."),
            ["stroganoff"],
        ),  # misspelt
    ],
)
def test_a_description_picks_the_recipe_it_fits(message, turns, recipe_ids):
    assert resolve(message, *turns).recipe_ids == recipe_ids


def test_which_is_the_vegan_one_asks_to_choose_among_all_of_them():
    resolved = resolve("Which is the vegan one?", *VEGETARIAN)

    assert resolved.recipe_ids == ["mushroom-sauce", "shakshouka", "spanish-tortilla"]


def test_a_description_the_data_cannot_place_keeps_the_whole_set_in_view():
    # Nothing in the catalog says which of them is "the canadian one": the search stays on the
    # three offered, where the answer can tell, instead of drifting to others.
    resolved = resolve(
        "the canadian one, can i swap the evaporated milk for normal milk?",
        "fish soup ideas?",
        "Finnish Salmon Soup, Newfoundland Cod Chowder or a Lobster bisque.",
    )

    assert resolved.recipe_ids == ["finnish-salmon-soup", "newfoundland-cod-chowder", "lobster-bisque"]
    assert resolved.question.startswith("Considering the Finnish Salmon Soup, the Newfoundland Cod Chowder")


# The single recipe in focus.


@pytest.mark.parametrize(
    "message", ["Can I freeze it?", "Is this vegan?", "What pan do I need for that one?"]
)
def test_it_this_and_that_one_are_the_recipe_in_focus(message):
    resolved = resolve(message, "Tell me about the paella", "The Valencian Paella takes about 80 minutes.")

    assert resolved.recipe_ids == ["paella"]
    assert "the Valencian Paella" in resolved.question


def test_it_is_the_recipe_the_user_asked_about_when_the_answer_named_others_too():
    turns = ("How do I make beef stroganoff?", "The Beef Stroganoff goes well with Creamy Mashed Potatoes.")

    assert resolve("Can I freeze it?", *turns).question == "Can I freeze the Beef Stroganoff?"


def test_a_recipe_asked_about_before_a_new_list_is_no_longer_in_focus():
    turns = (
        "Does the Shrimp Fettuccine Alfredo freeze well?",
        "Shrimp Fettuccine Alfredo says you can freeze the rest.",
        "What about similar pasta but vegetarian?",
        "These match best:\n- Pasta Alla Norma (55 min)\n- Simple Creamy Pasta Sauce (5 min)",
    )

    resolved = resolve("ok how do I make it", *turns)

    assert resolved.recipe_ids == ["pasta-alla-norma", "simple-pasta-cream-sauce"]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("and something sweet?", "What about sweet recipes, for a kids birthday party?"),
        (
            "what else could I make",
            "What other recipes are there besides the Spaghetti and Meatballs, for a kids birthday party?",
        ),
        # A change of topic inherits nothing.
        ("totally unrelated, how do I make bread?", "how do I make bread?"),
    ],
)
def test_what_the_food_is_for_is_carried_into_requests_for_more(message, question):
    party = ("what can I make for a kids birthday party", "The Spaghetti and Meatballs is a crowd pleaser.")

    assert resolve(message, *party).question == question


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("can I freeze leftovers?", "Can I freeze leftovers of the Valencian Paella?"),
        ("how long do the leftovers keep?", "How long do the leftovers of the Valencian Paella keep?"),
        # Leftovers to cook with ask for new recipes.
        ("what can I make with leftovers?", "what can I make with leftovers?"),
    ],
)
def test_leftovers_asked_how_they_keep_are_of_the_recipe_in_focus(message, question):
    resolved = resolve(message, "Tell me about the paella", "The Valencian Paella takes about 80 minutes.")

    assert resolved.question == question


def test_a_food_left_out_of_a_request_for_a_food_asks_that_request_again_without_it():
    turns = (
        "need a quick lunch, something with eggs",
        "These match:\n- Stracciatella soup (15 min)\n- Egg Roll in a Bowl (25 min)",
    )

    resolved = resolve("no bread though, I'm off carbs", *turns)

    assert resolved.question == "Need a quick lunch, something with eggs, no bread though, I'm off carbs"
    assert resolved.carried == ["eggs", "ready in under 30 minutes"]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("what could I serve it with", "What could I serve with the Valencian Paella"),
        ("what should we eat it with?", "What should we eat with the Valencian Paella?"),
    ],
)
def test_what_to_serve_it_with_is_asked_as_what_goes_with_the_dish(message, question):
    resolved = resolve(message, "Tell me about the paella", "The Valencian Paella takes about 80 minutes.")

    assert resolved.question == question


def test_sides_offered_beside_the_recipe_asked_about_leave_it_in_focus():
    turns = (
        "lets do the Lamb Biriyani",
        "Good choice, it takes about 1 h 45.",
        "what goes on the side",
        "The Onion Raitha cools things down; Naan Bread is good too.",
    )

    assert resolve("can i make it the day before?", *turns).recipe_ids == ["lamb-biriyani"]


# Exclusions within the set.


def test_not_the_soup_of_the_others_leaves_the_soup_out():
    turns = ("Vegetarian soups?", "Lebanese Lentil Soup, Potato Soup and Gypsy Soup.")

    resolved = resolve("not the potato one; of the others, which is quickest?", *turns)

    assert resolved.recipe_ids == ["lebanese-lentil-soup", "gypsy-soup"]
    assert resolved.question == "Considering the Lebanese Lentil Soup and the Gypsy Soup, which is quickest?"


def test_apart_from_names_what_to_leave_out():
    turns = ("Rice dishes?", "Valencian Paella, Mushroom risotto and Arroz Chaufa.")

    assert resolve("apart from the risotto, which has chicken?", *turns).recipe_ids == [
        "paella",
        "arroz-chaufa",
    ]


LENTILS = (
    "what can i do with lentils",
    "- **Red Lentil Dahl** – red lentils and ginger\n- **Turkish Red Lentil Soup** – with carrot"
    "\n- **Egyptian Lentils** – with macaroni and rice",
)


@pytest.mark.parametrize(
    "message",
    [
        "anything but the soup pls, had soup all wk lol. which of the others is least spicy?",
        "had the soup last night haha. out of the rest which is least spicy?",  # set aside by eating it
        "everything except the 2nd one — which is least spicy?",  # by its place in the list
        "not a fan of carrot so skip that one – which of the others is least spicy?",  # by what it holds
        "without the soup one… which of the rest is least spicy?",
        "not the soup its like 32 degrees here lol. of the others which is least spicy?",  # a remark after
        "not the soup one (husband hates soup). which of the others is least spicy?",
        "made the soup last week, it was a disaster. of the rest which is least spicy?",
    ],
)
def test_a_recipe_set_aside_as_people_say_it_is_left_out(message):
    resolved = resolve(message, *LENTILS)

    assert resolved.recipe_ids == ["red-lentil-dahl", "egyptian-lentils"]
    assert resolved.question.startswith("Considering the Red Lentil Dahl and the Egyptian Lentils, ")
    assert resolved.question.endswith("least spicy?")


def test_a_list_in_bold_names_its_dishes_not_the_ingredients_beside_them():
    turns = (
        "vegetarian curries?",
        "A **Red Lentil Dahl**, or a **Fall Vegetable and Chickpea Curry** with zucchini.",
    )

    assert resolve("which is quickest?", *turns).recipe_ids == [
        "red-lentil-dahl",
        "fall-vegetable-and-chickpea-curry",
    ]


# Earlier constraints carried into elliptical follow-ups.


DINNER = turns(DINNER_HISTORY)


@pytest.mark.parametrize(
    ("message", "turns", "question"),
    [
        ("What about ones with mushrooms?", DINNER, "What about vegetarian recipes with mushrooms?"),
        (
            "And a dessert?",
            ("I'm vegan, what's for dinner?", "The Lenten Chili."),
            "What about a vegan dessert?",
        ),
        ("any soups?", ("Something gluten-free", "The Valencian Paella."), "Any gluten-free soups?"),
        (
            "Is there a vegan one?",
            ("I'd like a curry", "The Butter Chicken Masala Curry."),
            "Is there a vegan curry?",
        ),
        (
            "something with fish?",
            ("I only have 30 minutes tonight", "The Carbonara is quick."),
            "What about recipes with fish, ready in under 30 minutes?",
        ),
    ],
)
def test_an_elliptical_follow_up_keeps_what_the_user_asked_for_earlier(message, turns, question):
    resolved = resolve(message, *turns)

    assert resolved.question == question
    assert resolved.carried


@pytest.mark.parametrize(
    "message",
    [
        "Actually, forget that. How do I make chicken wings?",
        "What drinks do you have?",
        "Now I want to bake bread.",
        "ok, a pizza dough recipe then",
    ],
)
def test_a_change_of_topic_inherits_nothing(message):
    resolved = resolve(message, *VEGETARIAN)

    assert resolved.question == message
    assert not {"mushroom-sauce", "shakshouka", "spanish-tortilla"} & set(resolved.recipe_ids)
    assert resolved.carried == []


def test_a_question_that_stands_on_its_own_is_left_as_it_is():
    resolved = resolve("How do I make Beef Wellington?", *VEGETARIAN)

    assert resolved.question == "How do I make Beef Wellington?"
    assert resolved.recipe_ids == ["beef-wellington"]
    assert resolved.rule is None


# What the catalog does not know.


@pytest.mark.parametrize(
    "message", ["How long does the second one take?", "Can I freeze it?", "Which is vegan?"]
)
def test_recipes_the_catalog_lacks_are_never_guessed(message):
    turns = ("Anything Ethiopian?", "People often make Doro Wat or Misir Wot.")

    assert resolve(message, *turns) == Resolution(message)


def test_a_first_message_needs_nothing():
    assert resolve("From those, which is quickest?") == Resolution("From those, which is quickest?")


def test_the_other_one_is_the_one_of_two_the_user_did_not_just_ask_about():
    turns = (
        "Mapo Tofu or Tofu and Cashew Chow Mein?",
        "Both are good.",
        "How long does the Mapo Tofu take?",
        "The Mapo Tofu takes 25 minutes; the Tofu and Cashew Chow Mein about the same.",
    )

    assert resolve("and the other one, is it spicy?", *turns).recipe_ids == ["tofu-and-cashew-chow-mein"]


def test_the_set_is_the_latest_list_even_after_a_turn_about_one_of_them():
    turns = (
        "A dessert for Saturday?",
        "- **Tiramisù**: no baking.\n- **Crème brûlée**: a custard.\n- **Pavlova**: meringue and fruit.",
        "I like fruit",
        "Then the pavlova is a great fit.",
    )

    assert resolve("how long does the last one take", *turns).recipe_ids == ["pavlova"]
    assert resolve("does it keep overnight?", *turns).recipe_ids == ["pavlova"]


def test_i_dont_eat_pork_leaves_out_every_recipe_with_pork_in_it():
    turns = ("Spaghetti?", "Carbonara, Spaghetti and Meatballs or Spaghetti aglio e olio.")

    resolved = resolve("i dont eat pork so which of the rest is quickest", *turns)

    # The carbonara's guanciale is pork too, though no tag says so.
    assert resolved.recipe_ids == ["aglio-e-olio"]


def test_a_short_name_two_titles_share_is_settled_by_the_conversation():
    turns = ("Something Indian with chicken?", "The tikka masala would be perfect: it feeds 8.")

    assert resolve("does it need a slow cooker", *turns).recipe_ids == ["chicken-tikka-masala"]


def test_a_diet_said_as_a_refusal_is_carried():
    turns = ("My partner can't have gluten or dairy.", "The Fish Curry or the Valencian Paella.")

    assert resolve("what about chicken", *turns).question == (
        "What about gluten-free dairy-free recipes with chicken?"
    )


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("any soups?", "Any gluten-free fish soups?"),
        ("and a dessert?", "What about a gluten-free dessert?"),  # a dessert takes no fish along
        ("any vegetarian curries?", "Any vegetarian gluten-free curries?"),  # nor a diet without meat
    ],
)
def test_the_main_ingredient_asked_for_is_carried_into_a_savoury_dish(message, question):
    turns = ("fish tonight please, has to be gluten free", "Baked salmon or the Fish Curry.")

    assert resolve(message, *turns).question == question


def test_a_question_about_one_recipe_sets_no_diet_for_what_follows():
    turns = ("Mushroom recipes?", "The Mushroom sauce.", "Is it vegetarian?", "Yes, it is.")

    assert resolve("Something with lentils?", *turns).question == "Something with lentils?"


def test_it_after_a_which_question_is_the_recipe_the_answer_chose():
    turns = (
        "Considering the Mushroom sauce, the Mushroom Stroganov and the Winter Risotto, which is quickest?",
        "The quickest is Mushroom Stroganov, 30 min in all. Mushroom sauce takes 35 and Winter Risotto 55.",
    )

    assert resolve("What do I need for it?", *turns).question == "What do I need for the Mushroom Stroganov?"


# A follow-up that only points elsewhere asks the last question again.

ASKED_ABOUT_THE_FIRST = (*VEGETARIAN, "Is the first one vegan?", "No, the Mushroom sauce uses butter.")


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("and the others?", "Are the Shakshouka and the Spanish Tortilla vegan?"),
        ("what about the second one?", "Is the Shakshouka vegan?"),
        ("And the Spanish Tortilla?", "Is the Spanish Tortilla vegan?"),
    ],
)
def test_pointing_at_other_recipes_asks_the_last_question_about_them(message, question):
    assert resolve(message, *ASKED_ABOUT_THE_FIRST).question == question


def test_the_question_asked_again_agrees_with_how_many_recipes_it_is_about():
    turns = (*VEGETARIAN, "How long does the Shakshouka take?", "About 20 minutes.")

    assert resolve("and the others?", *turns).question == (
        "How long do the Mushroom sauce and the Spanish Tortilla take?"
    )


def test_a_pointer_after_a_question_about_no_recipe_is_resolved_as_usual():
    assert resolve("and the second one?", *VEGETARIAN).question == "And the Shakshouka?"


def test_a_title_with_a_parenthesis_is_swapped_whole_when_the_question_is_asked_again():
    turns = (
        "Something sweet?",
        "The Brigadeiro, the Mazurek or the Grands-pères au sirop d'érable (Maple Dumplings).",
        "What do I need for the last one?",
        "For the Grands-pères au sirop d'érable (Maple Dumplings) you need flour and maple syrup.",
    )

    assert resolve("and the others?", *turns).question == "What do I need for the Brigadeiro and the Mazurek?"


# Found by studying held-out follow-ups: each case is a conversation of its own.


def test_a_title_the_user_writes_in_full_is_not_read_as_a_description():
    resolved = resolve("How long does the Lithuanian Cold Borscht take?", *VEGETARIAN)

    assert resolved.question == "How long does the Lithuanian Cold Borscht take?"


def test_an_ingredient_of_the_recipe_in_focus_is_not_a_recipe():
    turns = ("Anything Filipino?", "There's Kalderetang Manok, a chicken stew with liver spread and cheese.")

    assert resolve("what can I use instead of the liver spread in it?", *turns).question == (
        "What can I use instead of the liver spread in the Kalderetang Manok?"
    )


def test_an_ingredient_of_the_recipe_discussed_names_no_other_recipe():
    turns = (
        "quick dinners?",
        "- **Okonomiyaki**, 20 min\n- **Korv Stroganoff**, 25 min\n- **Egg Roll in a Bowl**, 25 min",
        "tell me more about the japanese pancake",
        "Okonomiyaki's batter is flour, egg and water, with shredded cabbage.",
    )

    assert resolve("does it need special equipment?", *turns).recipe_ids == ["okonomiyaki"]


def test_one_in_a_pointer_names_no_recipe_with_one_in_its_title():
    turns = (
        "pasta bakes?",
        "1. **Smoked Salmon Pasta Primavera**\n2. **One-Pot Chicken Tetrazzini**\n3. **Cheesy Pasta Bake**",
    )

    resolved = resolve("anything but the fish one. which is quickest?", *turns)

    assert resolved.recipe_ids == ["one-pot-chicken-tetrazzini", "cheesy-pasta-bake"]


@pytest.mark.parametrize(
    ("message", "picked"), [("no. 2, what do I need?", "shakshouka"), ("#3 pls", "spanish-tortilla")]
)
def test_a_numbered_pick_is_an_ordinal(message, picked):
    assert resolve(message, *VEGETARIAN).recipe_ids == [picked]


def test_a_number_is_the_item_so_numbered_even_after_an_item_the_catalog_lacks():
    turns = (
        "flatbreads i can do in a pan tonight?",
        "1) Turmeric Flatbread – flour, turmeric and olive oil\n2) Naan – yeasted, needs a rest\n"
        "3) Venezuelan Arepa – corn flour discs, 15 min",
    )

    assert resolve("is number 3 gluten free?", *turns).recipe_ids == ["venezuelan-arepa"]


@pytest.mark.parametrize(
    ("asked", "message", "question"),
    [
        (
            "our oven died. dinner ideas that only need the hob?",
            "got any fish ones",
            "Any fish recipes, without an oven?",
        ),
        (
            "what can i throw in the slow cooker before work?",
            "and beef?",
            "What about recipes with beef, in a slow cooker?",
        ),
    ],
)
def test_the_kitchen_asked_for_is_carried(asked, message, question):
    assert (
        resolve(message, asked, "The Chorizo and Chickpea Soup or the Egyptian Lentils.").question == question
    )


def test_it_beside_those_is_the_set_when_no_one_recipe_is_in_focus():
    resolved = resolve("can all of those be frozen or is it only the shakshouka that keeps?", *VEGETARIAN)

    assert resolved.rule == "set"
    assert len(resolved.recipe_ids) == 3


def test_it_in_an_aside_in_brackets_leaves_the_set_asked_about():
    turns = (*VEGETARIAN, "is the shakshouka spicy?", "Mildly: a pinch of cumin and paprika.")

    resolved = resolve("my bf hates heat (and is dramatic about it) - which of those are mild?", *turns)

    assert resolved.rule == "set"
    assert len(resolved.recipe_ids) == 3


KOMBUCHA = "Kombucha is a fun one to start with: sweet tea and a scoby, fermented in a big jar."
MAPO_TOFU = "Mapo tofu is a great pick: silky tofu in a fiery Sichuan sauce with minced pork."


@pytest.mark.parametrize(
    ("turn", "message", "question"),
    [
        (KOMBUCHA, "how long till its ready to drink?", "How long till the Kombucha's ready to drink?"),
        # "the pork" is an ingredient of the dish, not a dish described.
        (MAPO_TOFU, "can i make it without the pork", "Can i make the Mapo Tofu without the pork"),
    ],
)
def test_the_recipe_in_focus_is_read_as_people_point_at_it(turn, message, question):
    assert resolve(message, "something new to try?", turn).question == question


def test_it_before_a_dish_to_make_points_at_nothing():
    turns = ("a Greek dinner?", "Pastitsio as the main, a big Greek salad, and tzatziki on the side.")

    assert resolve("How long does it take to make Greek yogurt from scratch?", *turns).rule != "focus"


def test_a_diet_said_of_the_house_is_asked_for_not_asked_about():
    turns = ("we're gluten free in this house, dinner ideas?", "The Valencian Paella or the Chili Con Carne.")

    assert resolve("what about brekkie", *turns).question == "What about gluten-free breakfast?"


def test_a_pantry_main_is_carried_into_a_dish():
    turns = ("cheap meals using dried lentils?", "Sopa de Lentejas or the Egyptian Lentils.")

    assert resolve("and a curry?", *turns).question == "What about a lentil curry?"


def test_a_numbered_list_names_its_one_word_dishes():
    turns = (
        "comfort food for sunday",
        "1. Lasagna\n2. Shepherd's pie\n3. Meatloaf",
        "lasagna it is!",
        "Great!",
    )

    assert resolve("how long does it keep in the fridge?", *turns).recipe_ids == ["lasagna"]


def test_a_numbered_list_written_on_one_line_offers_every_item():
    turns = (
        "ideas for dinner",
        "1. Mushroom risotto – creamy and rich. 2. Fish Curry – fragrant. 3. Red Lentil Dahl – warming.",
    )

    assert resolve("which is quickest?", *turns).recipe_ids == [
        "mushroom-risotto",
        "fish-curry",
        "red-lentil-dahl",
    ]
    assert resolve("the second one sounds good, how long?", *turns).recipe_ids == ["fish-curry"]


def test_a_meal_asked_for_replaces_the_course_asked_before():
    turns = ("our oven died, any desserts?", "The Batter Pudding or the Honey Vanilla Ice Cream.")

    assert (
        resolve("and something for dinner?", *turns).question
        == "What about recipes for dinner, without an oven?"
    )


BAKED_PASTA = (
    "a baked pasta for a potluck?",
    "1. Lasagna\n2. Baked Mostaccioli\n3. Pastitsio\n4. Cheesy Pasta Bake",
)
TACOS = (
    "taco night!",
    "- slow-cooked pork carnitas\n- slow-cooked chicken tacos\n- frijol con puerco\n- taco meat",
)


@pytest.mark.parametrize(
    ("message", "turns", "kept"),
    [
        (
            "someone else is already bringing lasagna. of the others which is quickest?",
            BAKED_PASTA,
            ["baked-mostaccioli", "pastitsio", "cheesy-pasta-bake"],
        ),
        # A dislike leaves out every recipe with it in, pointed at by "those".
        (
            "my friend doesnt eat pork so skip those. which of the rest?",
            TACOS,
            ["chicken-tacos", "taco-meat"],
        ),
    ],
)
def test_a_recipe_set_aside_by_what_someone_brings_or_does_not_eat(message, turns, kept):
    assert resolve(message, *turns).recipe_ids == kept


@pytest.mark.parametrize(
    "message", ["nice, what do i eat that with?", "ok im making that tonight. any tips?"]
)
def test_that_after_a_verb_points_at_the_recipe_in_focus(message):
    turn = "Belgian pear syrup is perfect for overripe pears: cook them down with apples and sugar."

    assert resolve(message, "loads of overripe pears, ideas?", turn).recipe_ids == ["belgian-pear-syrup"]


def test_it_after_a_dish_the_message_names_is_that_dish():
    turns = ("a pizza for friday?", "The Pan pizza, or the Wholemeal Pizza if you are short on time.")

    resolved = resolve("What's the recipe for limoncello and how long does it have to infuse?", *turns)

    assert resolved.rule != "focus"
    assert "pizza" not in resolved.question.lower()


def test_a_dish_asked_for_beside_a_recipe_keeps_the_diet_asked_before():
    turns = ("hosting 6 saturday, one is coeliac. something impressive?", "The Tuscan Style Pork Roast.")

    assert resolve("and a starter to go with it?", *turns).question == (
        "And a starter to go with the Tuscan Style Pork Roast, gluten-free?"
    )


def test_a_request_in_the_last_sentence_inherits_after_what_comes_before():
    resolved = resolve("my friend doesnt eat eggs so skip any with eggs. what about dessert?", *VEGETARIAN)

    assert (
        resolved.question == "my friend doesnt eat eggs so skip any with eggs. What about vegetarian dessert?"
    )


def test_set_and_forget_is_no_change_of_topic():
    resolved = resolve("which of these can i dump in the slow cooker and forget about", *VEGETARIAN)

    assert resolved.rule == "set"


def test_a_dish_the_user_named_lower_case_is_in_focus():
    turns = ("what is tajine maadnous?", "A Tunisian baked egg dish with chicken and parsley.")

    assert resolve("can I make it the day before?", *turns).question == (
        "Can I make the Tajine Maadnous the day before?"
    )


def test_a_one_word_dish_asked_about_is_in_focus():
    turns = ("whats okonomiyaki exactly, saw it on a food show", "A Japanese savoury cabbage pancake.")

    assert resolve("does it have to have meat?", *turns).recipe_ids == ["okonomiyaki"]


def test_a_title_is_known_by_its_head_before_a_comma():
    turns = ("something austrian?", "Try Schinkenfleckerl überbacken: pasta baked with ham.")

    assert resolve("could I do this with bacon?", *turns).recipe_ids == ["schinkenfleckerl-gratinated"]


def test_a_french_title_is_known_by_its_head_before_au():
    turns = ("dessert ideas?", "For something cozy, grands-pères are dumplings simmered in maple syrup.")

    assert resolve("can I make them ahead?", *turns).recipe_ids == ["grands-peres"]


@pytest.mark.parametrize(
    ("message", "turns", "question"),
    [
        (  # a remark after the question stays after it
            "any with chicken? she loves chicken",
            ("gluten free dinner ideas for my coeliac friend?", "The Valencian Paella."),
            "What about gluten-free recipes with chicken? she loves chicken",
        ),
        (  # "w" is "with"; "off dairy" is a diet
            "something w lentils?",
            ("I'm off dairy for a while, soups please", "The Miso-soup or the Gypsy Soup."),
            "What about dairy-free soups with lentils?",
        ),
        (
            "pasta i guess",
            ("my son is lactose intolerant", "Noted. What kind of dish?"),
            "What about dairy-free pasta i guess?",
        ),
        (
            "any soups",
            ("I'm vegetarian and can't spend more than 45 minutes cooking", "The Shakshouka."),
            "Any vegetarian soups, ready in under 45 minutes?",
        ),
        (  # a cuisine keeps its capital; a lead of thanks is no part of the question
            "cool, any veggie options?",
            ("mexican food night, mains?", "The Slow-cooked Pork Carnitas or the Chimichanga."),
            "Any veggie Mexican recipes?",
        ),
    ],
)
def test_more_elliptical_follow_ups_keep_what_the_user_asked_for(message, turns, question):
    assert resolve(message, *turns).question == question


def test_a_dish_asked_for_by_its_name_inherits_nothing():
    turns = ("something warm to drink?", "The Indian Tea or the Assam Tea.")

    resolved = resolve("do you have a kombucha recipe", *turns)

    assert resolved.question == "do you have a kombucha recipe"
    assert resolved.carried == []


def test_asking_again_drops_the_pointer_word_after_a_title():
    turns = (
        "broccoli stir fry?",
        "1. **Beef and Broccoli**\n2. **Hoisin Tofu and Broccoli**\n3. **Tofu and Cashew Chow Mein**",
        "is the hoisin tofu one vegan?",
        "Yes, the Hoisin Tofu and Broccoli is vegan.",
    )

    assert resolve("and the others?", *turns).question == (
        "Are the Beef and Broccoli and the Tofu and Cashew Chow Mein vegan?"
    )


def test_a_diet_said_long_ago_still_holds_until_the_topic_changes():
    earlier = (
        "I'm vegan, something for lunch?",
        "The Lenten Chili or the Red Lentil Dahl.",
        "How long does the Lenten Chili take?",
        "About an hour.",
        "What do I need for the Red Lentil Dahl?",
        "Red lentils, ginger and garlic.",
        "Is the Red Lentil Dahl spicy?",
        "It has curry powder.",
    )

    assert resolve("and something sweet after?", *earlier).question == "What about sweet vegan recipes after?"

    switched = (
        *earlier,
        "actually forget that, my brother eats everything. a roast?",
        "The Beef Wellington.",
    )
    assert resolve("and a dessert?", *switched).carried == []


def test_a_description_by_a_plural_ingredient_finds_its_recipes():
    # "egg" and the "5 eggs" of an ingredient list are one word.
    picked = resolve("the egg one, how long?", *VEGETARIAN).recipe_ids

    assert picked
    assert set(picked) <= {"shakshouka", "spanish-tortilla"}


@pytest.mark.parametrize(
    "message",
    [
        "what else?",
        "any others?",
        "show me more",
        "none of those, other ideas?",
        "what else could I make",
        "anything else I could serve?",
    ],
)
def test_asking_for_more_asks_for_other_recipes_of_the_kind_asked_for(message):
    resolved = resolve(message, *VEGETARIAN)

    assert resolved.question == (
        "What other vegetarian recipes are there besides"
        " the Mushroom sauce, the Shakshouka and the Spanish Tortilla?"
    )
    assert resolved.recipe_ids == []


def test_more_of_a_dish_asks_for_its_recipes():
    offered = ("a curry please", "These match best:\n- Fall Vegetable and Chickpea Curry (40 min)")

    assert resolve("what else?", *offered).question == (
        "What other curry recipes are there besides the Fall Vegetable and Chickpea Curry?"
    )


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("hmm, none of those. something with tofu?", "What about vegetarian recipes with tofu?"),
        ("not those - any soups?", "Any vegetarian soups?"),
        ("for 6 people?", "What about vegetarian recipes for 6 people?"),
    ],
)
def test_a_refused_set_leaves_a_new_request_that_keeps_the_diet(message, question):
    assert resolve(message, *VEGETARIAN).question == question


def test_thanks_inherits_nothing():
    assert resolve("thanks!", "I'm vegan, what's for dinner?", "The Lenten Chili.").question == "thanks!"


def test_it_with_no_one_recipe_in_focus_is_the_set_in_view():
    turns = (
        *VEGETARIAN,
        "do the Shakshouka and the Spanish Tortilla have nuts?",
        "Shakshouka and Spanish Tortilla list no nuts in their ingredients.",
    )

    resolved = resolve("What do I need for it?", *turns)

    assert resolved.question == "What do I need for the Shakshouka and the Spanish Tortilla?"


def test_actually_in_the_middle_of_a_question_changes_no_topic():
    resolved = resolve("ooh the 2nd. how long does it actually take start to finish?", *VEGETARIAN)

    assert resolved.recipe_ids == ["shakshouka"]
    assert resolved.question.startswith("Ooh the Shakshouka.")


@pytest.mark.parametrize(
    ("message", "turns", "question"),
    [
        (  # a want, said as a sentence: kept whole, with what it inherits after it
            "hmm we're more in the mood for fish tbh",
            ("my partner's coeliac, what can i cook tonight", "The Valencian Paella or the Beef Goulash."),
            "Hmm we're more in the mood for fish tbh (gluten-free)",
        ),
        (
            "meh the kids want pasta",
            ("only got 25 min tonight, what can i make", "Liver and onions, 15 minutes."),
            "Meh the kids want pasta (ready in under 25 minutes)",
        ),
        (  # "those" is the food the message just named, not the recipes offered
            "got a tin of chickpeas to use up, anything with those?",
            (
                "vegetarian household, need some lunch ideas",
                "A Greek Salad, a Shakshouka or a Spanish Tortilla.",
            ),
            "Got a tin of chickpeas to use up, anything with those (vegetarian)?",
        ),
        (  # thanks, shorthand and all
            "perfect. and smth sweet for after?",
            ("we're dairy free at home, dinner ideas?", "The Beef and Broccoli or the Teriyaki Beef Wok."),
            "What about sweet dairy-free recipes for after?",
        ),
        (  # a sweet course keeps the diet, not the curry
            "and something sweet for after?",
            (
                "any good vegetarian curries?",
                "The Fall Vegetable and Chickpea Curry or the Lenten Lentil Curry.",
            ),
            "What about sweet vegetarian recipes for after?",
        ),
        (
            "ty! brekkie ideas too?",
            ("vegan here, a weeknight dinner?", "The Red Lentil Dahl."),
            "What about vegan breakfast recipes too?",
        ),
    ],
)
def test_a_request_said_in_passing_keeps_what_the_user_asked_for(message, turns, question):
    resolved = resolve(message, *turns)

    assert resolved.question == question
    assert resolved.carried


@pytest.mark.parametrize(
    "message",
    [
        "ok different thing, my dad wants ribs for his birthday dinner",
        "how long does beef goulash take btw",  # a question about one dish
        "what about chicken? my son wants meat",  # a meat asked for sets the vegetarian diet aside
    ],
)
def test_a_request_that_changes_course_or_asks_about_a_dish_inherits_no_diet(message):
    resolved = resolve(message, *VEGETARIAN)

    assert "vegetarian" not in resolved.question.lower()


def test_the_other_three_after_a_turn_about_one_are_asked_the_same_question():
    dips = (
        "dips for a party?",
        "- **Fresh Guacamole** – avocado\n- **Hummus** – chickpeas"
        "\n- **Tzatziki** – cucumber\n- **Corn Salsa** – corn",
        "is the hummus vegan?",
        "Yep, hummus is fully vegan.",
    )

    resolved = resolve("ok what about the other 3", *dips)

    assert resolved.question == "Are the Fresh Guacamole, the Tzatziki and the Corn Salsa vegan?"


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "what can i use instead of the buttermilk in that",
            "What can i use instead of the buttermilk in the Lasagna",
        ),
        ("for 2 people?", "The Lasagna for 2 people?"),  # a fragment about the recipe in focus
        ("in that case, which is quicker?", "in that case, which is quicker?"),  # a phrase, no pointer
    ],
)
def test_a_pointer_or_a_fragment_is_about_the_recipe_in_focus(message, question):
    assert (
        resolve(message, "whats a good lasagna recipe", "The **Lasagna** here is fully homemade.").question
        == question
    )


PORTUGUESE = (
    "just back from porto, i miss the food",
    "You could recreate bitoque (steak fried with garlic, a beer sauce), the francesinha from Porto,"
    " that massive sandwich with ham and melted cheese, and bolo do caco, the Madeiran bread.",
)


def test_a_description_is_read_in_the_words_the_assistant_said_of_each():
    assert resolve("omg the sandwich one. what cheese goes in?", *PORTUGUESE).recipe_ids == ["francesinha"]


def test_the_meatless_one_is_the_vegetarian_one():
    swiss = ("something swiss", "Älplermagronen, Fondue or Zurich-Style Meat Saute?")

    assert resolve("the meatless one - does it need kirsch?", *swiss).recipe_ids == ["fondue"]


def test_a_recipe_ruled_out_after_its_name_is_left_out():
    resolved = resolve("the soup's out (allergy). of the rest which is least spicy?", *LENTILS)

    assert resolved.recipe_ids == ["red-lentil-dahl", "egyptian-lentils"]


@pytest.mark.parametrize(
    ("turn", "offered"),
    [
        (  # dishes named in passing, lower case, after a verb or an adjective
            "You could go for stoofvlees, beef stewed in brown beer, or a carbonnade flamande. For"
            " something lighter there's stoemp, potatoes mashed with carrots.",
            ["stoofvlees", "carbonade", "stoemp"],
        ),
        (
            "Honey vanilla ice cream, a lemon granita, or an old-fashioned rice pudding.",
            ["honey-vanilla-ice-cream", "granita", "rice-pudding"],
        ),
        (  # an ingredient of a dish, and a comparison, are not dishes on offer
            "A shakshuka with eggs in a tomato and pepper sauce, or a Spanish tortilla,"
            " a bit like a frittata.",
            ["shakshouka", "spanish-tortilla"],
        ),
    ],
)
def test_an_answer_offers_the_dishes_it_names_in_passing(turn, offered):
    assert resolve("which of those is quickest?", "ideas?", turn).recipe_ids == offered


def test_that_last_one_is_an_ordinal():
    resolved = resolve("that last one u said, how long does it keep?", *VEGETARIAN)

    assert resolved.question.startswith("The Spanish Tortilla u said")


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("could i use turkey instead?", "Could i use turkey instead in the Cheddar-Crusted Chicken?"),
        (
            "can i swap the mayonnaise for yogurt?",
            "Can i swap the mayonnaise for yogurt in the Cheddar-Crusted Chicken?",
        ),
        # A tool lacked: the question is about the recipe in focus.
        (
            "i don't have a roasting tin, is that a problem?",
            "I don't have a roasting tin, is that a problem in the Cheddar-Crusted Chicken?",
        ),
        # … also one its steps say by its last word ("a baking sheet").
        (
            "i don't have a cookie sheet, is that a problem?",
            "I don't have a cookie sheet, is that a problem in the Cheddar-Crusted Chicken?",
        ),
        # A swap asked as whether it would work the same.
        (
            "would frozen turkey work the same?",
            "Would frozen turkey work the same in the Cheddar-Crusted Chicken?",
        ),
        # An ingredient of the recipe in focus, lacked: a swap to find.
        (
            "i don't have panko, is that a problem?",
            "I don't have panko, is that a problem in the Cheddar-Crusted Chicken?",
        ),
        # "it" after a dislike of the food just said is that food; "they" are people.
        (
            "what can I do instead of mayonnaise, they hate it",
            "What can I do instead of mayonnaise in the Cheddar-Crusted Chicken, they hate it",
        ),
        (
            "can i leave out the mayonnaise? they dont like it",
            "Can i leave out the mayonnaise in the Cheddar-Crusted Chicken? they dont like it",
        ),
    ],
)
def test_a_swap_of_ingredients_is_about_the_recipe_in_focus(message, question):
    turns = ("something quick with chicken", "The Cheddar-Crusted Chicken is quick, 30 minutes.")

    assert resolve(message, *turns).question == question


def test_time_lacked_is_no_ingredient_to_swap():
    turns = ("something quick with chicken", "The Cheddar-Crusted Chicken is quick, 30 minutes.")

    assert "Cheddar" not in resolve("i don't have time for that, anything quicker?", *turns).question


def test_a_question_about_an_offered_recipe_sets_no_diet_for_a_new_request():
    turns = (
        "heatwave. cold soup?",
        "The Lithuanian Cold Borscht or the Okroshka.",
        "is the pink one vegetarian?",
        "Yes.",
    )

    resolved = resolve("cool ty. also i need a cake for my daughter's bday, something simple", *turns)

    assert "vegetarian" not in resolved.question


def test_unrelated_changes_the_topic():
    message = "thanks will do the shakshouka. unrelated but whats the best hangover breakfast"

    # What was said before the change of topic is left behind: it would search for the Shakshouka.
    assert resolve(message, *VEGETARIAN).question == "whats the best hangover breakfast"


# How assistants and people write dishes and pointers, met in the seventh round.


def test_a_title_with_a_letter_no_accent_folding_takes_to_a_z_is_still_named():
    turns = ("scandi christmas food?", "- Swedish pancakes\n- Glühwein\n- Scandinavian coffee cake")
    message = "do you have a recipe for danish risengrød? my gf wants it on christmas eve"

    # "it" is the Risengrød the message names, not the set offered.
    assert resolve(message, *turns).question == message


def test_a_list_item_names_its_dish_by_the_first_word_of_the_title():
    turns = ("bread to make with kids?", "* **Damper** - campfire bread\n* **Naan** - soft Indian flatbread")

    assert resolve("do any of these not need yeast?", *turns).recipe_ids == ["damper", "naan-bread"]


def test_a_title_cut_short_is_not_named_when_another_dish_follows():
    turns = (
        "pizza tonight, which dough?",
        "- the basic pizza dough\n- a no-knead dough, it rests for a day\n\nTop with the easy pizza sauce.",
    )

    # Nor is the sauce the prose names after the list one of the options.
    assert resolve("which of them is doable by 7pm? its 5 now", *turns).recipe_ids == [
        "pizza-dough",
        "no-knead-pizza-dough",
    ]


def test_an_item_the_catalog_does_not_spell_is_the_title_its_description_gives():
    turns = (
        "a soup from eastern europe?",
        "1. **Ukrainian borscht** - hot beetroot soup\n2. **Šaltibarščiai** - Lithuanian cold borscht, pink"
        "\n3. **Okroshka** - Russian cold soup with kefir",
    )

    assert resolve("the 2nd one, can i use yoghurt?", *turns).recipe_ids == ["lithuanian-cold-borscht"]


CURRIES = (
    "curry night ideas",
    "- **Red lentil dahl** - mild, vegan\n- **Panang-style beef curry** - with peanut butter\n"
    "- **Chicken tikka masala** - slow cooker",
)


@pytest.mark.parametrize(
    ("message", "turns", "question"),
    [
        # An adjective of a food describes by the food.
        (
            "the peanutty one, can i make it w/o the nuts",
            CURRIES,
            "The Panang-Style Beef Curry, can i make it w/o the nuts",
        ),
        # What the one picked has, and the diet it was picked by, stay said.
        (
            "the one with the anchovies, can i just leave them out?",
            ("cupboard pasta?", "1. Cacio e pepe - pecorino\n2. Puttanesca - tomatoes, anchovies, capers"),
            "The Spaghetti alla puttanesca with the anchovies, can i just leave them out?",
        ),
        (
            "the vegan one - what should i stuff them with",
            (
                "brunch ideas?",
                "- Shakshouka - eggs in tomato\n- Arepas - corn patties, plant-based if you like",
            ),
            "The vegan Venezuelan Arepa - what should i stuff them with, for brunch",
        ),
    ],
)
def test_a_description_keeps_what_the_user_asked_by(message, turns, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # A time said of one recipe sets it aside.
        (
            "def not the 8 hour one. out of the rest whats quickest",
            ["hoisin-pork-belly", "marinated-pork-steaks"],
        ),
        # "the one with pork in it": every recipe of the set with pork.
        (
            "anything but the one with chipotle in it lol. which of the rest?",
            ["hoisin-pork-belly", "marinated-pork-steaks"],
        ),
    ],
)
def test_a_recipe_set_aside_by_its_time_or_what_it_has(message, kept):
    turns = (
        "pork shoulder ideas?",
        "1. Slow-cooked carnitas - chipotle and cumin, about 8h\n2. Hoisin pork belly - sticky glaze\n"
        "3. Marinated pork steaks - soy, honey, lime",
    )

    resolved = resolve(message, *turns)

    assert resolved.rule == "exclusion"
    assert resolved.recipe_ids == kept
    assert resolved.question.startswith("Considering the Hoisin Pork Belly and the Marinated pork steaks, wh")


def test_two_ordinals_together_pick_both():
    turns = ("cookies for a bake sale?", "- Chocolate chip cookies\n- Oatmeal cookies\n- Matcha cookies")

    assert resolve("first and last one pls, how many does each make", *turns).recipe_ids == [
        "chocolate-chip-cookies",
        "matcha-cookies",
    ]


def test_each_of_those_counts_the_set_whatever_food_the_message_names():
    turns = ("lemon desserts?", "- Lemon pudding\n- Limoncini, Italian lemon buns\n- Lemon Meringue Pie")

    assert resolve("how many lemons does each of those use?", *turns).rule == "set"


def test_a_one_word_title_beside_other_dishes_in_prose_is_offered():
    turns = (
        "impressive dinner party main?",
        "How about a beef Wellington, a big homemade lasagna, or a Pot Roast?",
    )

    assert "lasagna" in resolve("can I prep them the day before?", *turns).recipe_ids


def test_a_verb_opening_a_clause_is_no_dish():
    turns = (
        "thinking beef wellington for 8?",
        "Sear the fillet, wrap it in ham, then in puff pastry, and bake for 40 minutes.",
    )

    assert resolve("can i get it all wrapped the night before?", *turns).recipe_ids == ["beef-wellington"]


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # The first message's "it" is the slow cooker it names: its request is carried.
        (
            ("i have a slow cooker, what can i chuck in it in the morning?", "The Chicken Tikka Masala."),
            "any pork ones",
            "Any pork recipes, in a slow cooker?",
        ),
        # How many are eating is carried into the next course.
        (
            (
                "having 8 people over, one is coeliac. mains?",
                "The Valencian Paella or the Chicken Paprikash.",
            ),
            "and for pudding?",
            "What about gluten-free recipes for pudding, for 8 people?",
        ),
        # "not feeling any of those" leaves nothing out; "that need using up" points at nothing.
        (
            (
                "veggie weeknight dinners?",
                "The Pasta Alla Norma or the Stuffed Round Squash.",
                "hmm not feeling any of those",
                "Tell me what you have.",
            ),
            "got a massive box of mushrooms that need using up",
            "What about vegetarian recipes with a massive box of mushrooms that need using up?",
        ),
    ],
)
def test_what_was_asked_before_is_carried_as_people_say_it(turns, message, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        (
            (
                "moving week, oven is disconnected but i still have the hob. dinner ideas?",
                "- **Korv Stroganoff**",
            ),
            "lol ok. what about breakfast?",
            "What about breakfast, without an oven?",
        ),
        # After a remark that names a recipe.
        (
            ("vegan dinner ideas?", "- **Red Lentil Dahl**\n- **Pasta Alla Norma**"),
            "she will love the dahl. dessert is where im lost, what could i do for something sweet after?",
            "she will love the dahl. Dessert is where im lost, what could i do for something sweet after"
            " (vegan)?",
        ),
        # A word or two asked at the end of a remark: "got any?", "what soups?".
        (
            ("vegetarian italian mains for 4", "1. **Pasta Alla Norma**\n2. **Cacio e Pepe**"),
            "hm honestly im more in a risotto mood now, got any?",
            "hm honestly im more in a risotto mood now, any vegetarian Italian recipes, for 4 people?",
        ),
        (
            (
                "my grandma was russian, what did she cook",
                "1. **Pozharskiye Cutlets**\n2. **Pasta Navy Style**",
            ),
            "lol ok. she always had a pot of soup going tho, what soups?",
            "lol ok. she always had a pot of soup going tho, what Russian soups?",
        ),
        # "that" is the meal just said.
        (
            (
                "I have gone vegan this month, need dinner ideas",
                "- **Red Lentil Dahl**\n- **Pasta Alla Norma**",
            ),
            "ty. mornings are the hardest tbh, ideas for that?",
            "Ty. mornings are the hardest tbh, ideas for that (vegan)?",
        ),
    ],
)
def test_a_request_said_around_a_remark_keeps_what_was_asked(turns, message, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("message", "question"),
    [
        # A choice, or words about the set: searched, they would find those recipes again.
        (
            "shakshouka on saturday then. what about sweet ones for sunday",
            "What about sweet breakfast recipes for sunday",
        ),
        ("hmm none of these are really filling tbh. what about something with eggs?", "What about breakfast"),
        # A need stays.
        (
            "my friend doesnt eat tomatoes. what about sweet ones?",
            "my friend doesnt eat tomatoes. What about",
        ),
    ],
)
def test_a_remark_on_the_recipes_offered_is_left_out_of_the_request_after_it(message, question):
    turns = ("quick savoury breakfast for two", "- **Shakshouka**\n- **Breakfast Wrap**")

    resolved = resolve(message, *turns)

    assert resolved.question.startswith(question)
    assert resolved.recipe_ids == []


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # "quick breakfast" reads as the Quick Breakfast Spaghetti, yet asks for a breakfast in
        # 20 minutes.
        (
            ("quick breakfast, 20 min max", "- **Shakshouka**\n- **Venezuelan Arepa**"),
            "any sweet ones?",
            "Any sweet breakfast recipes, ready in under 20 minutes?",
        ),
        # "a no-pork household" leaves pork out.
        (
            ("we are a no-pork household now. what soups can i make?", "- **Chicken Soup**"),
            "what about stews",
            "What about stews, without pork?",
        ),
        # "a risotto" is a kind of dish, not the Mushroom risotto.
        (
            ("vegetarian italian, something cosy", "1. **Gnocchi**\n2. **Pasta Alla Norma**"),
            "is there a risotto?",
            "Is there a risotto (vegetarian, Italian)?",
        ),
    ],
)
def test_needs_said_in_passing_are_carried(turns, message, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # A number is no "one": the user's words stay as written.
        (
            ("a no-bake dessert?", "- **Tiramisù**\n- **Granita**"),
            "which of those keep overnight? and do any need special equipment, i own like one saucepan",
            "Considering the Tiramisù and the Granita, which of those keep overnight? and do any need special"
            " equipment, i own like one saucepan",
        ),
        # "that'll" opens a clause: no recipe is meant.
        (
            ("keto dinner w beef", "1. **Hellfire Steak**\n2. **Steak Tartare**"),
            "hellfire for me. sunday my MIL comes and she's strict vegan, what main could i make that'll"
            " impress her",
            "hellfire for me. sunday my MIL comes and she's strict vegan, what main could i make that'll"
            " impress her",
        ),
        # "it" is the rice to cook, not a recipe offered.
        (
            ("a rice dish?", "The Arroz Chaufa, a Peruvian fried rice."),
            "How do I cook plain rice on the stove so it doesn't turn out mushy?",
            "How do I cook plain rice on the stove so it doesn't turn out mushy?",
        ),
        # A party is an occasion, not the Party Mimosa offered.
        (
            ("breakfast for two tomorrow?", "- **Eggs Benedict**\n- **French Toast**\n- a **Party Mimosa**"),
            "amazing. then for the party saturday we've got 20 people coming, i need something for a crowd",
            "then for the party saturday we've got 20 people coming, i need something for a crowd",
        ),
        # "next question" changes the topic, and "without one" is the blender just said.
        (
            ("soup under an hour?", "**Newfoundland Cod Chowder** (40 min)"),
            "next question — my blender died. can hummus be made without one?",
            "my blender died. can hummus be made without one?",
        ),
    ],
)
def test_the_users_words_are_never_replaced_by_a_recipe_they_do_not_mean(turns, message, question):
    assert resolve(message, *turns).question == question


PAVLOVA_TALK = (
    "a dessert for my kiwi friend?",
    "- **Pavlova**\n- **Honey Vanilla Ice Cream**",
    "pavlova!!",
    "Great choice.",
)


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # An ingredient of the recipe in focus is no description of another recipe offered.
        (
            PAVLOVA_TALK,
            "when exactly do i put the cream and fruit on?",
            "when exactly do i put the cream and fruit on?",
        ),
        # A dish none of the recipes offered is; an idiom; a love said of the answer.
        (
            ("keto bread?", "- **Keto Coconut Bread**\n- **Long-cooked Chuck Steak With Vegetables**"),
            "ha fair. the kids want pancakes tonight and im too tired to fight it, whats the quickest pancake"
            " recipe u got",
            "the kids want pancakes tonight and im too tired to fight it, whats the quickest pancake recipe"
            " u got",
        ),
        (
            ("beef stew?", "The Carbonade Flamande, with brown beer."),
            "love it. side thing — is ricotta doable at home?",
            "is ricotta doable at home?",
        ),
        # A relative "that", a food just brought, and the weather.
        (
            ("dairy-free dinner for my son", "The Teriyaki Beef Wok, 25 minutes."),
            "also his class has a party, what could i bake that he can eat too",
            "also his class has a party, what could i bake that he can eat too",
        ),
        (
            ("veggie curry?", "- **Paneer Tikka Masala**\n- **Fall Vegetable and Chickpea Curry**"),
            "thx. my brother turned up with a rabbit he shot (??) and wants me to cook it tomorrow. help",
            "my brother turned up with a rabbit he shot (??) and wants me to cook it tomorrow. help",
        ),
    ],
)
def test_words_that_point_at_no_recipe_are_left_as_said(turns, message, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # "lunch" after "lunches" is no new occasion; "a lentil one" is a vegetarian lentil soup.
        (
            (
                "vegetarian soups for work lunches?",
                "- **Potato Soup**\n- **Ratatouille**\n- **Okroshka**",
                "cold soup for lunch in november? lol no",
                "Fair enough! The other two are served hot.",
            ),
            "i need more protein tho, a lentil one maybe?",
            "i need more protein tho, what about a vegetarian lentil soup maybe?",
        ),
        ("pescatarian here, dinner ideas?", "any pasta ones?", "Any pescatarian pasta recipes?"),
        (
            ("vegan sides for a bbq?", "- **Three Bean Salad**\n- **Tabouleh**"),
            "nice. we always do a potato thing too tho, is there a potato one that works",
            "Nice. we always do a potato thing too tho, is there a potato one that works"
            " (vegan, sides, for a bbq)",
        ),
        # More of what was asked, with a need of its own.
        (
            (
                "quick italian pasta, 30 min or less",
                "1. **Pasta Arrabbiata**\n2. **Spaghetti alla puttanesca**",
            ),
            "ugh, zero tomatoes in the house. what else is there that doesnt need tomatoes",
            "ugh, zero tomatoes in the house. What other Italian pasta recipes are there besides the Pasta"
            " Arrabbiata and the Spaghetti alla puttanesca, without tomatoes, ready in under 30 minutes?",
        ),
        # A new person's need, asked as what would work for her.
        (
            ("vegetarian indian for saturday?", "- **Red Lentil Dahl**\n- **Paneer Tikka Masala**"),
            "my mum's coming too and she can't have any dairy at all, what would work for her",
            "My mum's coming too and she can't have any dairy at all, what would work for her (vegetarian,"
            " Indian)",
        ),
        # "they" are the mushrooms to use up, not the recipes offered, none of which has them.
        (
            (
                "something vegetarian for 4",
                "- **Fall Vegetable and Chickpea Curry**\n- **Spinach-Rice Casserole**",
            ),
            "what about ones with mushrooms? i have a box of mushrooms to use up before they go slimy",
            "What about vegetarian recipes with mushrooms, for 4 people? i have a box of mushrooms to use up"
            " before they go slimy",
        ),
        # "them" are the chickpeas she loves; "not big on lentils" leaves lentils out.
        (
            (
                "vegan dinner for my sister, she's not big on lentils",
                "- **Lenten Chili**\n- **Pasta Alla Norma**\n- **Ratatouille**",
            ),
            "hmm ok. she does love chickpeas, she puts them in everything, is there anything w chickpeas?",
            "Hmm ok. she does love chickpeas, she puts them in everything, is there anything with chickpeas"
            " (vegan, without lentils)?",
        ),
        # A remark on the set, then a word asked.
        (
            ("quick lunch for my kid", "- **Quesadilla**\n- **Simple Tuna Salad**"),
            "we literally had those yesterday lol. eggs? she'll eat eggs",
            "What about recipes with eggs, ready in under 30 minutes? she'll eat eggs",
        ),
        # A liking said of oneself is a request.
        (
            ("just got a slow cooker!! what should i make first", "**Slow-cooked Chicken Tacos**"),
            "ooh. im more of a pork person tho",
            "Ooh. im more of a pork person tho (in a slow cooker)",
        ),
        # A food with no idea what to do with it is a new topic.
        (
            ("do i need anything special for the lava cake", "Just a baking tin with cupcake pits."),
            "ok. also i got a massive cabbage in my veg box and no idea what to do w it",
            "also i got a massive cabbage in my veg box and no idea what to do w it",
        ),
        # A diabetic's need is carried beside a dish to serve, with the fish left out.
        (
            (
                "cooking for my parents, dad is diabetic and mum doesn't eat fish",
                "- **Stuffed vegetables**\n- **Autumn Soup**",
                "how long does the first one take?",
                "Stuffed vegetables takes 60 min in all.",
            ),
            "ok, what could I serve with it?",
            "Ok, what could I serve with the Stuffed vegetables, diabetic, without fish?",
        ),
        # Cooking no one wants to do is a kitchen, and carried.
        (
            ("it's 35°C. what can i eat that doesn't need any cooking", "- **Greek Salad**"),
            "something w fish maybe?",
            "What about recipes with fish maybe, without cooking?",
        ),
    ],
)
def test_what_was_asked_is_carried_into_requests_said_at_length(turns, message, question):
    turns = (turns, "Some ideas: the Fish Curry.") if isinstance(turns, str) else turns
    assert resolve(message, *turns).question == question


def test_a_verdict_on_the_recipe_in_focus_sets_it_aside_and_leaves_no_words_behind():
    turns = (
        "pork for dinner, kinda asian-ish",
        "- **Hoisin Pork Belly**\n- **Miso Ginger Pork**\n- **Sticky Porkchops**",
        "is the pork belly really fatty?",
        "Yes, it calls for high-fat pork belly, cooked slowly in its own lard.",
    )

    resolved = resolve(
        "yeah thats a no from me then, way too rich. between the rest, anything quick?", *turns
    )

    assert resolved.question == (
        "Considering the Miso Ginger Pork and the Sticky Porkchops, way too rich. anything quick?"
    )


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("what's step 3 again?", "What's step 3 of the Creamy Mashed Potatoes again?"),
        ("and the last step?", "And the last step of the Creamy Mashed Potatoes?"),
    ],
)
def test_a_step_asked_by_its_number_is_a_step_of_the_recipe_in_focus(message, question):
    turns = (
        "something cosy with potatoes",
        "- **Irish Potato Casserole**\n- **Cheesy Potato Bake**\n- **Creamy Mashed Potatoes**",
        "how do I make the last one?",
        "To make Creamy Mashed Potatoes (gluten-free), you need: 1kg potatoes …",
    )

    resolved = resolve(message, *turns)

    assert resolved.question == question
    assert resolved.recipe_ids == ["creamy-mashed-potatoes"]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "what would go well on the side?",
            "What would go well on the side, alongside the Drunken beans (Pintos Borrachos), vegan?",
        ),
        ("any sides?", "Any vegan sides, alongside the Drunken beans (Pintos Borrachos)?"),
        (
            "ooh the second one sounds good. what would go well on the side?",
            "Ooh the Drunken beans (Pintos Borrachos) sounds good. what would go well on the side,"
            " alongside the Drunken beans (Pintos Borrachos), vegan?",
        ),
    ],
)
def test_a_side_dish_asked_for_goes_beside_the_recipe_in_focus_and_keeps_the_diet(message, question):
    turns = (
        "my partner is vegan, dinner?",
        "These match: - Lenten Chili - Drunken beans (Pintos Borrachos) - Tabouleh",
        "how long does the second take?",
        "Drunken beans (Pintos Borrachos) does not give its total time.",
    )

    resolved = resolve(message, *turns)

    assert resolved.question == question
    assert resolved.recipe_ids == ["drunken-beans"]


def test_a_one_pot_request_is_carried_and_a_bread_to_dunk_goes_beside_the_soup():
    assert resolve(
        "any vegetarian ones?", "one pot meals pls, i hate washing up", "- **Älplermagronen**\n- **Lasagna**"
    ).question == ("Any vegetarian recipes, in one pot?")
    assert resolve(
        "sweet. and something bready to dunk in it?",
        "im vegan and want a hearty soup for the week",
        "- **Turkish Red Lentil Soup**\n- **Lebanese Lentil Soup**",
        "is the lebanese one good frozen?",
        "Yes, the Lebanese Lentil Soup freezes well.",
    ).question == ("Sweet. and something bready to dunk in the Lebanese Lentil Soup, vegan?")


def test_anyway_said_as_a_sentence_turns_the_talk():
    turns = ("wfh lunch under 15 min, go", "1. **Quesadilla**\n2. **Simple Tuna Salad**")

    resolved = resolve(
        "anyway lol. next weekend we're camping, is there a bread i could make over the fire?", *turns
    )

    assert "15" not in resolved.question and resolved.recipe_ids == []


def test_a_food_lacked_from_a_list_the_user_has_is_no_recipe_set_aside():
    turns = (
        "something with tofu for dinner?",
        "- **Hoisin Tofu and Broccoli**\n- **Mapo Tofu**\n- **Tofu Stir Fry**",
        "let's go with the hoisin one, what do i need to buy",
        "For **Hoisin Tofu and Broccoli** you'll need: tofu, broccoli, hoisin sauce, Shaoxing wine",
    )

    resolved = resolve(
        "perfect, i've got basically all of that except the shaoxing wine — fine to skip it?", *turns
    )

    assert resolved.recipe_ids == ["hoisin-tofu-and-broccoli"]
    assert "except the shaoxing wine" in resolved.question


def test_whether_a_recipe_suits_someone_asks_for_the_needs_said_of_them():
    turns = (
        "my brother's coming tomorrow and he's coeliac, dessert ideas?",
        "These 3 recipes match best:\n- Pavlova\n- Rice Pudding\n- Honey Vanilla Ice Cream",
    )

    resolved = resolve("is the pavlova definitely safe for him?", *turns)

    assert resolved.question == "Is the pavlova definitely safe for him, gluten-free?"
    assert resolved.recipe_ids == ["pavlova"]
    assert resolve(
        "can she eat the second one?",
        "my daughter has a nut allergy, cookies?",
        "- **Pavlova**\n- **Oatmeal Cookies**",
    ).question == ("Can she eat the Oatmeal Cookies, nut-free?")


def test_a_course_to_go_with_it_goes_with_the_recipe_in_focus():
    turns = (
        "I'd love to cook something Indian this weekend",
        "- **Curry sauce**\n- **Butter Chicken Masala Curry**\n- **Onion Raitha (Indian Tzatziki)**",
        "is number 2 very spicy?",
        "Butter Chicken Masala Curry has Chilli Powder 1 tbsp.",
    )

    assert resolve("ok, how about a dessert to go with it", *turns).question == (
        "Ok, how about a dessert to go with the Butter Chicken Masala Curry"
    )
    assert resolve("how about a dessert?", *turns[:2]).question == "What about an Indian dessert?"


def test_a_meal_added_with_and_keeps_the_diet():
    turns = ("what's a good vegan breakfast?", "- **Granola**\n- **Country Crisp Cereals**")

    resolved = resolve("ok and for lunch, something with chickpeas", *turns)

    assert resolved.question == "What about vegan lunch recipes with chickpeas?"


def test_a_nut_allergy_carries_into_a_new_food_but_the_dessert_does_not():
    turns = ("ok something sweet for after, no nuts please", "- **Batter Pudding**\n- **Orange Pudding**")

    resolved = resolve("actually, what can I do with a big bag of lentils", *turns)

    assert resolved.question == "Actually, what can I do with a big bag of lentils (nut-free)"
    assert resolve("and a drink?", *turns).question == "What about a nut-free drink?"


def test_ones_with_something_keep_the_main_asked_for():
    turns = (
        "gluten free chicken dinners?",
        "- **Lemon and oregano chicken traybake**\n- **Exotic Ginger Cumin Chicken**",
    )

    resolved = resolve("i have leftover rice to use tho, ones with rice in them?", *turns)

    assert resolved.question.endswith("what about gluten-free chicken recipes with rice in them?")


def test_a_recipe_left_aside_before_a_question_about_them_is_left_out():
    turns = (
        "beef stews?",
        "1. **Stoofvlees**\n2. **Carbonade Flamande (Traditional Flemish beef stew)**\n"
        "3. **Galinha Caipira**",
    )

    resolved = resolve("so leaving the brazilian chicken one aside — which of them have no beer?", *turns)

    assert resolved.recipe_ids == ["stoofvlees", "carbonade"]


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # The weather, however cold.
        (
            ("vegan dinner ideas", "- **Lenten Chili**\n- **Egyptian Lentils**"),
            "haha. what about soups tho, its absolutely freezing here",
            "What about vegan soups tho, its absolutely freezing here?",
        ),
        # A dish of the user's own, described: "this soup" would be the one in focus.
        (
            ("russian food?", "- **Pozharskiye Cutlets**\n- **Pasta Navy Style**"),
            "ok. my grandma used to make this cold summer soup with kefir, any soups from there?",
            "ok. my grandma used to make this cold summer soup with kefir, any Russian soups from there?",
        ),
        # A starter is another dish than the main: the lamb stays with the main, the dinner
        # party goes on.
        (
            ("dinner party saturday, lamb as the main", "- **Slow-cooked Lamb with Lemon**\n- **Tuh’u**"),
            "ok sold. for the starter tho its gonna be hot that day, maybe a chilled soup?",
            "ok sold. for the starter tho its gonna be hot that day, what about a chilled soup,"
            " for a dinner party?",
        ),
        # A season, a dish asked for by its name, a part of a dish just said.
        (
            ("squash ideas for 6", "- **Tuscan Style Pork Roast**\n- **Savory Squash**"),
            "yes please, something vegetarian with squash would be ideal since its autumn",
            "Yes please, something vegetarian with squash would be ideal since its autumn (for 6 people)",
        ),
        (
            ("comfort food", "- **Cheesy Potato Bake**\n- **Colcannon Bake**"),
            "do you have schinkenfleckerl, the austrian ham and noodle bake? my oma made it every winter",
            "do you have schinkenfleckerl, the austrian ham and noodle bake? my oma made it every winter",
        ),
        (
            ("arepas?", "- **Venezuelan Arepa**"),
            "for friday we are doing a lasagna and i always mess up the ricotta layer, it comes out watery."
            " got a good filling recipe for that",
            "for friday we are doing a lasagna and i always mess up the ricotta layer, it comes out watery."
            " got a good filling recipe for that",
        ),
        # Made the night before: nothing set aside.
        (
            ("dips for a party", "1. **Hummus**\n2. **Tzatziki**\n3. **Fresh Guacamole**"),
            "which can sit out the longest, and can any of them be made the night before?",
            "Considering the Hummus, the Tzatziki and the Fresh Guacamole, which can sit out the longest, and"
            " can any of them be made the night before?",
        ),
    ],
)
def test_what_a_message_says_of_other_things_points_at_no_recipe(turns, message, question):
    assert resolve(message, *turns).question == question


@pytest.mark.parametrize(
    ("turns", "message"),
    [
        (
            ("italian dessert for sunday?", "1. **Tiramisù**\n2. **Crostata**"),
            "crostata, done. and now for something completely different: pickled eggs like in german pubs?",
        ),
        (
            ("snacks for the kids party", "- **Kettle Corn**\n- **Chocolate Chip Cookies**"),
            "ok thats the kids sorted. now for the grown-ups — something warm with red wine in it?",
        ),
        (
            (
                "going keto, need a dinner",
                "- **Keto Coconut Bread**\n- **Long-cooked Chuck Steak With Vegetables**",
            ),
            "anyway scrap the keto stuff for a sec, my dad misses home, what portuguese dishes have you got",
        ),
        (
            (
                "gluten free chicken dinners?",
                "- **Turkish-Style Spiced Chicken**\n- **Honey Sriracha Chicken Thighs**",
            ),
            "thanks those look good!! btw a friend gave me rye flour to make my own sourdough starter with,"
            " how do i do that",
        ),
    ],
)
def test_words_of_switching_said_loosely_change_the_topic(turns, message):
    resolved = resolve(message, *turns)

    assert resolved.carried == []
    assert not re.search(r"Crostata|Coconut|Chicken", resolved.question)
    assert resolved.recipe_ids in ([], ["soleier"])  # what the new question names itself


def test_a_swap_asked_of_the_recipe_in_focus_names_it_where_the_question_ends():
    turns = (
        "that pink cold soup from lithuania?",
        "That is **Lithuanian Cold Borscht**: beets, kefir and dill.",
    )

    resolved = resolve(
        "omg yes. can i use greek yogurt if i cant find kefir? the shop is closed til monday", *turns
    )

    assert resolved.question == (
        "Omg yes. can i use greek yogurt if i cant find kefir in the Lithuanian Cold Borscht? the shop is"
        " closed til monday"
    )
    assert resolved.recipe_ids == ["lithuanian-cold-borscht"]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "random but how do i make mayo, my blender keeps splitting it",
            "how do i make mayo, my blender keeps splitting it",
        ),
        ("random q: how long do eggs boil?", "how long do eggs boil?"),
    ],
)
def test_random_opens_a_new_topic(message, question):
    resolved = resolve(message, *VEGETARIAN)

    assert (resolved.question, resolved.recipe_ids) == (question, [])


def test_a_food_to_use_up_is_carried_into_the_next_meal():
    turns = (
        "we went apple picking and now have way too many apples",
        "You could bake an Apple Pie or make the Apple Chicken.",
    )

    assert resolve("nice. anything for breakfast too?", *turns).question == (
        "What about recipes for breakfast too, using apples?"
    )


def test_scaling_with_no_pointer_scales_the_recipe_in_focus():
    turns = ("dessert for 16, no oven", "Tiramisù is a great pick: no baking at all. The recipe serves 8.")

    resolved = resolve("so I just double everything?", *turns)

    assert resolved.recipe_ids == ["tiramisu"]
    assert resolved.question == "So I just double everything for the Tiramisù, for 16 people?"


def test_a_table_lists_its_rows_and_its_numbers_count():
    turns = (
        "salsas for taco night?",
        "| # | Salsa | Notes |\n|---|---|---|\n| 1 | Salsa verde | tomatillos, tangy |\n"
        "| 2 | Corn salsa | sweetcorn, lime |\n| 3 | Guacamole | avocado, lime |",
    )

    assert resolve("2nd one can i make it the night before?", *turns).recipe_ids == ["corn-salsa"]
    # The header's column names are no dishes.
    assert resolve("can i make all of them ahead?", *turns).recipe_ids == [
        "salsa-verde",
        "corn-salsa",
        "guacamole",
    ]


def test_the_catalog_name_in_a_bold_items_parenthesis_is_the_item():
    turns = (
        "seafood for date night?",
        "- **Peruvian ceviche** - raw fish in lime\n"
        "- **Galician octopus** (pulpo a la gallega) - on potatoes",
    )

    assert resolve("any of those doable in half an hour?", *turns).recipe_ids == ["ceviche", "pulpo-gallega"]


def test_an_answer_to_a_side_question_keeps_the_list_in_view():
    turns = (
        "fermenting for beginners?",
        "* **Sauerkraut** - cabbage and salt\n* **Kombucha** - sweet tea\n* **Kvass** - from black bread",
        "kombucha is safe?",
        "Yes, if you keep it clean: always add some mature kombucha as starter liquid.",
    )

    assert resolve("which of them is ready fastest?", *turns).recipe_ids == [
        "sauerkraut",
        "kombucha",
        "kvass",
    ]


@pytest.mark.parametrize(
    ("turns", "message", "picked"),
    [
        # A one-word title opening a sentence of a bold turn is a word: "Eggs gently poached".
        (
            ("easy brunch with eggs?", "Try **shakshouka**! Eggs gently poached in tomatoes and paprika."),
            "is that one spicy?",
            ["shakshouka"],
        ),
        # A dish written as the ingredient of the dish asked about is that dish's part.
        (
            (
                "want to do beef wellington for christmas",
                "Wrap the seared fillet in ham, then in puff pastry.",
            ),
            "can i assemble it the day before?",
            ["beef-wellington"],
        ),
        # "instead of lamb" is about the one recipe with lamb, not the raitha just discussed.
        (
            (
                "i'd like to make biryani",
                "There's a **Lamb Biriyani**, best served with an onion raitha.",
                "how spicy is the raitha?",
                "Not at all: it's Greek yogurt, red onion, cucumber and mint.",
            ),
            "can i make it with chicken instead of lamb?",
            ["lamb-biriyani"],
        ),
    ],
)
def test_it_is_the_dish_the_conversation_is_about(turns, message, picked):
    assert resolve(message, *turns).recipe_ids == picked


def test_actually_alone_changes_no_topic():
    turns = (
        "stuffed veg?",
        "- Romanian stuffed peppers (ardei umpluți) with beef\n- Stuffed round squash with rice and cheese",
    )
    message = "ok actually my neighbour is vegetarian. the veggie one, what cheese?"

    assert resolve(message, *turns).recipe_ids == ["stuffed-round-squash"]


def test_forget_the_fish_beside_a_pointer_into_the_set_changes_no_topic():
    turns = (
        "japanese at home?",
        "- **Okonomiyaki** - cabbage pancake\n- **Miso ginger pork** - over rice\n"
        "- **Grilled mackerel with miso soup and squash**",
        "is mackerel fishy?",
        "It is an oily fish, stronger than cod.",
    )
    message = "ok forget the fish. between the first two which is quicker?"

    assert resolve(message, *turns).recipe_ids == ["okonomiyaki", "miso-ginger-pork"]


@pytest.mark.parametrize(
    ("message", "turns", "kept"),
    [
        (
            "i'll leave the borscht for now. of the rest which is easiest?",
            ("ukrainian food?", "1. Ukrainian borscht\n2. Vareniki with potato\n3. Pozharsky cutlets"),
            ["ukrainian-vareniki", "pozharskiye-cutlets"],
        ),
        (
            "anything but the risottos. whats left that is less work?",
            (
                "rice mains?",
                "- Mushroom risotto\n- Winter risotto\n- Valencian paella\n- Uzbek plov (pilaf) with lamb",
            ),
            ["paella", "pilaf"],
        ),
        # "for the mains": the pork ones are in the list before the dips.
        (
            "half my friends dont eat pork, so for the mains skip the pork ones. which is best in bulk?",
            (
                "mexican buffet?",
                "* **Pork carnitas**\n* **Chili con carne**\n* **Frijol con puerco**\n* **Taco meat**",
                "and dips?",
                "A fresh **guacamole**, a **tomato salsa** and **refried beans**.",
            ),
            ["chili-con-carne", "taco-meat"],
        ),
    ],
)
def test_what_is_set_aside_is_read_as_people_say_it(message, turns, kept):
    assert resolve(message, *turns).recipe_ids == kept


def test_a_title_written_with_two_words_as_one_is_named():
    turns = ("cookies that aren't chocolate chip?", "- **Matcha cookies**\n- **Tahini shortbread** - nutty")

    assert resolve("the last one, by hand or food processor?", *turns).recipe_ids == ["tahini-short-bread"]


def test_this_before_a_noun_and_the_last_before_a_time_point_at_nothing():
    turns = ("scandi christmas food?", "- Swedish pancakes\n- Glühwein\n- Scandinavian coffee cake")

    for message in (
        "I need a cold beetroot soup for this heatwave, ideally one made with kefir.",
        "the last hour before dinner is chaos, what can I make in 20 minutes?",
    ):
        assert resolve(message, *turns).recipe_ids == []


def test_option_b_is_the_second_option():
    turns = (
        "a lamb dish that is a bit different?",
        "**Option A - Tuh'u**: a Babylonian lamb stew.\n\n"
        "**Option B - Lamb biriyani**: spiced rice and lamb.",
    )

    assert resolve("option B please. can i finish it in a rice cooker?", *turns).recipe_ids == [
        "lamb-biriyani"
    ]


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "not the cold ones, hers was always hot. from other two which is more traditional?",
            ["ukrainian-borscht", "modern-borscht"],
        ),
        (
            "not the okroshka. between the othr 3 which is quickest?",
            ["ukrainian-borscht", "modern-borscht", "lithuanian-cold-borscht"],
        ),
    ],
)
def test_the_others_as_people_type_them(message, kept):
    turns = (
        "borscht recipes?",
        "1. Ukrainian borscht - hot, with beans\n2. Modern borscht - beef and cabbage\n"
        "3. Lithuanian cold borscht - pink kefir soup\n4. Okroshka - a cold kefir soup with sausage",
    )

    assert resolve(message, *turns).recipe_ids == kept


def test_apart_from_that_one_sets_the_recipe_in_focus_aside():
    turns = (
        "potato sides?",
        "**Gnocchi** - homemade dumplings\n**Parmesan potatoes** - pan-fried\n**Potato purée** - smooth mash",
        "gnocchi sounds like a project",
        "It is a bit: you boil, mash and knead the potatoes, then roll the dough.",
    )

    assert resolve("yeah apart from that one, which is less work", *turns).recipe_ids == [
        "parmesan-potatoes",
        "potato-pure",
    ]


def test_it_after_a_turn_that_picked_one_by_pointing_is_that_one():
    turns = (
        "got a whole duck. ideas??",
        "- **Bebek Mropol** - Indonesian duck in coconut milk\n"
        "- **Collard greens with smoked duck and parsnips**",
        "tell me more about the indonesian one",
        "Brown the duck pieces, then simmer them in coconut milk with lemongrass for an hour.",
    )

    assert resolve("how spicy is it actually?", *turns).recipe_ids == ["bebek-mropol"]


@pytest.mark.parametrize(
    ("turns", "message", "question"),
    [
        # A course asked for replaces the dish asked before; the time limit stays.
        (
            (
                "I forgot dessert, something in 20 min or less??",
                "The Torrijas or the Tiramisù.",
                "doing the tiramisu!",
                "Great pick.",
            ),
            "omg and a starter too?",
            "What about a starter too, ready in under 20 minutes?",
        ),
        # "ok and …" adds to what was asked.
        (
            (
                "i want to throw stuff in the slow cooker in the morning",
                "The Chicken Tikka Masala or the Pork Carnitas.",
            ),
            "ok and any soups?",
            "Any soups, in a slow cooker?",
        ),
        # A food said before "to use up" is carried, whatever else is asked for.
        (
            ("i have like 8 zucchini to use up", "The Ratatouille or the Air Fryer Zucchini."),
            "and smth with meat or fish?",
            "What about recipes with meat or fish, using zucchini?",
        ),
    ],
)
def test_more_of_what_was_asked_is_carried(turns, message, question):
    assert resolve(message, *turns).question == question


def test_either_or_points_at_no_set():
    turns = ("a make-ahead brunch dish?", "The Spanish Tortilla is great: it cuts into squares for a crowd.")

    resolved = resolve("can I bake this the day before and either serve it cold or reheat it?", *turns)

    assert resolved.recipe_ids == ["spanish-tortilla"]


NOODLES = (
    "noodle craving",
    "- Yibin burning noodles - Sichuan, chili oil\n- Teriyaki beef wok - beef and noodles\n"
    "- Tom yam noodle soup - Thai, coconut milk and lime",
)


@pytest.mark.parametrize(
    ("message", "picked"),
    [
        # "the asian store" describes a store, not a dish; "the thai one" picks.
        (
            "sounds like a trip to the asian store lol. the thai one then, is it spicy?",
            ["instant-tom-yam-kung-noodle-soup"],
        ),
        # A description without its "the", opening the message: the quickest by the catalog.
        ("quicker one then, kids are starving", ["instant-tom-yam-kung-noodle-soup"]),
    ],
)
def test_a_description_is_read_where_it_describes_a_dish(message, picked):
    assert resolve(message, *NOODLES).recipe_ids == picked


def test_one_of_them_not_eating_pork_sets_the_pork_ones_aside():
    turns = (
        "a quick meat dish for friends?",
        "- marinated pork shoulder steaks\n- miso ginger pork with rice\n"
        "- teriyaki beef wok\n- Hellfire steak",
    )

    resolved = resolve("one of them doesnt eat pork so skip the pork ones. of the rest whats fastest", *turns)

    assert resolved.recipe_ids == ["teriyaki-beef", "hellfire-steak"]
    assert (
        resolved.question
        == "Considering the Teriyaki Beef Wok and the Hellfire Steak, skip the pork ones. whats fastest"
    )


def test_a_list_bulleted_with_dashes_counts_its_items_not_the_sauces_they_describe():
    turns = (
        "meat free curry i can batch cook",
        "Options:\n\n– Red lentil dahl: onion, ginger, tomatoes and red lentils\n"
        "– Potato and aubergine curry: garam masala, turmeric and coconut milk\n"
        "– Fall vegetable & chickpea curry: sweet potato and chickpeas in a Thai red curry sauce",
    )

    assert resolve("the last one – does it freeze ok?", *turns).recipe_ids == [
        "fall-vegetable-and-chickpea-curry"
    ]


def test_an_item_the_catalog_spells_another_way_is_its_own_dish():
    turns = (
        "chicken thighs, something asian-ish",
        "1. Chicken satay with a peanut sauce – about 25 min\n2. Honey sriracha thighs – oven-baked\n"
        "3. Chicken kaldereta – a rich Filipino tomato stew with liver spread",
    )

    assert resolve("the filipino one, what can i use instead of liver spread?", *turns).recipe_ids == [
        "kalderetang-manok"
    ]


def test_what_an_item_says_belongs_to_that_item_only():
    turns = (
        "chicken thighs, something asian-ish",
        "1. Honey sriracha thighs – oven-baked\n2. Chicken teriyaki-ish – a Filipino-style stew I made up",
    )

    # The second item names no catalog dish: "Filipino" says nothing of the first.
    assert resolve("the filipino one?", *turns).recipe_ids != ["honey-sriracha-chicken-thighs"]


@pytest.mark.parametrize(
    ("turns", "message", "recipe_id"),
    [
        (
            (
                "Swiss evening with friends",
                "Then it has to be a **cheese fondue**! Melt Gruyère into white wine.",
            ),
            "what can I use instead of the kirsch in it?",
            "fondue",
        ),
        (
            ("how do you make a proper paella", "The Valencian version uses bomba rice, chicken and rabbit."),
            "can i swap the rabbit for prawns?",
            "paella",
        ),
    ],
)
def test_a_dish_written_in_bold_or_by_its_own_word_is_in_focus(turns, message, recipe_id):
    assert resolve(message, *turns).recipe_ids == [recipe_id]


DIPS = (
    "dips for a party",
    "1. Hummus – chickpeas and tahini\n2. Tzatziki – Greek yoghurt and cucumber\n"
    "3. Guacamole – avocado and lime\n4. Onion raita – yoghurt, red onion and mint",
)


@pytest.mark.parametrize(
    "message",
    [
        "one guest is dairy free so ditch the yoghurt ones. out of the other two which keeps better?",
        "minus the yoghurt ones, which keeps better?",
    ],
)
def test_ditch_and_minus_set_recipes_aside(message):
    assert resolve(message, *DIPS).recipe_ids == ["hummus", "guacamole"]


def test_leave_out_sets_aside_and_the_rest_is_asked_about():
    turns = (
        "chicken for the work week",
        "### Japanese Noodle Soup\nA ramen-style soup.\n\n### Exotic Ginger Cumin Chicken\nGinger and cumin.",
    )

    resolved = resolve("Leave out the soup, it doesn't travel well. Of the rest, which is quickest?", *turns)

    assert resolved.recipe_ids == ["exotic-ginger-cumin-chicken"]
    assert ".," not in resolved.question


def test_a_topping_named_in_prose_is_part_of_the_dish_before_it():
    turns = (
        "Easter dessert, a cake or a tart",
        "The obvious pick is mazurek, the Polish Easter cake spread with orange jam. Another option is a"
        " Scandinavian coffee cake. An Italian crostata is simpler.",
    )

    assert resolve("which of the first two is less work?", *turns).recipe_ids == [
        "mazurek",
        "scandinavian-coffee-cake",
    ]


@pytest.mark.parametrize(
    ("turns", "message", "carried"),
    [
        (
            ("Vegetarian dinner, I've got 30 mins max.", "Aglio e olio, or a shakshuka."),
            "and a quick side salad?",
            ["vegetarian", "30 minutes"],
        ),
        (
            ("my sister is vegan, dinners please", "1. **Lenten chili**\n2. **Red lentil dahl**"),
            "yes pls – what about pasta?",
            ["vegan", "pasta"],
        ),
        (
            ("chicken recipes without dairy?", "- **Chicken Soup**\n- **Japanese Noodle Soup**"),
            "what abt beef",
            ["dairy-free", "beef"],
        ),
        (
            ("vegetarian dinner ideas pls", "1. **Paneer Tikka Masala**\n2. **Stuffed vegetables**"),
            "hmm what about smth w mushrooms? my dad loves them",
            ["vegetarian", "mushrooms"],
        ),
        (
            ("craving indian tonight", "- **Butter Chicken Masala Curry**\n- **Lamb Biriyani**"),
            "anything w/o meat tho?",
            ["Indian", "without meat"],
        ),
    ],
)
def test_shorthand_and_courtesies_still_carry_what_was_asked(turns, message, carried):
    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert all(word in resolved.question for word in carried)


def test_scrap_that_changes_the_topic():
    turns = ("vegan lunch ideas", "- Three bean salad\n- Hummus with crudités\n- Lenten chili")

    resolved = resolve(
        "lol scrap that, it got cancelled. husband wants steak – what's a good sauce for it?", *turns
    )

    assert resolved.recipe_ids == []


def test_a_recipe_the_message_names_is_spelled_as_the_catalog_spells_it():
    turns = ("japanese food at home", "- **Okonomiyaki** – cabbage pancake\n- **Miso Ginger Pork**")

    assert resolve("the okonomiaki thing, what if i dont have dashi", *turns).question == (
        "the Okonomiyaki thing, what if i dont have dashi"
    )


def test_the_one_that_needs_no_baking_is_the_one_whose_steps_use_no_oven():
    turns = (
        "fancy dessert for date night?",
        "1. Tiramisù - savoiardi and mascarpone\n2. Crème brûlée - baked custard\n"
        "3. Molten chocolate lava cakes",
    )

    resolved = resolve("so the one that doesnt need baking, how long does it set in the fridge?", *turns)

    assert resolved.recipe_ids == ["tiramisu"]


def test_a_word_said_before_the_list_names_none_of_its_recipes():
    turns = (
        "need a fish dinner tonight",
        "| Dish | Time |\n|---|---|\n| **Fish Curry** | 30 min |\n| **Newfoundland Cod Chowder** | 40 min |",
    )

    resolved = resolve("which ones are dairy free? also can u freeze fish soup or does it go weird", *turns)

    assert resolved.rule == "set"
    assert resolved.recipe_ids == ["fish-curry", "newfoundland-cod-chowder"]


def test_what_a_dish_is_described_as_enumerates_no_other_dish():
    turns = (
        "what portuguese stuff do you have",
        "1. **Bolo do Caco** - a flatbread\n2. **Francesinha** - Porto's famous sandwich",
        "the 2nd, whats in it?",
        "A Francesinha is a big, rich sandwich from Porto: bread, sausage, ham and steak.",
    )

    assert resolve("too heavy. what about number 1?", *turns).recipe_ids == ["bolo-do-caco"]


@pytest.mark.parametrize(
    ("turns", "message", "picked"),
    [
        (
            (
                "potato side dishes",
                "1. **Rösti** - grated potatoes fried in butter\n2. **Stoemp** - mash with bacon bits\n"
                "3. **Tiroler Gröstl** - potatoes with pork and bacon",
            ),
            "ok so the one thats fully meatless, could i use leftover boiled potatoes?",
            ["roesti"],
        ),
        (
            (
                "winter drinks, some ppl dont drink",
                "A classic Glühwein, an Irish coffee, and for anyone not drinking, Tanzanian tea with milk.",
            ),
            "the one with no booze in it, can i make a giant pot?",
            ["tanzania-tea-with-milk"],
        ),
    ],
)
def test_the_one_that_is_or_has_none_of_something_is_read_from_its_data(turns, message, picked):
    assert resolve(message, *turns).recipe_ids == picked


@pytest.mark.parametrize(
    "message",
    [
        "im really not feeling curry tonight, but out of whats left which is quickest?",
        "forget the curry ones, we had them yesterday. which of the rest is quickest?",
    ],
)
def test_not_feeling_or_forgetting_a_dish_sets_it_aside(message):
    turns = (
        "vegetarian mains",
        "1. **Stuffed Vegetables**\n2. **Spinach-Rice Casserole**\n3. **Potato and Eggplant Curry**\n"
        "4. **Fall Vegetable and Chickpea Curry**",
    )

    assert resolve(message, *turns).recipe_ids == ["stuffed-vegetables", "spinach-rice-casserole"]


def test_ok_what_about_keeps_what_was_asked():
    turns = ("everything has to be dairy free now", "- **Chicken Soup**\n- **Beef Goulash**")

    assert resolve("ok what about soups?", *turns).question == "What about dairy-free soups?"


@pytest.mark.parametrize(
    ("turn", "recipe_id"),
    [
        ("1. **Paella Valenciana** - chicken and rabbit\n2. **Zarangollo** - onion and eggplant", "paella"),
        (
            "Mapo tofu is the Sichuan classic. There's also hoisin tofu with broccoli.",
            "hoisin-tofu-and-broccoli",
        ),
    ],
)
def test_a_title_in_another_order_or_with_with_for_and_is_offered(turn, recipe_id):
    assert recipe_id in resolve("which of them are vegan?", "ideas?", turn).recipe_ids


def test_nvm_changes_the_topic():
    turns = ("bbq saturday", "- **Baby back ribs**\n- **Aussie snags**\n- **Smoked turkey**")

    assert resolve("nvm it's gonna rain all day lol. brunch drinks instead?", *turns).recipe_ids == []


def test_a_title_with_an_apostrophe_is_named_without_it():
    turns = (
        "comfort food for 8",
        "- **Shepherd's Pie** - lamb under mash\n- **Meatloaf** - two dishes' worth\n- **Lasagna**",
        "shepherds pie!! tell me more",
        "You brown the lamb, top it with mash and bake at 200°C.",
    )

    assert resolve("could i top it with cauliflower mash?", *turns).recipe_ids == ["shepherds-pie"]


def test_the_meatloaf_is_the_meatloaf_not_the_end_of_another_title():
    turns = (
        "family supper with leftovers",
        "1. **Meatloaf** - ground beef\n2. **Chili Con Carne**\n3. **Beef Goulash**",
        "the meatloaf! does it use tomato soup?",
        "It does: a can of tomato soup goes on top.",
    )

    assert resolve("could i halve it?", *turns).recipe_ids == ["meatloaf"]


@pytest.mark.parametrize(
    ("turns", "message", "picked"),
    [
        (
            (
                "something chinese",
                "Guobaorou: coat pork in batter and deep fry it in a litre of oil. The Hoisin Pork Belly is"
                " simpler: the belly is cooked and glazed with ginger, ketchup, hoisin and honey.",
            ),
            "the one where u dont have to deep fry in a litre of oil, is it spicy?",
            ["hoisin-pork-belly"],
        ),
        (
            (
                "pasta sauces",
                "1. **Fumé sauce** - pancetta and cream\n2. **Cinque Pi** - panna and pomodori\n"
                "3. **Spaghetti alla puttanesca** - capers and anchovies",
            ),
            "so the one that doesnt have any cream in it? is it fishy?",
            ["spaghetti-alla-puttanesca"],
        ),
        (
            (
                "vegan meal prep",
                "Ratatouille makes about 12 servings. Red lentil dahl serves 6."
                " And ginataang kalabasa makes 8.",
            ),
            "the one that makes 12 portions, how long will it keep?",
            ["ratatouille"],
        ),
        (
            (
                "creamy beef with mushrooms",
                "There's Züri Gschnätzlets - Zurich-style meat sauté - and the mushroom stroganov"
                " over pasta.",
            ),
            "the züri one, can i use chicken?",
            ["zurich-sytle-meat-saute"],
        ),
    ],
)
def test_a_dish_is_picked_by_how_it_is_made_how_many_it_serves_or_a_word_cut_short(turns, message, picked):
    assert resolve(message, *turns).recipe_ids == picked


def test_ignoring_and_passing_on_set_aside():
    pasta = (
        "pasta for 6",
        "- **Smoked Salmon Pasta Primavera**\n- **Baked Mostaccioli**\n- **Cinque Pi**\n"
        "- **Pasta Arrabbiata**",
    )

    assert resolve("so ignoring the salmon thing, which of the rest are vegetarian?", *pasta).recipe_ids == [
        "baked-mostaccioli",
        "cinque-pi",
        "pasta-arrabbiata",
    ]


def test_a_tip_after_the_dishes_offers_none():
    turns = (
        "veggie sides for a bbq",
        "Zarangollo is a lovely one. A three-bean salad feeds about 8.\n\n"
        "Tip: a jar of quick pickled red onions is great on the burgers too.",
    )

    assert resolve("are any of those vegan?", *turns).recipe_ids == ["zarangollo", "bean-salad"]


@pytest.mark.parametrize(
    ("turns", "message", "carried"),
    [
        (
            ("non-alcoholic drinks for a party?", "- **Orange Glorious**\n- **Sunday Morning Milkshake**"),
            "oh wait it's in december tho lol, anything warm?",
            "warm",
        ),
        (
            ("vegan dinner ideas?", "- **Red Lentil Dahl**\n- **Ratatouille**"),
            "these look nice but i need protein. anything with tofu instead?",
            "vegan",
        ),
    ],
)
def test_an_event_or_a_request_instead_asks_anew(turns, message, carried):
    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert carried in resolved.question


def test_a_childs_number_is_no_ordinal():
    turns = ("pancakes", "### Oatmeal Pancakes\nOat flour.\n\n### Danish Pancake\nThin.")

    assert resolve("kid #2 has an egg allergy so do any of these work without eggs?", *turns).rule == "set"


def test_a_one_word_title_the_user_asks_to_make_is_in_focus():
    turns = (
        "how do i make sauerkraut at home",
        "Shred a cabbage, salt it, pack it into jars and let it ferment.",
    )

    assert resolve("how long till it's sour enough to eat?", *turns).recipe_ids == ["sauerkraut"]


def test_a_remark_then_a_request_of_its_own_inherits_what_was_asked():
    turns = ("vegan dinner ideas please", "- **Red Lentil Dahl**\n- **Pasta Alla Norma**")

    resolved = resolve(
        "thx!! bookmarking the dahl for tmrw. what about something sweet for after dinner?", *turns
    )

    assert resolved.recipe_ids == []
    assert "vegan" in resolved.question


def test_that_one_after_a_dish_the_message_names_is_that_dish():
    turns = (
        "pasta bake for a crowd",
        "- **Baked Mostaccioli**\n- **Cheesy Pasta Bake**\n- **Lasagna**",
        "which one travels best?",
        "The mostaccioli is the sturdiest.",
    )

    resolved = resolve(
        "lasagna takes forever so i'm passing on that one. of what's left, which are vegetarian?", *turns
    )

    assert resolved.recipe_ids == ["baked-mostaccioli", "cheesy-pasta-bake"]


def test_a_dish_out_of_budget_is_set_aside():
    turns = ("fish soups", "- **Finnish Salmon Soup**\n- **Lobster bisque**\n- **Newfoundland Cod Chowder**")

    resolved = resolve("lobster is waaay outta budget lol. of the other ones which is quickest", *turns)

    assert resolved.recipe_ids == ["finnish-salmon-soup", "newfoundland-cod-chowder"]


def test_completely_random_changes_the_topic_unless_it_points_into_the_set():
    turns = ("gluten free dessert", "- **Tarta de Santiago**\n- **Pavlova**")

    assert resolve("ok noted. completely random but what do i do with two rabbits?", *turns).recipe_ids == []
    assert resolve("which ones are dairy free? also random but can i freeze it?", *turns).rule == "set"


def test_the_it_of_a_dish_asked_for_points_at_nothing():
    turns = ("my cousin is coeliac, gluten free dinners", "- **Chicken Paprikash**\n- **Pulpo a la gallega**")

    resolved = resolve("she's also a rice fiend, anything with rice in it?", *turns)

    assert resolved.recipe_ids == []
    assert "gluten-free" in resolved.question


def test_a_one_word_title_set_apart_in_prose_is_offered():
    turns = (
        "pizza night ideas?",
        "The wholemeal pizza is a quick one. And flammkuchen, the Alsatian one, is paper-thin dough.",
    )

    assert "flammkuchen" in resolve("which of them is quickest?", *turns).recipe_ids


def test_an_item_the_catalog_spells_otherwise_is_the_dish_its_description_opens_with():
    turns = (
        "beef dinner this week",
        "- Carbonade flamande – beef stewed in brown beer, about 8 hours\n"
        "- Züri Gschnätzlets – Zurich-style sliced beef in a cream sauce, 30 minutes",
    )

    assert resolve("the 30 min one, could i sub pork?", *turns).recipe_ids == ["zurich-sytle-meat-saute"]


def test_setting_a_dish_aside_drops_the_reason_that_names_it():
    turns = ("pasta bake for a crowd", "- **Baked Mostaccioli**\n- **Cheesy Pasta Bake**\n- **Lasagna**")

    resolved = resolve(
        "lasagna takes forever so i'm passing on that one. of what's left, which is quickest?", *turns
    )

    assert "asagna" not in resolved.question


def test_a_set_mentioned_in_passing_before_a_new_request_does_not_hold_the_topic():
    turns = ("pancake ideas", "### Oaty Pancakes\nOats.\n\n### Spiced Apple Pancakes\nApples.")

    resolved = resolve(
        "made the apple ones this morning, kids loved them!! now for tonight I want fish", *turns
    )

    assert resolved.recipe_ids == []
    assert "Pancakes" not in resolved.question


def test_a_remark_then_a_comma_and_a_request_inherits_what_was_asked():
    turns = ("any dessert ideas for a dinner party?", "- **Lemon Pudding**\n- **Orange Pudding**")

    resolved = resolve("my sister is coeliac, any gluten free ones?", *turns)

    assert resolved.recipe_ids == []
    assert "dessert" in resolved.question


# Pointers said as a clause, by the recipes' own data.


@pytest.mark.parametrize(
    ("message", "turns", "recipe_ids"),
    [
        (
            "the one that can go up to 8 hours - could i leave it in the slow cooker?",
            ("beef stew ideas", "- **Carbonade Flamande**\n- **Beef Goulash**\n- **Scouse**"),
            ["carbonade"],
        ),
        (
            "ok given it's like 30 degrees here, the one you eat cold - can i use buttermilk?",
            ("borscht!", "The Ukrainian Borscht or the Lithuanian Cold Borscht."),
            ["lithuanian-cold-borscht"],
        ),
        (
            # Not in the side turn about two of the cookies: in the list before it.
            "ugh we used the last eggs - the one that doesn't need any eggs, can i add chocolate chips?",
            (
                "cookies to bake with my daughter",
                "- **Chocolate Chip Cookies**\n- **Oatmeal Cookies**\n- **Banana and oatmeal cookies**",
                "shes 6, which is least messy",
                "The Chocolate Chip Cookies and the Oatmeal Cookies are mix-and-scoop.",
            ),
            ["banana-oatmeal-cookies"],
        ),
        (
            # After a side question about another of them, which put that one in focus.
            "oven's dodgy so the one thats just done in a pan with no oven - can i make that sunday?",
            (
                "chicken dinner ideas",
                "- **Apple Chicken**: baked with apples.\n- **Exotic Ginger Cumin Chicken**: one saucepan.",
                "whats nuez moscada? it's in the apple one",
                "Spanish for nutmeg.",
            ),
            ["exotic-ginger-cumin-chicken"],
        ),
    ],
)
def test_the_one_that_a_clause_describes_is_read_from_the_recipes_data(message, turns, recipe_ids):
    assert resolve(message, *turns).recipe_ids == recipe_ids


@pytest.mark.parametrize(
    ("message", "recipe_ids"),
    [
        ("number two is the move, how long does it take?", ["creme-brulee"]),
        ("the second to last one looks fun, is it hard?", ["lavacake"]),
        ("we used the last eggs this morning. is the tiramisu still doable?", ["tiramisu"]),
    ],
)
def test_ordinals_in_words_and_the_last_of_a_food(message, recipe_ids):
    turns = ("dessert ideas", "1. **Tiramisù**\n2. **Crème brûlée**\n3. **Lavacake**\n4. **Yogurt cake**")

    assert resolve(message, *turns).recipe_ids == recipe_ids


@pytest.mark.parametrize(
    "message",
    [
        "the brazilian one's a no, i dont have 3 hours. of the others which keeps best?",
        "right so the brazilian one is off the table. between the rest which keeps best?",
        "cuca is kind of my thing already so leaving that out - out of the rest which keeps best?",
        "the brazilian bread one sounds like a whole project, pass. between the other ones which keeps best?",
    ],
)
def test_a_recipe_ruled_out_as_people_say_it_leaves_the_others(message):
    turns = (
        "a cake for the office",
        "**Yogurt cake**, **Butter Cake**, **Tarta de Santiago** or **Cuca**, a Brazilian bread-cake.",
    )

    assert resolve(message, *turns).recipe_ids == ["yogurt-cake", "butter-cake", "tarta-de-santiago"]


def test_the_soupy_one_is_the_soup():
    turns = (
        "seafood for the weekend",
        "- **Aljotta** - a Maltese fish soup\n- **Ceviche**\n- **Shrimp and Grits**",
    )

    resolved = resolve(
        "the soupy one's a no, its meant to be 28 degrees. which of the others is easiest?", *turns
    )

    assert resolved.recipe_ids == ["ceviche", "shrimp-and-grits"]


@pytest.mark.parametrize(
    "message",
    [
        "all four sound good, which of them keeps overnight? also it's a 2h drive",
        "out of the four you gave me which ones have no soy? if it's just swapping one thing thats fine",
    ],
)
def test_the_set_asked_about_first_is_not_the_it_of_a_remark_after_it(message):
    turns = (
        "beef dinners",
        "- **Teriyaki Beef**\n- **Beef and Broccoli**\n- **Hakka-style meatballs**\n- **Beef Goulash**",
        "is teriyaki sweet?",
        "The Teriyaki Beef is sweet and salty.",
    )

    assert resolve(message, *turns).rule == "set"


def test_an_ingredient_of_the_recipe_in_focus_names_no_other_recipe():
    turns = (
        "leftover boiled potatoes?",
        "- **Tiroler Gröstl**\n- **Rösti**\n- **Stoemp**",
        "gröstl sounds perfect tell me more",
        "Fry the potato wedges, add the pork chops and bacon, stir in the red onion, garlic and cumin.",
    )

    assert resolve("can i do it with only bacon?", *turns).recipe_ids == ["tiroler-groestl"]


@pytest.mark.parametrize(
    ("message", "turns", "said"),
    [
        (
            "nice, same deal but for breakfast?",
            ("lunch in under 20 min?", "The Quesadilla or the Simple Tuna Salad."),
            ["breakfast", "20 minutes"],
        ),
        (
            "love it. and a dessert that'll also stretch to that many?",
            ("cooking for 8 this weekend, mains?", "The Chicken Tikka Masala serves 8."),
            ["dessert", "8 people"],
        ),
        (
            "will do!! btw any desserts too? sweet tooth is real",
            ("dorm life: one hot plate and no oven. dinner?", "The Spaghetti aglio e olio."),
            ["desserts", "without an oven"],
        ),
    ],
)
def test_a_request_after_a_remark_keeps_what_was_asked(message, turns, said):
    resolved = resolve(message, *turns)

    assert resolved.rule == "carry-over"
    assert all(s in resolved.question for s in said)


# Which list a pointer means, after side questions.


DRINKS_AFTER_BRUNCH = (
    "brunch ideas?",
    "- **Kropsua**\n- **Oaty Pancakes**\n- **Country Breakfast Skillet**\n- **Hearty Breakfast Oatmeal**",
    "and drinks?",
    "- **Orange Glorious**\n- **Sunday Morning Milkshake**\n- **Indian tea**",
)


def test_a_set_named_by_its_size_is_the_list_of_that_many():
    resolved = resolve(
        "back to the food, which of those four can be made without eggs?", *DRINKS_AFTER_BRUNCH
    )

    assert resolved.recipe_ids == ["kropsua", "oaty-pancakes", "country-skillet", "hearty-breakfast-oatmeal"]


def test_a_set_named_by_its_kind_is_the_list_of_that_kind():
    turns = (
        "indian night, curry ideas?",
        "1. **Butter Chicken Masala Curry**\n"
        "2. **Potato and Eggplant (Aubergine) Curry**\n"
        "3. **Red Lentil Dahl**",
        "and a bread?",
        "**Naan Bread** or **Turmeric Flatbread**.",
    )

    resolved = resolve("ok back to the curries - the middle one, is it vegan?", *turns)

    assert resolved.recipe_ids == ["potato-and-eggplant-curry"]


def test_a_number_the_latest_list_does_not_have_is_counted_in_the_list_before():
    turns = (
        "veggie mains with rice?",
        "1. **Spinach-Rice Casserole**\n2. **Stuffed Round Squash**\n"
        "3. **Winter Risotto**\n4. **Egyptian Lentils**",
        "any of those vegan?",
        "Only the Egyptian Lentils; the Stuffed Round Squash can be, without the cheese.",
    )

    assert resolve("going back to ur list - number 3, can i leave out the walnuts?", *turns).recipe_ids == [
        "winter-risotto"
    ]


def test_a_side_question_asked_without_a_question_mark_leaves_the_list_in_view():
    turns = (
        "belgian classics?",
        "### Stoofvlees\nBeef in brown beer.\n\n### Carbonade Flamande\nBeef, beer, gingerbread.\n\n"
        "### Stoemp\nMashed potatoes and carrots.",
        "wait arent stoofvlees and carbonade the same thing",
        "Same family: 'stoofvlees' is the Flemish name and 'carbonade flamande' the French one. The"
        " carbonade uses gingerbread; the stoofvlees adds a spoon of Belgian pear syrup.",
    )

    resolved = resolve("how many people does each of the three feed?", *turns)

    assert resolved.recipe_ids == ["stoofvlees", "carbonade", "stoemp"]


def test_a_side_question_asked_mid_message_leaves_the_list_in_view():
    turns = (
        "tofu ideas",
        "1. **Hoisin Tofu and Broccoli**\n   - Sichuan classic: no, a sweet hoisin sauce\n"
        "2. **Mapo Tofu**\n3. **Tofu Stir Fry**",
        "the block i have says firm not extra firm, is that gonna be a problem",
        "Not really: the stir fry asks for extra firm; mapo tofu is best with soft.",
    )

    resolved = resolve("perfect. which of them can i get done in 30 min?", *turns)

    assert resolved.recipe_ids == ["hoisin-tofu-and-broccoli", "mapo-tofu", "tofu-stir-fry"]


@pytest.mark.parametrize(
    "message",
    [
        "ok so of these last ones, which fits in 25 min?",
        "which of these could she drink?? also is the irish coffee one strong lol",
        # A new occasion, asked of the set: "the stuff in your table".
        "turns out there's no fridge at work. of the stuff in your table which would be ok till lunch?",
    ],
)
def test_the_set_asked_about_is_the_whole_latest_list(message):
    turns = ("brunch drinks", "1. **Assam Tea**\n2. **Irish Coffee**\n3. **Orange Glorious**")

    assert resolve(message, *turns).recipe_ids == ["assam-tea", "irish-coffee", "orange-glorious"]


@pytest.mark.parametrize(
    "message",
    [
        "i have an ice cream maker, can i use that for it instead? bc i WILL forget lol",
        "now what about the toppings, can i do it the day before?",
    ],
)
def test_words_that_sound_like_a_change_of_topic_but_are_not(message):
    turns = ("lemon granita?", "The Granita: lemon juice, sugar and water, forked every 2 hours.")

    assert resolve(message, *turns).recipe_ids == ["granita"]


def test_the_kind_of_the_whole_list_you_listed_is_the_list():
    turns = ("sides for sausages", "- **Rösti**\n- **Fried Potatoes**\n- **Zarangollo** - a Murcian side")

    resolved = resolve("out of all of the sides you listed which ones are vegan?", *turns)

    assert resolved.recipe_ids == ["roesti", "fried-potatoes", "zarangollo"]


def test_every_description_of_a_message_is_resolved():
    turns = ("egg dish for a brunch buffet", "A frittata, or a Spanish tortilla of eggs and potatoes.")

    resolved = resolve("the spanish one!! or should i just do the italian one instead", *turns)

    assert resolved.recipe_ids == ["spanish-tortilla", "frittata"]


def test_the_one_said_to_take_the_least_time_is_the_quickest():
    turns = ("dessert for 4", "- **Crème brûlée** - nearly 5 hours\n- **Tiramisù** - about an hour")

    assert resolve("the one u said takes the least time, does it use raw eggs?", *turns).recipe_ids == [
        "tiramisu"
    ]


def test_a_dish_the_answer_uses_in_the_recipe_in_focus_is_no_new_focus():
    turns = (
        "quebec comfort food?",
        "**Pâté Chinois** or **Grands-pères au sirop d'érable**.",
        "omg pâté chinois. tell me more",
        "Three layers: beef, corn and mash. Serve it with ketchup on the side.",
    )

    assert resolve("can i put it together friday night?", *turns).recipe_ids == ["pate-chinois"]


def test_every_ordinal_of_a_message_is_resolved():
    turns = ("a lamb leg, ideas?", "1. **Pilaf**\n2. **Tuh'u**\n3. **Shepherd's Pie**")

    resolved = resolve("the last one calls for mince right? or would the first one be easier?", *turns)

    assert resolved.recipe_ids == ["shepherds-pie", "pilaf"]


@pytest.mark.parametrize(
    "listed",
    [
        # A heading the catalog has no recipe for still counts.
        "### Challah\nBraided.\n\n### Naan Bread\nSoft.\n\n### Zopf\nSwiss.",
        "**1. Challah**\n- braided\n\n**2. Naan Bread**\n- soft\n\n**3. Zopf**\n- Swiss",
    ],
)
def test_an_ordinal_counts_the_items_as_written(listed):
    assert resolve("the second one - can i do it on the stovetop?", "bread to bake?", listed).recipe_ids == [
        "naan-bread"
    ]


def test_an_item_the_catalog_lacks_is_never_stood_in_for_by_the_next():
    listed = "### Challah\nBraided.\n\n### Naan Bread\nSoft.\n\n### Zopf\nSwiss."

    assert resolve("the first one, how long does it rise?", "bread to bake?", listed).rule != "ordinal"


@pytest.mark.parametrize(
    "message",
    [
        "kids are coming so nix the boozy ones. out of what's left, which makes a big batch?",
        "scrap the irish one then. of the rest which makes a big batch?",
        "gonna save the irish coffee for when they're gone. what about the rest, any big batch ones?",
        "the irish one is tempting but not with kids. the others then - any big batch ones?",
    ],
)
def test_more_ways_of_setting_a_recipe_aside(message):
    turns = ("party drinks", "- **Orange Glorious**\n- **Sunday Morning Milkshake**\n- **Irish Coffee**")

    assert resolve(message, *turns).recipe_ids == ["orange-glorious", "sunday-milkshake"]


def test_a_firm_no_sets_aside_by_itself():
    turns = (
        "seafood dinner",
        "- **Garlic Butter Seafood Pasta**\n- **Shrimp and Grits**\n- **Smoked Salmon Pasta Primavera**",
    )

    resolved = resolve("grits are a hard pass for me, but which pasta one is the least heavy?", *turns)

    assert resolved.recipe_ids == ["seafood-pasta", "smoked-salmon-pasta-primavera"]


def test_not_feeling_any_of_those_is_a_new_request():
    resolved = resolve("meh not really feeling any of those. what about something with eggs?", *VEGETARIAN)

    assert resolved.recipe_ids == []
    assert resolved.rule == "carry-over"


def test_the_one_with_is_told_apart_by_every_word_it_says():
    turns = (
        "soup for lunch",
        "- **Fennel White Bean and Kale Soup**\n- **Ukrainian Borscht**\n- **Gypsy Soup**",
    )

    resolved = resolve("the one with the white beans and greens - can i use spinach?", *turns)

    assert resolved.recipe_ids == ["fennel-beans-and-kale-soup"]


def test_the_one_with_picks_from_the_list_before_a_side_answer():
    turns = (
        "veggie batch cooking",
        "- **Ratatouille**\n- **Ginataang Kalabasa**\n- **Drunken Beans**",
        "which of those freeze best",
        "The Ratatouille and the Drunken Beans freeze really well.",
    )

    assert resolve("the one with the coconut milk, will it be watery?", *turns).recipe_ids == [
        "ginataang-kalabasa"
    ]


def test_what_a_clause_says_a_dish_lacks_is_read_after_its_comma():
    turns = ("potato sides", "- **Rösti**\n- **Fried Potatoes**\n- **Parmesan potatoes**")

    resolved = resolve(
        "the one that's just potatoes onions and oil, no butter anywhere - air fryer ok?", *turns
    )

    assert resolved.recipe_ids == ["fried-potatoes"]  # potatoes, oil, onions; the Rösti has butter


def test_a_remark_on_the_set_then_a_request_of_its_own_inherits_what_was_asked():
    turns = ("veganuary dinners?", "- **Hoisin Tofu and Broccoli**\n- **Red Lentil Dahl**")

    resolved = resolve("these are good but he wants protein lol. anything with beans in?", *turns)

    assert resolved.rule == "carry-over"
    assert "vegan" in resolved.question


@pytest.mark.parametrize(
    "message",
    [
        "i'm not organised enough for a 3 hour marinade so scratch that. out of the rest, any quick?",
        "skip 2, i dont have the time. out of the rest which is quickest?",
    ],
)
def test_a_recipe_set_aside_by_what_the_words_before_that_say_or_by_its_number(message):
    turns = (
        "pork dinners",
        "1. **Miso Ginger Pork**\n2. **Sticky Porkchops** - marinate 3 hours\n3. **Korv Stroganoff**",
    )

    assert resolve(message, *turns).recipe_ids == ["miso-ginger-pork", "korv-stroganoff"]


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "tetrazzini looks like a winner. random, but what can I do with 4 egg whites?",
            "what can I do with 4 egg whites?",
        ),
        (
            "ha ok. separately, how do I make falafel?",
            "how do I make falafel?",
        ),
        ("amazing thank you!! ok switching gears completely, how do I cook a whole trout?", None),
    ],
)
def test_a_change_of_topic_leaves_the_remark_and_the_words_of_switching_behind(message, question):
    turns = ("quick dinners", "- **One-Pot Chicken Tetrazzini**\n- **Chili Con Carne**")

    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert "Tetrazzini" not in resolved.question
    if question:
        assert resolved.question == question


@pytest.mark.parametrize(
    "message",
    [
        "does the meat go on the pasta or separately, i want to get it right",
        "is it gluten free? i always forget to check",
        "eh forget the sauce, i'll buy ice cream. can I bake it in the morning?",
    ],
)
def test_words_of_switching_that_change_no_topic(message):
    turns = ("tell me about the lasagna", "The Lasagna takes about 2 hours and serves 6.")

    assert resolve(message, *turns).recipe_ids == ["lasagna"]


@pytest.mark.parametrize(
    ("message", "turns", "said"),
    [
        (
            "ugh we've had chicken 3 times this week 😂 shrimp maybe?",
            ("dinner in 30 min or less, I've got chicken", "The Chicken Satay or the Chicken Paprikash."),
            ["shrimp", "30 minutes"],
        ),
        (
            "ok cool. and on the side - bread or some kind of dip, what've you got",
            ("indian takeaway night at home, what should I make", "The Butter Chicken Masala Curry."),
            ["Indian"],
        ),
        (
            "omg she's vegetarian now?? so none of that works for her. what can she have",
            ("mexican night, what should i make", "- **Chili Con Carne**\n- **Slow-cooked Pork Carnitas**"),
            ["vegetarian", "Mexican"],
        ),
        (
            "sweet. tofu's a hard no from my husband. anything chicken?",
            (
                "our oven died, dinners that don't need the oven",
                "- **Hoisin Tofu and Broccoli**\n- **Korv Stroganoff**",
            ),
            ["chicken", "without an oven"],
        ),
    ],
)
def test_a_request_closing_a_chatty_message_keeps_what_was_asked(message, turns, said):
    resolved = resolve(message, *turns)

    assert resolved.rule == "carry-over"
    assert all(s in resolved.question for s in said)
    assert resolved.question.count("oven") <= 1


@pytest.mark.parametrize(
    ("message", "switched"),
    [
        ("potato leek then, thx. btw how do you make indian tea with ginger?", True),
        ("potato leek then, thx. btw can I freeze it?", False),
    ],
)
def test_btw_changes_the_topic_only_when_nothing_after_it_points_back(message, switched):
    turns = ("soup ideas", "- **Potato Leek Soup**\n- **French Onion Soup**")

    resolved = resolve(message, *turns)

    assert ("Potato Leek" not in resolved.question) == switched


MEXICAN_NIGHT = (
    "doing a mexican night for 8 on saturday, need a main plus bits for the table",
    "- **Slow-cooked Chicken Tacos**\n- **Taco Meat**\n- **Fresh Guacamole**",
)


@pytest.mark.parametrize(
    "message",
    [
        # A drink after the food, with no word of switching.
        "perfect thats the food sorted. it's meant to snow so for drinks i want something hot and boozy?",
        # An occasion the conversation never spoke of.
        "k thanks, going with the tacos. my daughter turns 6 next week, what cake is easy for a beginner?",
        "nice ok. fwiw i'm also doing a mezze thing for my book club thursday, need dips to go with pita",
        # Said in words of switching.
        "got it. ok so tonight is a whole separate problem, my gf is vegan, what can i make us?",
        "sounds good. side q - is making my own yogurt actually doable at home?",
        "ok cool, i'll do the tacos. now - the sad bag of spinach in my fridge, what can i do with that?",
        "haha thx. ok totally separate planning q - can i do a turkey on a charcoal grill?",
        # What "it" means there is the new occasion, the new dish or the new appliance.
        "lol fair. my gf is pescatarian and it's our anniversary friday, how do i cook salmon?",
        "perfect. my dad turns 60 next week, i want a showstopper beef main, dont care if it takes all day",
        "great. last thing, santa brought me an air fryer 😅 what's actually worth making in it",
        "ok tmrw then. for tonight tho i have 15 minutes, a carton of eggs and some broth, that's it",
        "perfect. sunday's another story, in-laws coming for brunch and he wants a fry up. what should i make"
        " for that",
        "great. next week i wanna try pizza, is there some dough where you just mix it and leave it to sit",
        "lol ok. my nephew turns 7 on sunday and wants to bake something with me, can a kid do most of it?",
        # A food to use up, and the "it" of it.
        "yep. oh also i've got half a cabbage that's about to turn, any ideas for using it up?",
        "nice. theres half a loaf going stale on the counter and it feels like a shame to bin it, ideas?",
        # What follows a new request says more of it.
        "i'll borrow my dad's. and for midnight — i want to make some homemade boozy thing to toast with."
        " ideas?",
        # The "it" of a dish to make, a "them" of people just said, a cuisine said of a person.
        "my gf is pescatarian and it's our anniversary friday, how do i cook salmon so it doesnt dry out",
        "guac it is. question tho — if i make ricotta this weekend for a lasagna next wed, will it keep",
        "thx. movie night with the kids tonight and i'm not gonna make them suffer lol, popcorn type snack?",
        "saving the taco one for sure. but rn my gf is portuguese and homesick, what could i cook for her",
        "made the tacos and they slapped. now theres like 6 very brown bananas on the counter, ideas?",
        # "the rest of us" are people.
        "my roomie gets sad when the rest of us drink on fridays, anything non alcoholic but fancy for her",
    ],
)
def test_a_new_occasion_after_a_remark_on_the_recipes_inherits_nothing(message):
    resolved = resolve(message, *MEXICAN_NIGHT)

    assert resolved.recipe_ids == []
    assert not re.search(r"mexican|8 people|Guacamole|Taco Meat", resolved.question, re.I)


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("ok good. and for tmrw, anything with beef?", "Mexican"),
        ("perfect. what about breakfast stuff?", "Mexican"),
        ("ok. now my brother's also coming on saturday and he's vegan, anything for him?", "Mexican"),
        ("sick. anything sweet in that vein to finish the night off?", "Mexican"),
        ("nice. what about lentils, anything along those lines?", "Mexican recipes along those lines"),
        ("great, the tacos tonight. and what about a dessert? it's my dad's birthday", "Mexican"),
        # A past meal is no new occasion: "something that isn't?" asks for more of the same.
        ("lol i had tacos for lunch. something that isn't?", "Mexican"),
    ],
)
def test_a_request_for_the_same_occasion_keeps_what_was_asked(message, said):
    assert said in resolve(message, *MEXICAN_NIGHT).question


@pytest.mark.parametrize(
    ("first", "message", "said", "unsaid"),
    [
        ("want something properly spicy tonight", "ooh. got any with tofu tho?", "spicy", ""),
        ("i want something SPICY. like make me sweat", "and something sweet for after?", "", "spicy"),
        ("bake sale at school, everything has to be nut free", "any chocolatey ones?", "nut-free", ""),
        ("my dad's doing keto now, got any recipes?", "got anything with chicken?", "keto", ""),
        ("non-alcoholic drinks for my kid's party?", "anything warm?", "non-alcoholic", ""),
    ],
)
def test_needs_and_tastes_the_filters_do_not_read_are_kept(first, message, said, unsaid):
    question = resolve(message, first, "The Mapo Tofu or the Chocolate Chip Cookies.").question

    assert said in question
    assert not unsaid or unsaid not in question


def test_the_rest_are_the_set_without_the_one_a_sentence_before_points_at():
    turns = ("sides for sausages", "**Sauerkraut**, **Zarangollo** or **Parmesan potatoes**.")

    resolved = resolve("haha the cabbage one is a bit late to start. are any of the rest dairy free?", *turns)

    assert resolved.recipe_ids == ["zarangollo", "parmesan-potatoes"]


def test_the_one_a_relative_clause_sets_aside_is_read_from_its_data():
    turns = (
        "japanese-ish pork dinner?",
        "**Sticky Porkchops** (3 hours in the fridge) or **Miso Ginger Pork**.",
    )

    resolved = resolve(
        "def not the one that has to sit in the fridge for hours. the other one, sushi rice?", *turns
    )

    assert resolved.recipe_ids == ["miso-ginger-pork"]


def test_whichever_is_quicker_is_the_quicker_one():
    turns = ("creamy seafood pasta", "**Shrimp Fettuccine Alfredo** or **Garlic Butter Seafood Pasta**.")

    resolved = resolve("whichevers quicker of the two - can i use frozen shrimp?", *turns)

    assert len(resolved.recipe_ids) == 1


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("these look good!! it's freezing here tho, what about soups", "vegan soups"),
        (
            "nice. what about stuff with zucchini, i have like 4 of them going soft",
            "vegan recipes with zucchini",
        ),
        ("what about bread, is that even possible", "What about vegan bread, is that even possible?"),
        ("ugh this one smells funky. ok so what can i do with potatoes instead", "(vegan)"),
    ],
)
def test_a_new_request_beside_a_remark_on_the_set_keeps_what_was_asked(message, said):
    turns = (
        "vegan dinner ideas",
        "- **Hoisin Tofu and Broccoli**\n- **Egyptian Lentils**\n- **Ratatouille**",
    )

    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert said in resolved.question


def test_a_cuisine_asked_for_alone_keeps_the_main_ingredient():
    turns = ("meals with ground beef? bought a huge family pack", "The Meatloaf or the Taco Meat.")

    assert "beef" in resolve("k. something mexican-ish though?", *turns).question


def test_a_pointer_in_a_remark_before_a_change_of_topic_keeps_nothing():
    turns = ("quick weeknight chicken", "- **Za'atar Chicken Bulghur Bowls**\n- **Chicken Satay**")

    resolved = resolve(
        "the zaatar one looked nice but my real question is what to make in an air fryer", *turns
    )

    assert resolved.recipe_ids == []


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("these are great!! what about desserts tho, she misses cake the most", "gluten-free desserts"),
        ("these are great. soups too? its getting cold", "gluten-free soups"),
        ("they wont touch seafood lol. beef?", "gluten-free recipes with beef"),
        ("ok. and breakfast in bed the morning after?", "gluten-free breakfast"),
        ("she's obsessed with aubergine, got anything with that?", "gluten-free recipes with that"),
        ("great and something sweet for after? it's a date night lol", "gluten-free"),
    ],
)
def test_a_request_after_a_remark_on_the_set_keeps_what_was_asked(message, said):
    turns = ("coeliac in the house, gluten free mains?", "- **Valencian Paella**\n- **Pulpo a la gallega**")

    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert said in resolved.question


def test_a_fragment_that_asks_for_nothing_carries_nothing():
    turns = ("a bread from madeira?", "**Bolo do Caco**: the dough rises for 3 days.")

    resolved = resolve("3 DAYS?? lol ok its wednesday night. can i cheat it with a shorter rise?", *turns)

    assert resolved.recipe_ids == ["bolo-do-caco"]
    assert "What about" not in resolved.question


def test_anything_on_that_list_is_the_list():
    turns = (
        "finger food?",
        "- **Sardine Cakes**\n- **Soleier**\n- **Kettle Chips**",
        "soleier?",
        "Pickled eggs.",
    )

    assert len(resolve("anything on that list i can do the day before?", *turns).recipe_ids) == 3


def test_a_need_is_said_once():
    question = resolve(
        "anything warm?", "non-alcoholic drinks for my kid's party?", "The Orange Glorious."
    ).question

    assert question.count("alcohol") == 1


def test_a_time_limit_is_said_as_people_say_it():
    turns = ("chicken dinner under an hour?", "The Chicken Paprikash or the Apple Chicken.")

    assert resolve("we had chicken twice this week. beef?", *turns).question.endswith(
        "ready in under an hour?"
    )


def test_what_was_asked_before_a_new_occasion_is_not_carried_past_it():
    turns = (
        "need a vegetarian dinner tonight, 30 mins tops",
        "The Pasta Arrabbiata or the Mushroom Stroganov.",
        "perfect thats tonight sorted. my dad turns 60 on saturday, i want a showstopper beef main",
        "The Beef Wellington or the Stoofvlees.",
    )

    question = resolve("and something to drink for the grown ups?", *turns).question

    assert "vegetarian" not in question
    assert "30 minutes" not in question


def test_something_to_drink_is_asked_for_as_drinks():
    question = resolve(
        "and something to drink for the grown ups?", "vegan dinner ideas", "The Lenten Chili."
    ).question

    assert question == "What about vegan drinks for the grown ups?"


def test_a_side_question_does_not_end_the_topic_it_interrupts():
    turns = (
        "oven just died. what can i make on the hob only, for 2",
        "1. **Shakshouka**\n2. **Tofu Stir Fry**",
        "side q is it ok to use cast iron on a glass top hob",
        "Yes, just lift it rather than slide it.",
    )

    assert "without an oven" in resolve("ok good. and for tmrw, anything with beef?", *turns).question


def test_a_clause_that_picks_a_recipe_stays_said_after_its_title():
    turns = (
        "dessert to gift",
        "- **Dulce de Leche** - cooked for hours (marbles in the pan stop it catching)\n- **Limoncini**",
    )

    resolved = resolve("the one where you throw marbles in the pan, is that for real?", *turns)

    assert resolved.recipe_ids == ["dulce-de-leche"]
    assert "marbles" in resolved.question


def test_so_and_but_are_no_part_of_what_a_firm_no_sets_aside():
    turns = (
        "japanese dinner",
        "- **Okonomiyaki**\n- **Grilled Mackerel with Miso Soup and Squash**\n- **Miso Ginger Pork**",
        "is the mackerel one fishy?",
        "The Grilled Mackerel with Miso Soup and Squash is quite fishy, yes.",
    )

    resolved = resolve(
        "he gags at anything fishy so that one's a hard no, but which of the others is quicker?", *turns
    )

    assert resolved.recipe_ids == ["okonomiyaki", "miso-ginger-pork"]


def test_numbers_said_bare_pick_the_items_so_numbered():
    turns = (
        "breads without a mixer",
        "1. **Damper**\n2. **Turmeric Flatbread**\n3. **Challah Bread**\n4. **Pretzels**",
    )

    assert resolve("2 and 4 look fun!! is 4 safe for a noob?", *turns).recipe_ids == [
        "turmeric-flatbread",
        "pretzels",
    ]


def test_the_set_asked_about_after_a_remark_that_says_it():
    turns = (
        "batch cooking ideas",
        "- **Merchant's Buckwheat**\n- **Chili Con Carne**\n- **Beef Goulash**\n- **Lentil Soup**",
        "is the buckwheat one good?",
        "The Merchant's Buckwheat is hearty and cheap.",
    )

    resolved = resolve(
        "ok sold, gonna try it. do all four of these freeze alright or will some go weird", *turns
    )

    assert resolved.rule == "set"


def test_a_prose_answer_to_a_side_question_offers_no_new_set():
    turns = (
        "cookies for a school bake sale",
        "- **Sand Tarts**\n- **Matcha Cookies** - green tea cookies\n"
        "- **Greek Easter Cookies**\n- **Limoncini**",
        "do any of them have nuts?",
        "Of these, the Sand Tarts and the Matcha Cookies contain nuts.",
    )

    resolved = resolve("the green tea ones are out. of whats left which makes the biggest batch?", *turns)

    assert resolved.recipe_ids == ["sand-tarts", "greek-easter-cookies", "limoncini"]


@pytest.mark.parametrize(
    "message",
    [
        "it's 32 degrees this week so hot soup is a hard no, but from what's left which is least effort?",
        "kids pick out anything green so the spinach-heavy one is out. of the rest, which is mildest?",
    ],
)
def test_a_set_aside_of_two_words_is_read_one_word_at_a_time(message):
    turns = (
        "dinner ideas",
        "- **Lobster bisque** - a rich soup\n- **Chicken, Tomato and Spinach Curry**\n"
        "- **Garlic Butter Seafood Pasta**",
    )

    assert len(resolve(message, *turns).recipe_ids) == 2


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("beef one for sure. then for afters I need something cold and light", "then for afters"),
        ("yogurt cake she'll love that. oh and I want a big pot of something hot and boozy", "boozy"),
    ],
)
def test_a_choice_then_a_request_for_another_course_asks_anew(message, asked):
    turns = (
        "spicy dinner ideas",
        "- **Panang-Style Beef Curry**\n- **Coriander Chicken**\n- **Yogurt cake**",
    )

    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert asked in resolved.question
    assert "Curry" not in resolved.question


def test_a_choice_then_a_question_about_it_stays_on_it():
    turns = ("risotto ideas", "- **Mushroom risotto** (40 min)\n- **Winter Risotto** (55 min)")

    assert resolve("ill go with the quicker one. can i skip the wine?", *turns).recipe_ids == [
        "mushroom-risotto"
    ]


# Eleventh round: remarks on the set, and words that point at nothing.

SPANISH = (
    "easy spanish dishes?",
    "1. **Spanish Tortilla** - potato and onion omelette\n2. **Chorizo & Chickpea Soup**\n"
    "3. **Zarangollo**\n4. **Sopa de Lentejas**",
)


@pytest.mark.parametrize(
    "message",
    [
        "those are all savoury — got a spanish sweet one?",
        "those are all kinda eggy tho. what about something with rice, still spanish obviously",
    ],
)
def test_a_remark_on_the_set_then_a_request_for_another_dish_is_not_about_the_set(message):
    resolved = resolve(message, *SPANISH)

    assert resolved.recipe_ids == []
    assert "Tortilla" not in resolved.question


def test_the_question_after_a_remark_on_one_of_them_asks_about_them_all():
    turns = (
        "tofu recipes my bf won't complain about?",
        "1. **Hoisin Tofu and Broccoli**\n2. **Tofu and Cashew Chow Mein**\n3. **Tofu Stir Fry**\n"
        "4. **Mapo Tofu** - spicy Sichuan tofu with pork",
    )

    resolved = resolve("he'd go nuts for the mapo one lol. do all of these need a wok tho?", *turns)

    assert len(resolved.recipe_ids) == 4


FISH = (
    "a cooler of fish, help",
    "- **Fried Anglerfish Fillet**\n- **Baked Trout**\n- **Broiled Trevally**\n"
    "- **Aljotta** - a Maltese fish soup",
)


def test_a_set_aside_said_with_an_intensifier_leaves_that_one_out():
    message = "soup is sooo not happening in this heat wave, but out of the rest which one is least fiddly?"

    resolved = resolve(message, *FISH)

    assert resolved.recipe_ids == ["fried-anglerfish-fillet", "baked-trout", "broiled-trevally"]


def test_what_the_user_will_not_do_sets_no_recipe_aside_and_loses_no_words():
    message = "of the remaining which is quicker, i'm not waiting 2 hrs"

    resolved = resolve(message, *FISH)

    assert "i'm not waiting 2 hrs" in resolved.question
    assert len(resolved.recipe_ids) == 4


@pytest.mark.parametrize(
    "message",
    [
        # "X it is" says a choice; "it shows" and "its freeeezing" point at nothing.
        "tortilla it is for the kids then. for us tho, anything with chorizo that isn't soup?",
        "lol i never eat breakfast and it shows. whats a breakfast drink, smoothie-ish?",
        "ok and for the grown-ups later, something warm w booze in it? its freeeezing here",
    ],
)
def test_idioms_with_it_point_at_no_recipe(message):
    resolved = resolve(message, *SPANISH[:1], SPANISH[1], "is the tortilla gluten free?", "Yes, it is.")

    assert resolved.recipe_ids == []
    assert "Spanish Tortilla" not in resolved.question


def test_that_after_a_meal_just_said_is_the_meal_and_both_days_counts_no_recipes():
    turns = (
        "gluten free desserts for my gf's visit",
        "- **Tarta de Santiago**\n- **Pavlova**\n- **Brigadeiro**",
    )

    resolved = resolve("sweet. she's here for breakfast both days too, anything for that?", *turns)

    assert resolved.recipe_ids == []
    assert "gluten-free" in resolved.question


def test_a_request_after_a_dash_inherits_what_was_asked():
    turns = ("15 min for lunch, what can i make", "- **Quesadilla** (5 min)\n- **Simple Tuna Salad** (5 min)")

    resolved = resolve(
        "lol no thank u. i have a dozen eggs that need using before they expire tho — anything with eggs"
        " in that same time frame?",
        *turns,
    )

    assert resolved.recipe_ids == []
    assert "15 minutes" in resolved.question


COOKIES = (
    "bake sale cookies that make a LOT",
    "| Cookie | Notes |\n|---|---|\n| Greek Easter Cookies | 10 eggs, 9 cups of flour |\n"
    "| Sand Tarts | topped with chopped almonds |\n| Matcha Cookies | with macadamia nuts |\n"
    "| Oatmeal Cookies | classic |",
)


@pytest.mark.parametrize(
    "message",
    [
        "the greek ones are too much for me honestly. any of the rest nut free tho? strict no nuts policy",
        "ok skipping the greek ones, 10 eggs?? of what's left, which ones have no nuts in them?",
    ],
)
def test_a_set_aside_said_loosely_then_a_need_keeps_the_need_and_the_others(message):
    resolved = resolve(message, *COOKIES)

    assert resolved.recipe_ids == ["sand-tarts", "matcha-cookies", "oatmeal-cookies"]
    assert "nuts" in resolved.question  # the need is the user's, not a recipe set aside


def test_the_one_second_from_the_bottom_is_the_second_to_last():
    turns = (
        "pork chop ideas",
        "1. **Sticky Porkchops**\n2. **Miso Ginger Pork**\n3. **Marinated Pork Steaks**",
    )

    resolved = resolve("i'll go with the one second from the bottom — does it need a grill?", *turns)

    assert resolved.recipe_ids == ["miso-ginger-pork"]


def test_the_one_that_does_not_get_cooked_is_read_from_the_recipes_data():
    turns = (
        "summery seafood dinners",
        "- **Ceviche**\n- **Shrimp and Grits**\n- **Newfoundland Cod Chowder**",
    )

    resolved = resolve(
        "its 35 degrees so the one that doesn't get cooked at all — is it safe to eat?", *turns
    )

    assert resolved.recipe_ids == ["ceviche"]


def test_the_others_after_a_dash_leave_out_the_one_named_before_it():
    turns = (
        "veggie curry night, one of them is vegan",
        "- **Red Lentil Dahl**\n- **Fall Vegetable and Chickpea Curry**\n- **Paneer Tikka Masala**",
    )

    resolved = resolve(
        "we've done the dahl 3x this month 😂 so leaving that aside — which of the others?", *turns
    )

    assert resolved.recipe_ids == ["fall-vegetable-and-chickpea-curry", "paneer-tikka-masala"]


def test_every_it_of_an_appliance_just_bought_is_the_appliance():
    turns = ("apple dessert for the weekend?", "1. **Apple Pie**\n2. **Apple strudel**")

    resolved = resolve(
        "yep. oh and my husband just bought a smoker and wants to break it in saturday,"
        " what can he make in it",
        *turns,
    )

    assert resolved.recipe_ids == []
    assert "Apple" not in resolved.question


def test_it_after_a_food_just_asked_for_is_that_food():
    turns = ("japanese dinner ideas", "- **Okonomiyaki**\n- **Miso Ginger Pork**\n- **Japanese Noodle Soup**")

    resolved = resolve("and anything with fish? I'm trying to eat more of it for my cholesterol", *turns)

    assert resolved.recipe_ids == []
    assert "fish" in resolved.question
    assert "Okonomiyaki" not in resolved.question


def test_a_choice_then_another_dish_by_its_name_asks_for_that_dish():
    turns = ("curry for 8", "- **Chicken Tikka Masala**\n- **Simple Chicken Curry**")

    resolved = resolve("ok doubling it then. do you have a recipe for naan bread?", *turns)

    assert "naan bread" in resolved.question
    assert not re.search("Curry|Masala", resolved.question)


def test_a_choice_said_before_a_new_occasion_is_no_part_of_the_new_question():
    turns = ("weeknight fish dinner", "- **Baked Salmon**\n- **Baked Trout**\n- **Finnish Salmon Soup**")

    resolved = resolve(
        "salmon tonight, sorted. what can i have for breakfast tomorrow that's not eggs", *turns
    )

    assert resolved.question == "what can i have for breakfast tomorrow that's not eggs"


GF_DESSERTS = (
    "gf desserts for a dinner party, one guest is coeliac",
    "- **Tarta de Santiago** - almond cake\n- **Pavlova** - meringue\n- **Bolinhos de Coco**",
)


@pytest.mark.parametrize(
    "message",
    [
        "the pavlova looks pretty but honestly this crowd is all about chocolate, got anything chocolatey?",
        "hmm what about ones with fruit in them? its summer",
    ],
)
def test_a_request_for_another_dessert_keeps_the_diet_and_leaves_the_set(message):
    resolved = resolve(message, *GF_DESSERTS)

    assert resolved.recipe_ids == []
    assert "gluten-free" in resolved.question


def test_a_word_or_two_asked_adds_to_what_was_asked():
    turns = ("brunch for 8 on sunday, eggy", "- **Frittata**\n- **Shakshouka**")

    resolved = resolve("cool cool. drinks?", *turns)

    assert resolved.rule == "carry-over"
    assert "8 people" in resolved.question


def test_it_of_a_food_had_enough_of_is_that_food():
    turns = (
        "vegetarian italian, something cosy",
        "1. **Gnocchi**\n2. **Pasta Alla Norma**\n3. **Cacio e Pepe**",
    )

    resolved = resolve(
        "mm. no more pasta this week we've had it like 4 times already 😂 is there a risotto?", *turns
    )

    assert "Gnocchi" not in resolved.question


LEMON_PIE = (
    "lemon desserts?",
    "1. **Lemon Pudding** - an old-fashioned baked pudding\n"
    "2. **Tarte Merengada de Limão** - a Portuguese lemon meringue pie\n3. **Limoncini** - yeasted rolls",
    "the portuguese pie one sounds good, how do you make it",
    "It's easy:\n\n- **Crust:** crush buttered cookies with margarine.\n"
    "- **Filling:** whisk the egg yolks with condensed milk and lemon.\n- **Meringue:** whip the egg whites.",
)


def test_a_part_of_the_recipe_in_focus_is_asked_about_in_that_recipe():
    resolved = resolve("ok and for the meringue bit do i need an electric mixer?", *LEMON_PIE)

    assert resolved.recipe_ids == ["tarte-merengada"]
    assert "the meringue bit of the Tarte Merengada" in resolved.question


def test_the_labels_of_a_recipe_s_parts_name_no_dish():
    # "**Filling:**" is a part of the pie, not the Ricotta Lasagna Filling.
    assert "Lasagna" not in resolve("can i make it the day before?", *LEMON_PIE).question


STEWS = (
    "belgian or hungarian stew for sunday",
    "- **Beef Goulash**\n- **Carbonade Flamande (Traditional Flemish beef stew)**\n- **Stoofvlees**",
)


@pytest.mark.parametrize(
    "message",
    [
        "goulash it is then. oh also I finally caved and bought one of those air fryers everyone's obsessed"
        " with, what's actually good in it?",
        "ok good to know. also my mom's bday is next wk and she's OBSESSED with gooey molten-in-the-middle"
        " chocolate. need a dessert idea for her",
    ],
)
def test_a_new_appliance_or_occasion_after_a_choice_inherits_nothing(message):
    resolved = resolve(message, *STEWS)

    assert resolved.recipe_ids == []
    assert not re.search("Goulash|Carbonade|Stoofvlees|Considering", resolved.question)


@pytest.mark.parametrize(
    "message",
    [
        "all 3 use yogurt lol which reminds me, i go thru SO much of it every week",
        "is it actually worth making plain yogurt myself?",
    ],
)
def test_it_of_a_food_used_up_or_of_being_worth_it_is_no_recipe(message):
    turns = ("chicken with yogurt", "- **Coriander Chicken**")

    assert "Coriander" not in resolve(message, *turns).question


def test_it_of_a_recipe_still_worth_making_is_the_recipe():
    turns = ("brazilian chicken", "- **Galinha Caipira** - a whole free-range chicken, simmered")

    resolved = resolve("is it still worth making with thighs?", *turns)

    assert resolved.recipe_ids == ["galinha-caipira"]


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        (
            "lol the tortilla is what i make every night already 😅 anyway diff thing, my sister's bday is"
            " saturday, what lemon dessert could i make her",
            "my sister's bday is saturday, what lemon dessert could i make her",
        ),
        (
            "ok grabbing chorizo on my way home. oh and seperate issue, my homemade mayo keeps splitting",
            "my homemade mayo keeps splitting",
        ),
        # Found on the page.
        (
            "cool. totally different thing - my mum's birthday is sunday, she loves lemon",
            "my mum's birthday is sunday, she loves lemon",
        ),
        # What is dropped is said: it stays.
        ("ok forget the tortilla, what about fish?", "ok forget the tortilla, what about fish?"),
    ],
)
def test_the_remark_before_a_change_of_topic_ends_at_an_emoji_or_a_stop(message, asked):
    """The question asked is what follows the words of switching ("diff thing,")."""
    resolved = resolve(message, *SPANISH)

    assert resolved.question == asked


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("skip the Tortilla, I dont have time. how long do the others take?", "how long do they take?"),
        (
            "we literally had it last week so not the Tortilla. of the rest which is quickest?",
            "we literally had it last week. which is quickest?",
        ),
    ],
)
def test_a_set_aside_taken_out_leaves_a_sentence(message, asked):
    resolved = resolve(message, *SPANISH)

    assert resolved.rule == "exclusion"
    assert resolved.question.endswith(asked)


SOUPS = (
    "light soup ideas for a weeknight",
    "- **Stracciatella** - Italian egg-drop soup\n- **Gypsy Soup** - sweet potato and chickpeas\n"
    "- **Turkish Yogurt Soup** - rice in a yogurt broth",
)


def test_the_thing_a_remark_sets_aside_is_left_out_of_the_rest():
    message = "the egg drop thing sounds a bit plain tbh. of the rest which is the quickest and which one"
    message += " fills you up"

    resolved = resolve(message, *SOUPS)

    assert resolved.recipe_ids == ["gypsy-soup", "turkish-yogurt-soup"]
    assert "which is the quickest and which one fills you up" in resolved.question


def test_the_day_and_the_time_of_it_point_at_no_recipe():
    turns = (
        "greek dinner party saturday",
        "- **Slow-cooked Lamb with Lemon** - marinate overnight\n- **Tabouleh**\n- **Greek Salad**",
    )

    resolved = resolve(
        "ugh it's saturday morning already so the lamb's out. of everything else, what's quick?", *turns
    )

    assert resolved.recipe_ids == ["tabouleh", "greek-salad"]
    assert "it's saturday morning already" in resolved.question


def test_rows_are_counted_as_items_and_making_them_without_a_food_is_a_need():
    turns = (
        "warm drinks for a winter party",
        "| # | Drink |\n|---|---|\n| 1 | Glühwein |\n| 2 | Italian Mulled Wine |\n| 3 | Irish Coffee |\n"
        "| 4 | Indian tea |",
    )

    resolved = resolve("2nd and 3rd rows — any way to make those without the booze for the kids?", *turns)

    assert resolved.recipe_ids == ["italian-mulled-wine", "irish-coffee"]
    assert "without the booze" in resolved.question


@pytest.mark.parametrize(
    "message",
    [
        "ok back to the potato thing — which of them can i do with no butter?",
        "so out of the potato ones you listed which are one-pan?",
    ],
)
def test_the_list_said_by_what_it_holds_is_the_whole_list(message):
    turns = ("potato sides", "- **Rösti**\n- **Parmesan potatoes**\n- **Fried Potatoes**")

    assert len(resolve(message, *turns).recipe_ids) == 3


def test_that_one_after_a_food_hated_is_the_recipe_with_that_food():
    turns = (
        "seafood pasta ideas",
        "- **Garlic Butter Seafood Pasta**\n- **Spaghetti alla puttanesca** - anchovies, olives, capers\n"
        "- **Shrimp Fettuccine Alfredo**",
    )

    resolved = resolve(
        "she hates anchovies so obviously not that one, but of the other two which is easier?", *turns
    )

    assert resolved.recipe_ids == ["seafood-pasta", "shrimp-fettuccine-alfredo"]


def test_the_two_of_us_are_people():
    turns = (
        "finnish food",
        "- **Kropsua (Finnish Baked Pancake)**\n- **Finnish Salmon Soup**",
        "kropsua pls",
        "ok!",
    )

    resolved = resolve("it's only the two of us tho, can i halve the Kropsua?", *turns)

    assert resolved.recipe_ids == ["kropsua"]


CHICKEN_FOR_KIDS = (
    "gluten free chicken dinner under 30 min pls, 2 hungry kids",
    "- **Chicken Tenders Airfried**\n- **Chicken Satay with Peanut Sauce**\n"
    "- **Spicy Kung Pao-Style Chicken**",
)


@pytest.mark.parametrize(
    "message",
    [
        "tenders it is. after theyre in bed tho i want something warm and boozy, its freezing in this flat",
        "hm ok maybe. my brother's bday is saturday and he wants burgers, whats a good sauce to slather"
        " on them",
        "mm nice. easter's coming up and my MIL ALWAYS brings the same lemon cake, i want something"
        " traditional",
        "ok will do. btw we got an air fryer as a gift and it's still in the box, what are easy things"
        " to start with",
        "lol ok. sunday lunch for the in-laws though, they love lamb - what could i do that isn't"
        " too fiddly?",
    ],
)
def test_a_new_occasion_said_around_words_that_point_at_nothing_inherits_nothing(message):
    resolved = resolve(message, *CHICKEN_FOR_KIDS)

    assert resolved.recipe_ids == []
    assert not re.search("Chicken|gluten|30 min", resolved.question)


def test_that_after_a_food_someone_is_mad_about_is_that_food():
    turns = ("dessert for my mum, no dairy at all", "- **Tarta de Santiago**\n- **Granita**")

    resolved = resolve("lovely. she's also mad about coconut, anything with that?", *turns)

    assert resolved.recipe_ids == []
    assert "dairy-free" in resolved.question


def test_in_one_go_counts_no_dish():
    turns = (
        "chicken dinners under 45 min?",
        "- **Cheddar-Crusted Chicken**\n- **Chicken Satay with Peanut Sauce**",
    )

    resolved = resolve(
        "hmm. i'd love something with rice so it's a full meal in one go — any like that?", *turns
    )

    assert resolved.question.startswith("Hmm. i'd love something with rice so it's a full meal in one go")
    assert "45 minutes" in resolved.question


@pytest.mark.parametrize(
    "message",
    [
        "ooh those all look good, saving them. also we got an air fryer as a gift and have used it zero"
        " times — what can i make in it",
        "none of those are grabbing me lol. i've got a block of firm tofu that needs using today, what can"
        " i do with it",
    ],
)
def test_an_appliance_just_got_or_a_food_to_use_up_is_a_new_topic(message):
    resolved = resolve(message, *SOUPS)

    assert resolved.rule == "switch"
    assert "Soup" not in resolved.question


def test_an_appliance_asked_about_for_a_recipe_stays_on_it():
    turns = ("fish dinner", "- **Grilled Mackerel with Miso Soup and Squash**\n- **Baked Trout**")

    resolved = resolve("the mackerel one. do I need an actual grill or can i use the oven", *turns)

    assert resolved.recipe_ids == ["grilled-mackerel-with-miso-soup-and-squash"]


@pytest.mark.parametrize(
    "message",
    [
        "none of that is calling to me tbh. i kinda want something sweet?? is that bad lol",
        "ok ill go hunt for it. oh and any with potato?",
        "ok we'll skip that one for now. my wife's birthday is next week and she's been craving pavlova"
        " — is that hard to make?",
    ],
)
def test_that_of_a_wish_of_a_thing_to_buy_or_of_a_dish_craved_is_no_recipe_offered(message):
    assert "Considering" not in resolve(message, *SOUPS).question
    assert "Gypsy" not in resolve(message, *SOUPS).question


@pytest.mark.parametrize(
    ("message", "turns"),
    [
        # "them" are the guests, not the recipes offered.
        (
            "ok that's my weeknights covered. christmas eve is at mine tho, 10 of us, and everyone's"
            " expecting a showstopper dessert, what would wow them",
            ("low carb dinners pls", "- **Hellfire Steak**\n- **Miso Ginger Pork**\n- **Hamburger Patties**"),
        ),
        # "the second they walk in" is a moment, not the second recipe.
        (
            "perfect. it's meant to be -5 on saturday so i wanna hand people something hot to drink"
            " the second they walk in, boozy is fine",
            ("french bistro night, mains?", "- **Chicken in Red Wine Vinegar Sauce**\n- **Farci Tomatoes**"),
        ),
        # The set refused in a sentence of its own, then a new request.
        (
            "ugh my gf has a cold so she won't be up for any of that. what's a good gentle soup for her",
            (
                "spicy sichuan tonight",
                "- **Mapo Tofu**\n- **Yibin Burning Noodles**\n- **Hoisin Pork Belly**",
            ),
        ),
        # "it has to be something i can pack" asks for a dish; it points at none.
        (
            "the chowder sounds class. ok dinner sorted but what about tomorrow's lunch, no microwave"
            " so it has to be something i can pack and eat cold",
            (
                "fish soup for dinner, under an hour",
                "- **Finnish Salmon Soup**\n- **Newfoundland Cod Chowder**",
            ),
        ),
        (
            "so scrap all of that. whats a nice vegetarian main for two?",
            ("japanese tonight", "- **Okonomiyaki**\n- **Miso Ginger Pork**"),
        ),
    ],
)
def test_a_new_request_after_a_remark_inherits_nothing(message, turns):
    resolved = resolve(message, *turns)

    assert resolved.recipe_ids == []
    assert not re.search(r"\b(?:carb|hour|spicy|sichuan|bistro|japanese tonight)\b", resolved.question, re.I)


def test_the_meal_said_before_a_request_replaces_the_meal_asked_before():
    resolved = resolve(
        "ok and for lunch, something i can take to uni?",
        "Vegan. Breakfast ideas that aren't just toast?",
        "- **Granola**\n- **Quick Breakfast Spaghetti**",
    )

    assert resolved.question == "ok and for lunch, what about vegan recipes i can take to uni?"


DRINKS = (
    "warm drinks for a winter party",
    "- **Italian Mulled Wine** – red wine with star anise; you can splash in limoncello at the end.\n"
    "- **Glühwein** – red wine with cassis juice.\n- **Irish Coffee** – coffee with whiskey.\n"
    "- **Indian tea** – black tea with ginger and cardamom.",
    "any of those non alcoholic?",
    "Just the **Indian tea** out of that list.",
)
CHICKENS = (
    "chicken for a sunday family dinner",
    "- **Spatchcock Chicken** – two whole chickens roasted.\n"
    "- **Lemon and oregano chicken traybake** – thighs roasted with lemon.\n"
    "- **Galinha Caipira** – a rural Brazilian stew of a whole chicken, onions and lard.",
)


@pytest.mark.parametrize(
    ("message", "turns", "recipe_ids"),
    [
        # By what the assistant said of it, in the list before a side answer.
        (
            "ok back to the boozy stuff: the one where you said you can add limoncello, white wine ok?",
            DRINKS,
            ["italian-mulled-wine"],
        ),
        ("honestly the brazilian stew you mentioned is calling me", CHICKENS, ["galinha-caipira"]),
        # "the shake" is the end of a title's word.
        (
            "fair. ok scratch the shake. between the others, which one can i prep on sunday?",
            (
                "healthy breakfast ideas",
                "1. **Hearty Breakfast Oatmeal**\n2. **Oats**\n3. **Granola**\n"
                "4. **Sunday Morning Milkshake**",
                "is granola actually healthy?",
                "A bit of both: homemade lets you control the sugar.",
            ),
            ["hearty-breakfast-oatmeal", "oats", "granola"],
        ),
        # The list asked for with that word; "the 5 P's" counts no list.
        (
            "going back to the weeknight list — the 2nd one, what do the 5 P's mean?",
            (
                "quick weeknight pasta pls",
                "1. Spaghetti aglio e olio\n2. Cinque Pi\n3. Garlic Butter Seafood Pasta\n4. Carbonara",
                "and a baked pasta for sunday?",
                "- **Baked Mostaccioli**\n- **Cheesy Pasta Bake**\n"
                "- **Baked pasta with broccoli, boiled eggs and scamorza cheese**",
            ),
            ["cinque-pi"],
        ),
    ],
)
def test_a_recipe_pointed_at_by_what_was_said_of_it_or_of_its_list(message, turns, recipe_ids):
    assert resolve(message, *turns).recipe_ids == recipe_ids


def test_the_same_kind_of_thing_said_after_a_remark_keeps_what_was_asked_but_not_a_recipe_chosen():
    resolved = resolve(
        "cool. oh wait my sister's coming too and she's pescatarian,"
        " so same kind of thing but with fish instead?",
        "chicken dinner that takes under an hour?",
        "- **Turkish-Style Spiced Chicken** – 40 min\n- **Exotic Ginger Cumin Chicken** – 35 min",
        "turkish one sounds nice, can i make the spice blend myself?",
        "Sure: cumin, paprika, a little cinnamon.",
    )

    assert resolved.question == (
        "cool. oh wait my sister's coming too and she's pescatarian,"
        " what about recipes with fish instead, ready in under an hour?"
    )


def test_drinks_had_by_the_guests_ask_for_no_drink():
    resolved = resolve(
        "ok cool, going with the paella. what could i put out as tapas while ppl are having drinks?",
        "spanish dinner party for 8, a big rice dish",
        "1. **Valencian Paella**\n2. **Valencian Baked Rice (Arroz al Horno)**",
    )

    assert resolved.rule != "switch"


def test_any_that_are_of_a_need_asks_among_those_offered():
    turns = ("what's good for a kids birthday party", "- **Spaghetti and Meatballs**\n- **Basic Meatballs**")

    assert resolve("any that are nut free?", *turns).recipe_ids == [
        "spaghetti-and-meatballs",
        "basic-meatballs",
    ]


def test_the_first_one_of_a_single_recipe_offered_is_that_recipe():
    turns = ("quick breakfast with eggs?", "This recipe matches:\n- Quick Breakfast Spaghetti (vegetarian)")

    resolved = resolve("how long does the first one take?", *turns)

    assert resolved.question == "How long does the Quick Breakfast Spaghetti take?"


def test_a_diet_said_not_to_be_needed_is_not_carried():
    history = (
        "gluten free chicken dinner ideas, my husband's coeliac",
        "Some naturally gluten-free chicken dinners: **Chicken Paprikash** and **Roasted chicken breast**.",
    )

    resolved = resolve("and a dessert for my mum? she's not coeliac so normal pastry is fine", *history)

    assert "gluten" not in resolved.question.lower()
    assert "gluten" in resolve("and a dessert for my mum?", *history).question.lower()


def test_while_i_have_you_changes_the_topic():
    history = (
        "gluten free chicken dinner ideas",
        "Some naturally gluten-free chicken dinners: **Chicken Paprikash** and **Roasted chicken breast**.",
    )

    resolved = resolve("perfect ty. oh also while i have u — do u have a good apple pie?", *history)

    assert resolved.recipe_ids == []
    assert "gluten" not in resolved.question.lower() and "Paprikash" not in resolved.question


def test_a_change_of_topic_that_names_a_recipe_of_the_conversation_asks_about_it():
    history = (
        "veggie dinner, 30 min max",
        "Try the **Mushroom Stroganov** (mushrooms, mustard and smoked paprika) or the **Cinque Pi**.",
    )

    resolved = resolve(
        "thank u!! ok random but the smoked paprika jar broke. does the strogonof still work without it?",
        *history,
    )

    assert "mushroom-stragonov" in resolved.recipe_ids
    assert resolved.rule != "switch"


def test_the_same_kinda_thing_keeps_what_was_asked():
    history = ("quick vegetarian lunch, 20 min max", "Try the **Quesadilla** or the **Tuna Salad**.")

    resolved = resolve("same kinda thing but for breakfast?", *history)

    assert "breakfast" in resolved.question and "20 minutes" in resolved.question


def test_a_need_said_as_an_allergy_is_carried_and_one_said_not_to_apply_is_not():
    nibbles = (
        "nibbles for a party, my son is allergic to nuts",
        "Try the **Kettle Chips** or the **Hummus**.",
    )
    keto = ("keto dinner ideas for my sister", "Try the **Keto Coconut Bread**.")

    assert resolve("and a dessert?", *nibbles).carried == ["nut-free"]
    assert resolve("and a dessert for my mum?", *keto).carried == ["keto"]
    assert resolve("and a dessert for my mum? she's not keto at all", *keto).carried == []


def test_what_goes_with_it_after_picking_one_names_the_one_picked():
    resolved = resolve(
        "the second one please. what would go well with it on the side?",
        "chicken dinner ideas",
        "- **Chicken Stock or Bone Broth**\n- **Chicken Wings**\n- **Chicken Satay with Peanut Sauce**",
    )

    assert resolved.recipe_ids == ["chicken-wings"]
    assert "go well with the Chicken Wings on the side" in resolved.question


def test_leaving_a_dish_in_the_oven_sets_none_aside():
    resolved = resolve(
        "omg all three. which of them can i get going first and leave in the oven while i do the rest",
        "brunch ideas?",
        "1. **Eggs Benedict** – 35 min\n2. **Spiced Apple Pancakes** – 25 min\n"
        "3. **Kropsua (Finnish Baked Pancake)** – one big pancake baked in a pan of melted butter",
    )

    assert resolved.recipe_ids == ["eggs-benedict", "spiced-apple-pancakes", "kropsua"]
    assert resolved.question.endswith("leave in the oven while i do the rest, for brunch")


# Seventeenth round: what a new user asks of a dish, more of the same, events and people.

GRANOLA = (
    "vegan brunch ideas?",
    "These 3 recipes match best:\n- Quick Breakfast Spaghetti\n- Granola\n- Croutons",
    "Ooh the Granola sounds good. how long does it take?",
    "Granola takes 50 min in all (prep 10 min, cook 40 min).",
)


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "and do I need any special equipment?",
            "And do I need any special equipment for the Granola, for brunch?",
        ),
        ("how many calories?", "How many calories for the Granola, for brunch?"),
        ("any tips?", "Any tips for the Granola, for brunch?"),
        (
            "nice! what oven temp? mine runs hot",
            "Nice! what oven temp for the Granola, for brunch? mine runs hot",
        ),
    ],
)
def test_what_a_recipe_says_asked_with_no_pointer_is_asked_of_the_one_in_view(message, question):
    resolved = resolve(message, *GRANOLA)

    assert resolved.question == question
    assert resolved.recipe_ids == ["granola"]


def test_what_needs_no_equipment_asks_for_other_dishes():
    assert "granola" not in resolve("anything that needs no special equipment?", *GRANOLA).recipe_ids


def test_what_goes_with_it_then_a_kind_of_dish_asks_what_goes_with_the_one_in_view():
    resolved = resolve("what could go with it, something sweet maybe", *GRANOLA)

    assert resolved.recipe_ids == ["granola"]
    assert resolved.question.startswith("What could go with the Granola, something sweet maybe")


SATAY = ("quick chicken dinner for two, 30 min", "- Chicken Satay\n- Spicy Kung Pao-style Chicken")


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # The need said first, then "more".
        ("oh wait she's allergic to peanuts. give me a couple others pls", "without peanuts"),
        # "more", then the need.
        ("can u give me a couple more but no beef, trying to cut back on red meat", "without beef"),
        # "more", then a remark, kept after the question.
        ("what else u got? she hates almonds", "she hates almonds"),
    ],
)
def test_more_said_around_a_need_asks_for_others_of_what_was_asked(message, kept):
    resolved = resolve(message, *SATAY)

    assert resolved.rule == "more"
    assert resolved.question.startswith("oh wait she's allergic to peanuts. What other chicken recipes") or (
        resolved.question.startswith("What other chicken recipes are there besides the Chicken Satay")
    )
    assert kept in resolved.question and "ready in under 30 minutes, for 2 people" in resolved.question


def test_the_name_a_dish_is_called_points_at_no_recipe():
    resolved = resolve(
        "what oven temp for roasting a whole chicken flattened out? spatchcock i think its called",
        "chicken tacos?",
        "- Taco Meat\n- Slow-cooked Chicken Tacos\n- Fresh Guacamole",
    )

    assert resolved.recipe_ids == [] and "Taco" not in resolved.question


def test_prepping_that_is_prepping_the_dish_offered():
    resolved = resolve(
        "ok but how far ahead can i prep that? want to be with the family 🎄",
        "Doing Christmas dinner for the first time, just 4 of us. Want something impressive but not turkey.",
        "For a showstopper for four, go for **Beef Wellington**: seared beef fillet wrapped in pastry.",
    )

    assert resolved.question.startswith(
        "Ok but how far ahead can i prep the Beef Wellington, for 4 people, for a christmas dinner?"
    )


def test_pud_is_a_dessert_that_keeps_what_was_asked():
    resolved = resolve(
        "and for pud?",
        "dinner party for 8 on saturday, one guest is dairy free. mains?",
        "- Chicken in Red Wine Vinegar Sauce\n- Beef Stew",
    )

    assert resolved.question == "What about dairy-free dessert, for 8 people, for a dinner party?"


def test_that_lot_is_the_set_offered():
    resolved = resolve(
        "ok update its the morning after and i am DYING 🥴 out of that lot whats the least faff",
        "brunch for 4 tomorrow",
        "- Shakshouka\n- Eggs Benedict\n- Spanish Tortilla\n- Banana Pancakes",
    )

    assert resolved.recipe_ids == ["shakshouka", "eggs-benedict", "spanish-tortilla", "banana-pancakes"]
    assert "that lot" in resolved.question  # the words stay as said, after the titles


def test_two_recipes_set_aside_in_one_breath_both_go():
    resolved = resolve(
        "skip the chili and the soup, we're souped out. between the other two which keeps better?",
        "vegan dinner ideas for this week?",
        "1. Lebanese Lentil Soup – red lentils.\n2. Ginataang Kalabasa – squash.\n3. Lenten Chili – beans.\n"
        "4. Hoisin Tofu and Broccoli – tofu.",
    )

    assert resolved.recipe_ids == ["ginataang-kalabasa", "hoisin-tofu-and-broccoli"]


@pytest.mark.parametrize(
    "message",
    [
        "thank youuu. different day different drama: my toddler refuses everything but noodles. noodle soup?",
        "these r great. now dinner is the problem, i want something with lamb that cooks low and slow",
        # Someone new, and what follows asks for them.
        "my sister's coming for lunch tmrw and she's vegan... any soup i could make her?",
    ],
)
def test_a_new_problem_or_a_new_guest_for_a_new_meal_inherits_nothing(message):
    resolved = resolve(
        message,
        "dairy free chicken ideas for tonight",
        "- **Butter Chicken Masala Curry**\n- **Chicken Tikka Masala**\n- **Coriander Chicken**",
    )

    assert resolved.recipe_ids == [] and "chicken" not in resolved.question.lower()
    assert "dairy" not in resolved.question.lower()


def test_drinks_for_them_are_for_the_guests_at_the_event_said():
    resolved = resolve(
        "what about drinks for them? non alcoholic obvs 😅",
        "Throwing my son's 6th birthday party, about 12 kids. Finger food ideas?",
        "- **Croque-monsieur bites** – mini.\n- **Sausage Rolls** – always a hit.\n- **Kettle Corn**",
    )

    assert resolved.recipe_ids == []
    assert resolved.carried == ["for 12 people", "for my son's 6th birthday party"]


@pytest.mark.parametrize(
    ("message", "left_out"),
    [
        (
            "sounds dreamy. theres no wine in the house - does it matter if i just leave it out?",
            "leave it out",
        ),
        ("No wine here, can i skip it?", "skip it"),
    ],
)
def test_a_food_the_user_lacks_is_what_they_would_leave_out(message, left_out):
    resolved = resolve(
        message,
        "whats a good veggie main for a cosy night in",
        "How about a **mushroom risotto**? Mushrooms, arborio, a splash of white wine. About 35 minutes.",
    )

    assert resolved.recipe_ids == ["mushroom-risotto"]
    assert f"{left_out} in the Mushroom risotto" in resolved.question


def test_need_one_more_asks_for_one_more_of_what_was_asked():
    resolved = resolve(
        "need one more veggie one pls, something not mashed",
        "Gluten-free Thanksgiving sides for 10 people",
        "- Savory Squash – mashed butternut.\n- Creamy Mashed Potatoes.\n- Coleslaw – crunchy.",
    )

    assert resolved.question.startswith("What about one more veggie gluten-free side")
    assert "for 10 people" in resolved.question


COURGETTES = (
    "i have way too many courgettes from the garden, what can i make?",
    "These 3 recipes match best:\n- Stuffed vegetables\n- Air Fryer Zucchini\n"
    "- Fall Vegetable and Chickpea Curry",
)


def test_them_after_a_food_to_use_up_is_the_food():
    resolved = resolve("what about something sweet with them?", *COURGETTES)

    assert resolved.recipe_ids == [] and resolved.question == "what about something sweet with courgettes?"


def test_what_goes_with_them_after_a_food_to_use_up_is_what_goes_with_the_dishes():
    resolved = resolve("what goes with them?", *COURGETTES)

    assert resolved.recipe_ids == [
        "stuffed-vegetables",
        "air-fryer-zucchini",
        "fall-vegetable-and-chickpea-curry",
    ]
    assert "using" not in resolved.question  # the sides go with the dishes, not with the glut


def test_those_bakes_are_the_list_of_bakes_not_the_sides_after_it():
    resolved = resolve(
        "which one of those bakes can i fully assemble the night before?",
        "Hosting 8 for a dinner party next Saturday, something I can prep ahead.",
        "**Lasagna** – layered.\n**Pastítsio** – the Greek cousin.\n**Baked Mostaccioli** – a simpler bake.",
        "ooh pastitsio sounds fun, what do i serve with it",
        "A crisp **Greek Salad** is the obvious partner, and some crusty **Italian Bread**.",
    )

    assert resolved.recipe_ids == ["lasagna", "pastitsio", "baked-mostaccioli"]


def test_something_more_of_a_kind_asks_for_that_kind_with_what_was_asked():
    resolved = resolve(
        "ooh. got anything more seafood-y? he loves fish",
        "Anniversary dinner for two on Friday 🥂 My husband is lactose intolerant so dairy-free please.",
        "- **Chicken in Red Wine Vinegar Sauce**\n- **Beef Stew**",
    )

    assert resolved.question == (
        "What about seafood-y dairy-free recipes, for 2 people, for an anniversary dinner? he loves fish"
    )


def test_a_recipe_for_a_dish_by_its_name_inherits_nothing():
    resolved = resolve(
        "do you have a recipe for danish risengrød? my gf wants it on christmas eve",
        "scandi christmas food ideas?",
        "- Swedish pancakes\n- Glühwein",
    )

    assert resolved.carried == []


LEFTOVER_CHICKEN = (
    "what can i make with leftover roast chicken?",
    "These 3 recipes match best:\n- Easy Chicken and Rice Casserole\n- Slow-cooked Chicken Tacos\n"
    "- One-Pot Chicken Tetrazzini",
    "ooh the first one. do i need to cook the chicken again?",
    "I answer only from the recipe as written.",
)


def test_them_after_a_food_hated_is_the_food_skipped_in_the_recipe_in_view():
    resolved = resolve("my kids hate mushrooms, can i skip them?", *LEFTOVER_CHICKEN)

    assert resolved.recipe_ids == ["easy-chicken-and-rice-casserole"]
    assert (
        resolved.question == "My kids hate mushrooms, can i skip them in the Easy Chicken and Rice Casserole?"
    )


def test_the_rest_after_leftovers_is_the_rest_of_the_food():
    resolved = resolve("great. anything i could make for lunch tomorrow with the rest?", *LEFTOVER_CHICKEN)

    assert resolved.recipe_ids == []
    assert resolved.question.endswith("with roast chicken?")
    # Of the dishes, "the rest" is still the others.
    assert resolve("which of the rest is quickest?", *LEFTOVER_CHICKEN).recipe_ids == [
        "chicken-tacos",
        "one-pot-chicken-tetrazzini",
    ]


@pytest.mark.parametrize(
    "message", ["how long does the soup take?", "is the lentil soup vegan?", "what goes with the soup?"]
)
def test_the_one_dish_of_its_kind_in_the_set_is_named_by_its_kind(message):
    resolved = resolve(
        message,
        "dinner ideas?",
        "These 3 recipes match best:\n- Lebanese Lentil Soup\n- Honey Garlic Chicken\n- Arroz Chaufa",
    )

    assert resolved.recipe_ids == ["lebanese-lentil-soup"]
    assert "the Lebanese Lentil Soup" in resolved.question


def test_a_food_said_of_the_set_is_no_dish_of_it():
    resolved = resolve(
        "can i add the chicken later?",
        "chicken and rice dinner?",
        "These 3 recipes match best:\n- Easy Chicken and Rice Casserole\n- Honey Garlic Chicken\n"
        "- Arroz Chaufa",
    )

    assert resolved.recipe_ids == []


PICNIC = (
    "picnic for 10 this saturday, what can I bring?",
    "- **Greek Salad** – fresh.\n- **Three Bean Salad** – hearty.\n- **Perfect Potato Salad** – a classic.",
)


def test_a_question_about_the_dishes_offered_keeps_whom_and_what_they_are_for():
    resolved = resolve("would any of them survive a few hours in the car?", *PICNIC)

    assert resolved.recipe_ids == ["greek-salad", "bean-salad", "perfect-potato-salad"]
    assert resolved.question.endswith("survive a few hours in the car, for 10 people, for a picnic?")
    assert resolved.carried == ["for 10 people", "for a picnic"]


def test_a_question_about_the_dishes_offered_does_not_say_their_diet_again():
    # "…, vegetarian" after "can any be made the day before" would ask which of them is.
    resolved = resolve(
        "can any of those be made the day before?",
        "vegetarian curry for 6 on friday",
        "- **Paneer Tikka Masala**\n- **Red Lentil Dahl**",
    )

    assert resolved.question == (
        "Considering the Paneer Tikka Masala and the Red Lentil Dahl, can any of those be made the day"
        " before, for 6 people?"
    )


def test_what_goes_with_a_dish_offered_is_not_said_for_the_occasion():
    resolved = resolve("what would you serve with the greek salad?", *PICNIC)

    assert "picnic" not in resolved.question


@pytest.mark.parametrize(
    "message",
    [
        "any w/o pasta? i always overcook it and it goes all mushy",
        "how do i cook plain rice without it going mushy",
    ],
)
def test_the_it_of_a_food_just_said_is_the_food_not_the_dishes(message):
    turns = (
        "first time cooking for myself, vegetarian, nothing complicated pls",
        "- **Mushroom Stroganov** – creamy.\n- **Pasta Arrabbiata** – spicy.\n- **Cinque Pi** – quick.",
    )

    assert resolve(message, *turns).recipe_ids == []


def test_a_dish_left_out_is_not_the_kind_of_dish_asked_for():
    turns = (
        "first time cooking, vegetarian, nothing complicated",
        "- **Mushroom Stroganov**\n- **Pasta Arrabbiata**",
    )

    assert resolve("any w/o pasta?", *turns).question == "What about vegetarian recipes without pasta?"


def test_tripling_that_is_tripling_the_dish_in_view():
    turns = ("chicken and rice meal prep", "Try **Honey Garlic Chicken with Broccoli and Brown Rice**.")

    assert resolve("can i triple that?", *turns).recipe_ids == ["honey-garlic-chicken"]


def test_a_food_left_out_twice_is_left_out_once():
    turns = ("egg free breakfast for my toddler? she's allergic to eggs", "1. Oats\n2. Venezuelan Arepa")

    assert (
        resolve("and for a snack later on?", *turns).question == "What about a snack later on, without egg?"
    )


def test_high_protein_is_a_need_carried_like_a_diet():
    turns = ("high protein dinner under 30 min", "1. **Teriyaki Beef Wok**\n2. **Chicken Tenders Airfried**")

    assert resolve("any fish ones?", *turns).carried == ["high-protein", "ready in under 30 minutes"]


def test_a_new_person_misspelt_after_thanks_is_a_new_topic():
    resolved = resolve(
        "thx those r great. but my roomate turns 25 friday and i wanna spoil her, she loves chicken. ideas?",
        "cheap filling meals with lentils?",
        "- **Red Lentil Dahl** – cheap.\n- **Turkish Red Lentil Soup** – filling.",
    )

    assert resolved.recipe_ids == []
    assert "lentil" not in resolved.question.lower()


def test_food_for_another_occasion_inherits_nothing():
    resolved = resolve(
        "also need a quick green veg side for weeknights",
        "whats a danish christmas dessert i could try?",
        "Try **Risengrød** – Danish rice pudding, or the **Rice Pudding**.",
    )

    assert resolved.carried == []
    assert "danish" not in resolved.question.lower()


def test_those_a_person_prefers_are_the_foods_just_said():
    resolved = resolve(
        "what about rolls or buns tho, she prefers those for packed lunch",
        "dairy free sandwich bread for my daughter's lunchbox?",
        "- **Sourdough Table Loaf**\n- **No-knead Bread**\n- **Italian Bread**",
    )

    assert resolved.recipe_ids == []
    assert resolved.carried == ["dairy-free"]


def test_food_for_another_day_is_not_for_the_earlier_guests():
    resolved = resolve(
        "something quick for dinner tonight, i have chicken and rice",
        "hosting a bbq for 8 on saturday, what sides can i make?",
        "- **Coleslaw**\n- **Garlic Toast**\n- **Parmesan potatoes**",
    )

    assert "bbq" not in resolved.question
    assert "8 people" not in resolved.question


def test_more_asked_after_a_need_and_an_emoji_keeps_the_need():
    resolved = resolve(
        "ugh she also cant do tomatoes 🍅🚫 any others?",
        "my aunt is vegan and she's coming for christmas. what main can i make her?",
        "- **Ratatouille**\n- **Pasta Alla Norma**\n- **Red Lentil Dahl**",
    )

    assert resolved.rule == "more"
    assert resolved.carried == ["vegan", "without tomatoes", "for christmas"]


def test_a_dish_asked_for_beside_something_keeps_its_own_words():
    resolved = resolve(
        "omg yes. and a cake, something a clueless dad can actually pull off",
        "my son's 7th birthday party, 10 kids. food ideas?",
        "- **Sausage Rolls**\n- **Kettle Corn**",
    )

    assert resolved.question == (
        "What about a cake, something a clueless dad can actually pull off, for 10 people,"
        " for my son's 7th birthday party?"
    )
