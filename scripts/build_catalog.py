"""Convert the public-domain recipe Markdown files into our JSON Lines catalog.

    python -m scripts.build_catalog [SOURCE_DIR] [OUTPUT]

The source files are free-form: times come as "10-15 min", "2h 30min" or "~1.5 hrs", sections
carry sub-headings, and nothing says whether a dish is vegetarian. The conversion is
deterministic, and the diet flags are conservative: a dish is flagged only when no ingredient
(or tag, or title) suggests otherwise, because a wrong "vegetarian" is worse than a missing one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

from app.recipes import Recipe, write_catalog

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "datasets" / "public-domain-recipes" / "content"
DEFAULT_OUTPUT = ROOT / "data" / "recipes.jsonl"
DESCRIPTION_CHARS = 600

# --- Markdown ------------------------------------------------------------------------------------

FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
EMPHASIS = re.compile(r"(\*\*|__|\*|`)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
TIME_LINE = re.compile(r"^\s*(?:[-*]\s*)?\W*?\"?(\w+)\"?\s+time\s*:\s*(.*)$", re.I)
SERVINGS_LINE = re.compile(r"^\s*(?:[-*]\s*)?\W*?servings\b\s*:?\s*(.*)$", re.I)


def plain(text: str) -> str:
    """Markdown inline text as plain text: no images, links keep their words, no emphasis."""
    text = LINK.sub(r"\1", IMAGE.sub("", text))
    return re.sub(r"\s+", " ", EMPHASIS.sub("", text)).strip()


def front_matter(source: str) -> tuple[dict[str, str | list[str]], str]:
    """The front matter's `key: value` lines; `[a, 'b']` lists may leave their items unquoted."""
    match = FRONT_MATTER.match(source)
    if not match:
        raise ValueError("no front matter")
    fields: dict[str, str | list[str]] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        value = value.strip()
        if not sep:
            continue
        if value.startswith("[") and value.endswith("]"):
            fields[key.strip()] = [item.strip().strip("\"'") for item in value[1:-1].split(",")]
        else:
            fields[key.strip()] = value.strip("\"'")
    return fields, source[match.end() :]


def sections(body: str) -> dict[str, list[str]]:
    """Lines under each `## ` heading; "Prep Directions" and "Cooking Directions" both join
    "directions", and the intro is under ''."""
    found: dict[str, list[str]] = {"": []}
    current = ""
    for line in body.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip().lower()
            current = next((name for name in ("ingredients", "directions") if name in heading), heading)
            found.setdefault(current, [])
        else:
            found[current].append(line)
    return found


def list_items(lines: Iterable[str]) -> list[str]:
    """List items, with continuation lines joined; sub-headings and loose notes are dropped."""
    items: list[str] = []
    continuing = False
    for line in lines:
        item = LIST_ITEM.match(line)
        if item:
            items.append(item.group(1))
            continuing = True
        elif line.strip() and continuing and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()
        else:
            continuing = False
    return [text for text in (plain(i) for i in items) if text]


# --- Times ---------------------------------------------------------------------------------------

DURATION = re.compile(
    r"(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*"
    r"(weeks?|days?|hours?|hrs?|h|minutes?|mins?|m)\b",
    re.I,
)
UNIT_MINUTES = {"w": 7 * 24 * 60, "d": 24 * 60, "h": 60, "m": 1}


def minutes(text: str) -> int | None:
    """Minutes in a free-form duration; a range counts as its upper bound, so times never flatter."""
    total = 0.0
    found = False
    for low, high, unit in DURATION.findall(text):
        total += float(high or low) * UNIT_MINUTES[unit[0].lower()]
        found = True
    return round(total) if found else None


def paragraph_steps(lines: Iterable[str]) -> list[str]:
    """Steps written as plain lines instead of a list (a few files do that)."""
    return [text for line in lines if not line.startswith("#") and (text := plain(line))]


def times_and_servings(intro: list[str]) -> tuple[dict[str, int], str | None]:
    """Minutes by label ("prep", "cook", "wait", "fridge"...) and the servings text."""
    times: dict[str, int] = {}
    servings = None
    for line in intro:
        if served := SERVINGS_LINE.match(line):
            servings = plain(served.group(1)) or None
        elif (timed := TIME_LINE.match(line)) and (duration := minutes(timed.group(2))) is not None:
            label = timed.group(1).lower()
            times[label] = times.get(label, 0) + duration
    return times, servings


# --- Diets ---------------------------------------------------------------------------------------


def words_pattern(*words: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")", re.I)


