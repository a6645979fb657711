"""Which catalog recipes a text names, as people write titles."""

from __future__ import annotations

import pytest

from app.catalog.fresh import CatalogNames
from app.catalog.names import RecipeNames

TITLES = {
    "stroganoff": "Beef Stroganoff",
    "mushroom-stragonov": "Mushroom Stroganov",
    "shakshouka": "Shakshouka",
    "spanish-tortilla": "Spanish Tortilla",
    "beef-goulash": "Beef Goulash",
    "pepper-sauce": "Pepper Sauce",
    "bread": "Bread",
    "no-knead-bread": "No-knead Bread",
    "mapo-tofu": "Mapo Tofu (麻婆豆腐)",
    "drunken-beans": "Drunken beans (Pintos Borrachos)",
    "creme-brulee": "Crème brûlée",
    "risengroed": "Risengrød",
    "indian-tea": "Indian tea",
    "potato-and-eggplant-curry": "Potato and Eggplant Curry",
    "yogurt": "Yogurt",
    "turkish-yogurt-soup": "Turkish Yogurt Soup",
    "tahini-short-bread": "Tahini short bread",
}
NAMES = RecipeNames(TITLES)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("I recommend the Shakshouka and the Spanish Tortilla.", ["shakshouka", "spanish-tortilla"]),
        ("the shakshuka, please", ["shakshouka"]),  # a spelling of its own
        ("Two Spanish tortillas", ["spanish-tortilla"]),  # a plural
        ("creme brulee for dessert", ["creme-brulee"]),  # accents left out
        ("How long does the Beef Goulash take?", ["beef-goulash"]),
        ("Mapo Tofu or Pintos Borrachos?", ["mapo-tofu", "drunken-beans"]),  # its other name
        ("Beef Stroganoff, not the Mushroom Stroganov", ["stroganoff", "mushroom-stragonov"]),
        ("Risengrød on Christmas Eve", ["risengroed"]),  # a letter no accent folding takes to a-z
        ("Indian chai with ginger", ["indian-tea"]),  # the same food by another name
        ("the potato and aubergine curry", ["potato-and-eggplant-curry"]),
        ("Tahini shortbread", ["tahini-short-bread"]),  # two words written as one
        # A one-word title running into another dish's word is no name of its own.
        ("**Yogurt soup** with rice", []),
        ("Yogurt, with honey", ["yogurt"]),
    ],
)
def test_titles_are_found_as_people_write_them(text, ids):
    assert NAMES.named(text) == ids


@pytest.mark.parametrize(
    "text",
    [
        "Now I want to bake bread.",  # a food word, not the recipe called "Bread"
        "eggs in a tomato and pepper sauce",  # words of a sentence, not a title
        "What about the Stroganov?",  # two titles fit: not for the catalog to guess
        "turn on the stove and heat the oil",  # a short word one slip from "Stoofvlees" is a word
        "The Stroganoff has eggs: 2 whole Bread rolls, beaten",  # an amount of an ingredient
    ],
)
def test_words_of_a_sentence_are_not_titles(text):
    assert NAMES.named(text) == []


NICKNAMED = RecipeNames(
    {
        "beef-goulash": "Beef Goulash",
        "beef-wellington": "Beef Wellington",
        "puff-pastry": "Puff Pastry",
        "vareniki": "Ukrainian Vareniki",
        "borscht": "Ukrainian Borscht",
        "gluehwein": "Glühwein - mulled wine",
    },
    cooking={
        "beef-wellington": ["500 g puff pastry", "Wrap the fillet in the pastry."],
        "apple-pie": ["1 sheet of shortcrust pastry"],
    },
)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("How long does the goulash take?", ["beef-goulash"]),
        ("did the wellington last year, so not that", ["beef-wellington"]),
        ("**Vareniki** — potato and mushroom dumplings", ["vareniki"]),
        ("• Glühwein – red wine with cassis, orange and cloves", ["gluehwein"]),
        # Other recipes cook with pastry: "the pastry" is food, not the Puff Pastry recipe.
        ("how do I stop the pastry going soggy?", []),
    ],
)
def test_a_title_goes_by_a_word_of_its_own_but_not_by_an_everyday_one(text, ids):
    assert list(NICKNAMED.in_conversation(text)) == ids