MEAT_OR_FISH = words_pattern(
    "beef",
    "pork",
    "chicken",
    "bacon",
    "ham\\b",
    "hams\\b",
    "lamb",
    "mutton",
    "veal",
    "turkey",
    "duck",
    "goose",
    "sausage",
    "salami",
    "pepperoni",
    "prosciutto",
    "chorizo",
    "pancetta",
    "lard",
    "gelatin",
    "anchov",
    "fish",
    "salmon",
    "tuna",
    "cod\\b",
    "shrimp",
    "prawn",
    "crab",
    "lobster",
    "clam",
    "mussel",
    "oyster",
    "squid",
    "calamari",
    "octopus",
    "scallop",
    "meat",
    "steak",
    "mince\\b",
    "minced (?:beef|pork|lamb|meat|veal|chicken|turkey)",
    "bolognese",
    "caesar",
    "tortellini",
    "venison",
    "rabbit",
    "liver",
    "bone",
    "suet",
    "tallow",
    "brisket",
    "ribs?\\b",
    "dashi",
    "bonito",
    "hake",
    "mullet",
    "haddock",
    "sardine",
    "mackerel",
    "trout",
    "herring",
    "caviar",
    "roe\\b",
    "jerky",
    "hot ?dog",
    "worcestershire",
    "grease",
    "stock",
    "broth",
    "bouillon",
    "drippings",
    "schmaltz",
    "chops?\\b",
    "fillet",
    "wings?\\b",
    "thighs?\\b",
    "drumstick",
    "breast",
    "loin",
    "mortadella",
    "guanciale",
    "kielbasa",
    "pastrami",
    "corned",
    "speck",
    "giblet",
    "offal",
    "tripe",
    "kidney",
    "tongue",
    "quail",
    "pheasant",
    "pigeon",
    "snail",
    "escargot",
    "eel",
    "kung\\b",
    "tom ?y[au]m",
    "krill",
    "surimi",
    "pâté",
    "pate\\b",
    "foie",
)
# Ingredients that name an animal word but are not one; removed before the checks above.
PLANT_LOOKALIKES = words_pattern(
    "vegetable (?:stock|broth|bouillon)",
    "veggie (?:stock|broth)",
    "mushroom (?:stock|broth)",
    "kidney beans?",
    "peanut butter",
    "almond butter",
    "cashew butter",
    "nut butter",
    "apple butter",
    "cocoa butter",
    "shea butter",
    "coconut (?:milk|cream|butter|yogh?urt)",
    "(?:almond|oat|soy|soya|rice|cashew) milk",
    "cream of tartar",
    "butternut",
    "eggplants?",
    "egg ?plants?",
    "vegan \\w+",
    "plant-based \\w+",
    "butter ?beans?",
    "butterhead",
    "milk thistle",
    "ice cream bean",
)
ANIMAL_PRODUCT = words_pattern(
    "eggs?\\b",
    "yolks?",
    "egg whites?",
    "mayo",
    "honey",
    "milk",
    "butter",
    "cream",
    "cheese",
    "yogh?urt",
    "ghee",
    "whey",
    "custard",
    "kefir",
    "paneer",
    "parmesan",
    "parmigiano",
    "pecorino",
    "mozzarella",
    "ricotta",
    "feta",
    "cheddar",
    "gruyere",
    "gruyère",
    "mascarpone",
    "quark",
    "curd",
    "crème",
    "creme",
    "buttermilk",
    "condensed",
    "evaporated",
    "meringue",
    "brioche",
    "pastry",
    "shortcrust",
    "halloumi",
    "gouda",
    "brie",
    "b[ée]chamel",
    "camembert",
    "emmental",
    "provolone",
    "skyr",
    "labneh",
    "smetana",
    "tvorog",
    "casein",
    "lactose",
)
EGG = words_pattern("eggs?\\b", "yolks?", "egg whites?", "mayo", "meringue", "honey")
GLUTEN = words_pattern(
    "wheat",
    "flour",
    "bread",
    "pasta",
    "noodle",
    "spaghetti",
    "macaroni",
    "couscous",
    "barley",
    "rye",
    "semolina",
    "bulgur",
    "farro",
    "spelt",
    "soy sauce",
    "beer",
    "ale\\b",
    "lager",
    "stout",
    "seitan",
    "tortilla",
    "cracker",
    "pastry",
    "pastries",
    "crust",
    "dough",
    "biscuit",
    "cake",
    "cookie",
    "oat",
    "panko",
    "orzo",
    "lasagn",
    "ramen",
    "udon",
    "dumpling",
    "pita",
    "baguette",
    "buns?\\b",
    "rolls?\\b",
    "malt",
    "wonton",
    "filo",
    "phyllo",
    "graham",
    "stuffing",
    "crouton",
    "cereal",
    "bisquick",
    "pie\\b",
    "pizza",
    "gnocchi",
    "ravioli",
    "tortellini",
    "fettuccine",
    "linguine",
    "penne",
    "vermicelli",
    "bagel",
    "croissant",
    "brioche",
    "muffin",
    "pancake",
    "waffle",
    "batter",
    "breadcrumb",
    "roux",
    "teriyaki",
    "hoisin",
    "gravy",
    "kasha",
    "bran",
    "matzo",
    "farina",
    "durum",
    "einkorn",
    "kamut",
    "triticale",
    "freekeh",
    "starter",
    "sourdough",
    "pretzel",
    "baking mix",
    "suet",
    "yeast",
    "wraps?\\b",
)
GLUTEN_FREE_LOOKALIKES = words_pattern(
    "(?:rice|almond|corn|coconut|chickpea|gram|buckwheat|tapioca|potato|cassava|sorghum|millet|"
    "quinoa|teff|arrowroot|chestnut|besan|masa) (?:flour|starch|noodles?|pasta|bread)",
    "cornflour",
    "cornstarch",
    "corn tortillas?",
    "spanish tortilla",
    "gluten-free \\w+",
    "gluten free \\w+",
    "tamari",
    "rice paper",
    "buckwheat",
    "flourless",
    "oat milk",
    "oatmeal milk",
)
MEAT_OR_FISH_TAGS = {
    "meat",
    "beef",
    "pork",
    "chicken",
    "fish",
    "seafood",
    "lamb",
    "poultry",
    "turkey",
    "duck",
    "sausage",
    "bacon",
    "shrimp",
}


def diet_flags(title: str, ingredients: list[str], tags: list[str]) -> dict[str, bool]:
    text = "\n".join([title, *ingredients])
    plant_text = PLANT_LOOKALIKES.sub(" ", text)
    vegetarian = not MEAT_OR_FISH.search(plant_text) and not MEAT_OR_FISH_TAGS.intersection(tags)
    no_animal_products = not ANIMAL_PRODUCT.search(plant_text)
    dairy_free = not ANIMAL_PRODUCT.search(EGG.sub(" ", plant_text))
    gluten_free = not GLUTEN.search(GLUTEN_FREE_LOOKALIKES.sub(" ", text))
    return {
        "vegetarian": vegetarian,
        "vegan": vegetarian and no_animal_products,
        "gluten_free": gluten_free,
        "dairy_free": dairy_free,
    }


# --- Recipes -------------------------------------------------------------------------------------


def description(intro: list[str]) -> str:
    paragraphs = [
        plain(line) for line in intro if not TIME_LINE.match(line) and not SERVINGS_LINE.match(line)
    ]
    text = " ".join(p for p in paragraphs if p)
    if len(text) <= DESCRIPTION_CHARS:
        return text
    cut = text[:DESCRIPTION_CHARS].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def parse_recipe(recipe_id: str, source: str) -> Recipe:
    fields, body = front_matter(source)
    parts = sections(body)
    title = plain(str(fields.get("title", ""))) or recipe_id.replace("-", " ").title()
    tags = sorted({tag.lower() for tag in fields.get("tags") or [] if tag})
    ingredients = list_items(parts.get("ingredients", []))
    directions = parts.get("directions", [])
    steps = list_items(directions) or paragraph_steps(directions)
    times, servings = times_and_servings(parts[""])
    prep, cook = times.pop("prep", times.pop("preparation", None)), times.pop("cook", None)
    timed = [t for t in (prep, cook, *times.values()) if t is not None]
    return Recipe(
        id=recipe_id,
        title=title,
        description=description(parts[""]),
        ingredients=ingredients,
        steps=steps,
        tags=tags,
        prep_minutes=prep,
        cook_minutes=cook,
        total_minutes=sum(timed) if prep is not None or cook is not None else None,
        servings=servings,
        **diet_flags(title, ingredients, tags),
    )


def build(source_dir: Path) -> tuple[list[Recipe], list[str]]:
    """All recipes that convert, sorted by id, and one line per file that does not."""
    recipes: list[Recipe] = []
    skipped: list[str] = []
    for path in sorted(source_dir.glob("*.md")):
        if path.name.startswith("_"):
            continue
        try:
            recipes.append(
                parse_recipe(path.stem.lower().replace("_", "-"), path.read_text(encoding="utf-8"))
            )
        except ValueError as error:
            skipped.append(f"{path.name}: {str(error).splitlines()[0]}")
    return recipes, skipped


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    recipes, skipped = build(source)
    output.parent.mkdir(parents=True, exist_ok=True)
    write_catalog(output, recipes)
    for line in skipped:
        print(f"skipped {line}", file=sys.stderr)
    print(f"wrote {len(recipes)} recipes to {output} ({len(skipped)} skipped)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