def test_a_food_word_written_as_a_name_is_the_recipe():
    assert NAMES.named("There's our Bread, or the No-knead Bread.") == ["bread", "no-knead-bread"]


async def test_the_names_are_read_once_and_again_after_the_catalog_changes():
    reads = []

    class Store:
        async def titles(self) -> dict[str, str]:
            reads.append(1)
            return TITLES

        async def ingredients_and_steps(self) -> dict[str, list[str]]:
            return {}

    names = CatalogNames(Store())  # type: ignore[arg-type]
    await names.get()
    await names.get()
    names.forget()
    await names.get()

    assert len(reads) == 2


def test_a_one_word_title_in_running_text_is_an_ingredient_not_the_recipe():
    names = RecipeNames({"ketchup": "Ketchup", "meatloaf": "Meatloaf"})

    assert names.named("a big Meatloaf with a ketchup glaze") == ["meatloaf"]
    assert names.named("the ketchup, or the meatloaf") == ["ketchup", "meatloaf"]


def test_the_ingredients_of_an_answer_are_not_recipes():
    names = RecipeNames(
        {
            "mushroom-sauce": "Mushroom sauce",
            "rice": "Rice",
            "peanut-butter": "Peanut Butter",
            "cheese": "Cheese",
        }
    )
    answer = (
        "These 3 recipes match best:\n- Mushroom sauce (35 min): Champignons, Butter\n- Risotto: Arborio Rice"
    )

    assert list(names.in_conversation(answer)) == ["mushroom-sauce"]  # nor is "These" a "Cheese"


# Dishes an assistant lists in passing, lower case and loosely written.

LISTED = RecipeNames(
    {
        "chocolate-chip-cookies": "Chocolate Chip Cookies",
        "oatmeal-cookies": "Oatmeal Cookies",
        "banana-oatmeal-cookies": "Banana and oatmeal cookies",
        "lavacake": "Lavacake",
        "oats": "Oats",
        "beef-goulash": "Beef Goulash",
        "scouse": "Scouse",
        "carbonade": "Carbonade Flamande (Traditional Flemish beef stew)",
        "pasta-arrabbiata": "Pasta Arrabbiata",
        "carbonara": "Carbonara",
        "chili-con-carne": "Chili Con Carne",
        "beef-kidney": "Beef Kidney",
        "shakshouka": "Shakshouka",
        "pepper-sauce": "Pepper Sauce",
        "ardei-umpluti": "Ardei umpluti with meat",
        "stuffed-vegetables": "Stuffed vegetables",
        "mushroom-sauce": "Mushroom sauce",
        "beef-wellington": "Beef Wellington",
    }
)


@pytest.mark.parametrize(
    ("turn", "ids"),
    [
        (  # cut short, with a qualifier, "&" for "and", two words run together
            "Here you go: choc chip cookies, classic oatmeal cookies, banana & oat cookies and lava cakes.",
            ["chocolate-chip-cookies", "oatmeal-cookies", "banana-oatmeal-cookies", "lavacake"],
        ),
        (  # a title by its own last word; "and" or "or" after a parenthesis or a dish
            "goulash with potatoes, carbonnade flamande (a Flemish beer stew) and scouse.",
            ["beef-goulash", "carbonade", "scouse"],
        ),
        ("Pasta arrabbiata or carbonara, both ready in half an hour.", ["pasta-arrabbiata", "carbonara"]),
        (
            "Try the stuffed vegetables (peppers, courgette) or the Romanian ardei umpluti.",
            ["stuffed-vegetables", "ardei-umpluti"],
        ),
    ],
)
def test_an_assistant_turn_names_the_dishes_it_lists_however_loosely(turn, ids):
    assert list(LISTED.in_conversation(turn)) == ids


@pytest.mark.parametrize(
    "turn",
    [
        "Banana cookies (basically just bananas and oats), ready fast.",  # a parenthesis: ingredients
        "- **Shakshouka** – eggs poached in a tomato, onion and pepper sauce",  # an item's description
        "Chili con carne with ground beef and kidney beans.",  # "kidney beans" is no Beef Kidney
        "How about the wellington? A creamy mushroom sauce goes well on the side.",  # a side, in passing
        "All travel well.",  # "well" cut short is no Wellington
    ],
)
def test_words_that_describe_a_dish_are_not_dishes_of_the_list(turn):
    listed = LISTED.in_conversation(turn)
    assert not {"oats", "pepper-sauce", "beef-kidney", "mushroom-sauce"} & set(listed)
    assert "beef-wellington" not in listed or "wellington" in turn


def test_ordinals_count_dishes_in_the_order_the_list_writes_them():
    turn = "Some ideas:\n• creme brulee\n• pavlova\n• lava cakes (chocolate)\n• apple pie"
    names = RecipeNames(
        {
            "creme-brulee": "Crème brûlée",
            "pavlova": "Pavlova",
            "lavacake": "Lavacake",
            "apple-pie": "Apple Pie",
        }
    )

    assert list(names.in_conversation(turn)) == ["creme-brulee", "pavlova", "lavacake", "apple-pie"]


def test_a_turn_read_again_in_another_conversation_is_settled_by_that_conversation():
    names = RecipeNames({"chicken-tikka": "Chicken Tikka Masala", "paneer-tikka": "Paneer Tikka Masala"})
    turn = "The tikka masala would be perfect."

    assert list(names.in_conversation(turn, "Something with chicken?")) == ["chicken-tikka"]
    assert list(names.in_conversation(turn, "Something with paneer?")) == ["paneer-tikka"]
    assert list(names.in_conversation(turn, "Something with chicken?")) == ["chicken-tikka"]


def test_ingredients_in_a_list_are_not_dishes_on_offer():
    listed = (
        "These 2 recipes match best:\n"
        "- Beef Stroganoff (40 min in all): beef, mushrooms, Bread\n"
        "- Shakshouka (20 min in all): eggs, tomatoes, Bread"
    )
    needed = "For Beef Goulash you need:\n- 2 slices Bread\n- beef\n- 1 Pepper Sauce (optional)"

    assert list(NAMES.in_conversation(listed)) == ["stroganoff", "shakshouka"]
    assert list(NAMES.in_conversation(needed)) == ["beef-goulash"]


def test_the_recipes_are_no_recipe_whose_title_ends_in_recipe():
    names = RecipeNames({"fries": "Basic Sweet Potato Fries Recipe", "stew": "Beef Stew"})

    assert names.in_conversation("I answer only from the recipes as written") == {}


SHORTENED = RecipeNames(
    {
        "aglio-e-olio": "Spaghetti aglio e olio",
        "carbonara": "Spaghetti Carbonara",
        "chicken-satay": "Chicken Satay with Peanut Sauce",
        "chicken-noodle-soup": "Chicken Noodle Soup",
        "miso-soup": "Miso Soup",
        "tzatziki": "Tzatziki",
        "greek-yogurt": "Greek Yogurt",
        "ketchup": "Ketchup",
        "nashville-chicken": "Nashville Chicken Sandwich",
    }
)


@pytest.mark.parametrize(
    ("turn", "ids"),
    [
        # Without a first word other titles share, or cut before "with": one title is meant.
        ("aglio e olio is just spaghetti, garlic and oil.", ["aglio-e-olio"]),
        ("- **Chicken Satay** – chicken with a creamy peanut sauce, 25 min", ["chicken-satay"]),
        # Bold is no word of a list item; what follows its dash describes the dish.
        ("- **Tzatziki** – greek yogurt, cucumber, dill, garlic", ["tzatziki"]),
        # A hyphen inside a word joins words: the sauce's ketchup is no dish.
        ("Nashville chicken sandwich, finished with a mayo-ketchup-relish sauce.", ["nashville-chicken"]),
    ],
)
def test_a_chat_turn_names_titles_shortened_as_chat_shortens_them(turn, ids):
    assert list(SHORTENED.in_conversation(turn)) == ids


def test_a_shortened_name_is_only_one_no_other_title_could_share():
    # "soup" ends more than one title: "noodle soup" is any noodle soup.
    assert SHORTENED.named("I'd love a noodle soup tonight") == []


def test_a_dish_in_passing_may_follow_with():
    names = RecipeNames({"spatchcock-chicken": "Spatchcock Chicken", "turkey-smoked": "Smoked Turkey"})
    turn = "There's a smoked turkey, or keep it simple with spatchcock chicken, roasted with lemon."

    assert [i for _, i in names.anywhere(turn)] == ["turkey-smoked", "spatchcock-chicken"]


@pytest.mark.parametrize(
    ("turn", "ids"),
    [
        ("- Sweet potato fries – oven-baked\n- Coleslaw – creamy", ["sweet-potato-fries", "coleslaw"]),
        (
            "1. **Hamburger and macaroni** – beef and elbow macaroni\n2. **Coleslaw**",
            ["hamburger-macaroni", "coleslaw"],
        ),
        ("1. **Flemish carbonade** – beef in beer\n2. **Coleslaw**", ["carbonade", "coleslaw"]),
        ("Then it has to be a **cheese fondue**!", ["fondue"]),
    ],
)
def test_a_list_item_or_a_bold_dish_names_its_title_by_some_of_its_words(turn, ids):
    names = RecipeNames(
        {
            "sweet-potato-fries": "Basic Sweet Potato Fries Recipe",
            "hamburger-macaroni": "Tomato Flavored Hamburger and Macaroni",
            "carbonade": "Carbonade Flamande (Traditional Flemish beef stew)",
            "fondue": "Fondue",
            "coleslaw": "Coleslaw",
        }
    )

    assert list(names.in_conversation(turn)) == ids


def test_a_title_said_by_its_own_word_is_spelled_as_the_catalog_spells_it():
    names = RecipeNames(
        {"paella": "Valencian Paella", "okonomiyaki": "Okonomiyaki", "pepper-sauce": "Pepper Sauce"}
    )

    assert names.spelled("the okonomiaki, without dashi") == "the Okonomiyaki, without dashi"
    assert names.spelled("how long for the paella?") == "how long for the Valencian Paella?"
    assert names.spelled("the pepper sauce") == "the pepper sauce"  # already the title
    # A user's question is read strictly: "a proper paella" may be any paella.
    assert names.spelled("how do you make a proper paella?") == "how do you make a proper paella?"


def test_a_chat_turn_names_a_dish_by_its_own_word_but_not_a_pan_by_it():
    names = RecipeNames({"paella": "Valencian Paella", "coleslaw": "Coleslaw"})

    assert names.named("a proper paella, like in Valencia", loose=True) == ["paella"]
    assert names.named("all cooked in a wide paella pan", loose=True) == []


def test_a_name_never_ends_in_with_or_and():
    names = RecipeNames(
        {
            "spaghetti-and-meatballs": "Spaghetti and Meatballs",
            "swedish-meatballs": "Swedish Meatballs",
            "basic-meatballs": "Basic Meatballs",
        }
    )

    assert names.named("spaghetti with aubergine and tomato sauce") == []
    assert names.named("Spaghetti with Meatballs, please") == ["spaghetti-and-meatballs"]


def test_a_title_said_without_its_last_word_is_a_kind_of_dish_in_a_question():
    names = RecipeNames({"qbs": "Quick Breakfast Spaghetti", "bcm": "Butter Chicken Masala Curry"})

    assert names.named("whats a quick breakfast, nothing fancy", kinds=True) == []
    assert names.named("quick breakfast with eggs?", kinds=True) == []
    assert names.spelled("whats a quick breakfast") == "whats a quick breakfast"
    # Said with "the", it is the recipe; and an answer's "a butter chicken masala" names it.
    assert names.named("how long does the quick breakfast take?", kinds=True) == ["qbs"]
    assert names.named("I'd go for a butter chicken masala tonight") == ["bcm"]
