"""What a question asks of the recipes' data, as the data answers read it: "which is
quickest", "without cheese", "is it vegan", "what do I need", "how do I make it"."""

from __future__ import annotations

import re

# Leading amounts and units of an ingredient line ("~150g (1/3 lb) bacon cubes" → "bacon cubes").
AMOUNT = re.compile(
    r"^(?:[~≈]?\s*(?:\d+(?:[.,/]\d+)?|[¼½¾⅓⅔⅛])\s*(?:-\s*\d+(?:[.,/]\d+)?)?\s*"
    r"(?:(?:g|kg|mg|ml|l|dl|cl|oz|lbs?|cups?|tbsp|tsp|tablespoons?|teaspoons?|cloves?|cans?|"
    r"pinch(?:es)?|handfuls?|slices?|pieces?|sticks?|bunch(?:es)?|pounds?|ounces?|grams?|"
    r"litres?|liters?|quarts?|pints?|gal|sprigs?|heads?|stalks?|jars?|packets?)\b)?\.?\s*|"
    r"\([^)]*\)\s*|(?:a|an|some|few|of|large|small|medium)\s+)+",
    re.IGNORECASE,
)
# What a question about "no cheese" or "without meat" also means.
CATEGORIES: dict[str, tuple[str, ...]] = {
    "cheese": (
        "cheese",
        "parmesan",
        "cheddar",
        "mozzarella",
        "feta",
        "ricotta",
        "gruyere",
        "gruyère",
        "pecorino",
        "halloumi",
        "paneer",
        "brie",
        "mascarpone",
        "emmental",
        "gouda",
        "comté",
    ),
    "meat": (
        "beef",
        "pork",
        "chicken",
        "lamb",
        "bacon",
        "ham",
        "sausage",
        "turkey",
        "veal",
        "mince",
        "chorizo",
        "prosciutto",
        "duck",
        "meat",
    ),
    "dairy": ("milk", "cream", "butter", "cheese", "yogurt", "yoghurt", "parmesan", "ghee"),
    "nut": ("nut", "almond", "walnut", "peanut", "cashew", "pecan", "hazelnut", "pistachio"),
    "fish": ("fish", "salmon", "tuna", "cod", "anchov", "shrimp", "prawn", "trout", "sardine"),
    "egg": ("egg",),
    "gluten": ("flour", "bread", "pasta", "wheat", "noodle", "couscous", "barley", "breadcrumb"),
}
DIETS = {
    "vegan": "vegan",
    "vegetarian": "vegetarian",
    "veggie": "vegetarian",
    "gluten-free": "gluten_free",
    "gluten free": "gluten_free",
    "dairy-free": "dairy_free",
    "dairy free": "dairy_free",
    # "is the pavlova safe for a coeliac?": a coeliac eats gluten-free.
    "coeliac": "gluten_free",
    "celiac": "gluten_free",
    "lactose": "dairy_free",
}
# What keeps a recipe from a diet: the kinds of ingredient (or the foods) that say why it is
# not marked so ("Chicken Soup is not marked vegetarian: it lists "4 cups chicken broth"").
DIET_BREAKERS = {
    "vegetarian": ("meat", "fish", "gelatin"),
    "vegan": ("meat", "fish", "gelatin", "dairy", "egg", "honey"),
    "gluten_free": ("gluten",),
    "dairy_free": ("dairy",),
}
QUICK = re.compile(r"\b(quickest|fastest|shortest|least time|quicker|faster|less time)\b", re.I)
SLOW = re.compile(r"\b(slowest|longest|most time)\b", re.I)
MOST = re.compile(
    r"\b(serves? (?:the )?most|feeds? (?:the )?most|most (?:servings|people|portions)"
    # "of the others, which serves more?"
    r"|(?:serves?|feeds?|makes?) more(?: people)?|more (?:servings|portions)"
    r"|biggest|largest|crowd)\b",
    re.I,
)
FEWEST = re.compile(
    r"\b(serves? (?:the )?fewest|serves? (?:the )?least|fewest (?:servings|people|portions)|smallest)\b", re.I
)
WITHOUT = re.compile(
    r"\b(?:no|without|not? (?:have|has|use|contain)s?|doesn'?t (?:have|use|contain)|free of|"
    r"(?:does ?n[o']?t|doesn'?t|dont|don'?t|do not) (?:need|require)|"
    r"(?:has|have|uses?|contains?) no)\s+(?:any\s+|the\s+|a\s+|an\s+)?"
    # "without the coconut milk": a food said in two words is asked whole.
    r"([a-z][a-z-]+(?:\s+(?:milk|cream|oil|sauce|butter|cheese|flour|sugar|powder|paste|stock|wine|juice))?)",
    re.I,
)
# "which doesnt need baking?" asks about the oven.
TOOL_WORDS = {"baking": "oven", "bake": "oven", "baked": "oven", "hob": "stove"}


def said_in_steps(said: dict[str, str]) -> dict[str, re.Pattern[str]]:
    """Each name's pattern, from the words steps say it with, each starting a word."""
    return {name: re.compile(rf"\b(?:{words})", re.I) for name, words in said.items()}


# Part of a recipe's time, asked: "how long does it need in the fridge?", "how long to rise?".
# Each is looked for in the steps by these words.
PHASES: dict[str, re.Pattern[str]] = said_in_steps(
    {
        "in the fridge": "fridge|refrigerat|chill",
        "in the freezer": "freez",
        "in the oven": "oven|bake|baking",
        "to set": "set(?! aside)|fridge|refrigerat|chill",
        "to chill": "chill|fridge|refrigerat",
        "to rise": "rise|prove|proof|double",
        "to marinate": "marinat",
        "to rest": "rest",
        "to cool": "cool",
        "to soak": "soak",
        "to simmer": "simmer",
    }
)
PHASE = re.compile(
    r"\b(?:in the (?:fridge|freezer|oven)|to (?:set|chill|rise|marinate|rest|cool|soak|simmer))\b", re.I
)
# "which one has the fewest ingredients?": a ranking by the lists, not the lists themselves.
INGREDIENT_COUNT = re.compile(
    r"\b(?P<few>fewest|least|fewer|less)\b|\b(?:most|more)\b(?= ingredients?\b)", re.I
)
INGREDIENTS = re.compile(
    r"\b(what do i need|ingredients?|what goes in|what'?s in|what is in|shopping list|need to buy)\b", re.I
)
# Tools a recipe's steps use, not its ingredients ("can I make it without the oven?"), and
# how steps say they use them.
EQUIPMENT: dict[str, re.Pattern[str]] = said_in_steps(
    {
        # A Dutch oven is a pot.
        "oven": "(?<!dutch )oven|bake|baking(?! powder| soda)|roast|broil|preheat",
        "microwave": "microwave",
        "blender": "blend",
        "processor": "food processor|processor",
        "mixer": "mixer|whisk",
        "grill": "grill|barbecue",
        "stove": "stove|hob|pan|pot|simmer|boil|fry",
        "fryer": "fryer|deep[- ]fry",
    }
)
# A swap asked of a recipe: "can I use chicken breast instead?", "substitute tofu for the
# chicken?", "swap the cream for yogurt?", "what can I use instead of cream?". `new` is the food
# put in, `old` the one taken out.
FOOD = r"[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?"
# Where the food said ends: at a stop, at "in the …", or at the end.
FOOD_END = r"(?=\s*[?.!,]|\s+in\b|\s*$)"
SWAP_FOODS = re.compile(
    rf"\b(?:use|try|put in|swap in|sub in)\s+(?:some\s+|an?\s+)?(?P<new>{FOOD})\s+(?:instead|in place)\b"
    rf"(?:\s+of\s+(?:the\s+)?(?P<old>{FOOD}){FOOD_END})?"
    rf"|\bsub(?:stitute)?\s+(?:some\s+)?(?P<new_for>{FOOD})\s+for\s+(?:the\s+)?(?P<old_for>{FOOD}){FOOD_END}"
    rf"|\b(?:swap|switch|exchange|replace)\s+(?:out\s+)?(?:the\s+)?(?P<old_with>{FOOD})\s+(?:for|with)\s+"
    rf"(?:some\s+)?(?P<new_with>{FOOD}){FOOD_END}"
    rf"|\b(?:instead of|in place of)\s+(?:the\s+)?(?P<old_only>{FOOD}){FOOD_END}",
    re.I,
)
# "Does it need any special equipment?", "what tools do I need?": the kit as a whole, asked.
KIT_ASKED = re.compile(
    r"\b(?:(?:special|any|what|which|particular|fancy|extra|other|kitchen)\s+)+"
    r"(?:equipment|tools?|utensils|gadgets?|appliances?|gear|kit)\b|\bequipment\b",
    re.I,
)
# The kit a recipe's steps name, as a cook would list it: first what not every kitchen has,
# then what every kitchen has. A pattern says how steps name it.
SPECIAL_KIT: dict[str, re.Pattern[str]] = said_in_steps(
    {
        "mixer": "kitchen ?aid|(?:stand |hand |electric )?mixer(?!s? (?:of|together))",
        "dough hook": "dough hook",
        "rolling pin": "rolling pin",
        "pasta machine": "pasta (?:machine|maker|roller)",
        "pasta cutter": "pasta cutter",
        "pizza cutter": "pizza cutter",
        "pizza stone": "pizza stone|baking stone",
        "blender": "(?:stick |immersion )?blender|liquidi[sz]er",
        "food processor": "food processor",
        "slow cooker": "slow cooker|crock ?pot",
        "pressure cooker": "pressure cooker|instant ?pot",
        "air fryer": "air ?fryer",
        "deep fryer": "deep[- ]?fryer",
        "microwave": "microwave",
        "grill": "grill(?!ed)|barbecue|bbq",
        "Dutch oven": "dutch oven",
        "wok": "wok",
        "cauldron": "cauldron|kazan",
        "cast-iron pan": "cast[- ]iron",
        "thermometer": "thermometer",
        "mandoline": "mandolin",
        "mortar and pestle": "mortar|pestle",
        "cheesecloth": "cheese ?cloth|muslin",
        "piping bag": "piping bag|pastry bag",
        "skewers": "skewers?",
        "ice cream maker": "ice[- ]cream (?:maker|machine)",
        "waffle iron": "waffle (?:iron|maker)",
        "springform tin": "springform",
        "loaf tin": "loaf (?:tin|pan)",
        "muffin tin": "(?:muffin|cupcake) (?:tin|pan|tray)",
        "cake tin": "cake (?:tin|pan)",
        "pie dish": "(?:pie|tart) (?:dish|plate|tin|pan)",
        "ramekins": "ramekins?",
        "cookie cutter": "(?:cookie|biscuit) cutter",
        "steamer": "steamer",
        "jars": "(?:mason |glass |sterili[sz]ed )?jars?",
        "kitchen twine": "twine|kitchen string|butcher'?s string",
    }
)
EVERYDAY_KIT: dict[str, re.Pattern[str]] = {"oven": EQUIPMENT["oven"]} | said_in_steps(
    {
        "stove": r"stove|hob\b|stovetop"
        r"|(?:over|on) (?:a )?(?:low|medium|high|gentle|moderate)\b[\w -]{0,12}heat",
        "frying pan": "(?:frying |fry |saute |sauté )pan|skillet",
        # A pan said alone; "a cake pan" is said by its own name.
        "pan": r"(?<!frying )(?<!fry )(?<!saute )(?<!sauce )(?<!sheet )(?<!cake )(?<!loaf )"
        r"(?<!tart )(?<!pie )(?<!muffin )(?<!cupcake )(?<!roasting )(?<!baking )pans?\b",
        "saucepan": r"sauce ?pan|pots?\b|stockpot",
        "baking sheet": "baking (?:sheet|tray)|sheet pan|cookie sheet",
        "baking dish": "(?:baking|casserole|oven[- ]?proof|roasting) (?:dish|tin|pan)",
        "bowl": r"bowls?\b",
        "whisk": "whisk",
        "sieve": "sieve|strainer|colander",
        "grater": "grater",
        "knife": "knife",
        "spatula": "spatula",
        "baking paper": "parchment|baking paper|wax paper|greaseproof",
        "foil": "foil",
        "plastic wrap": "plastic wrap|cling ?film",
    }
)
KIT = SPECIAL_KIT | EVERYDAY_KIT
# "do any of them need an oven?": a tool the steps use, asked of the recipes.
USES_TOOL = re.compile(
    r"\b(?:need|needs|use|uses|require|requires|involve|involves|go in|goes in)\s+(?:an?\s+|the\s+)?"
    rf"({'|'.join([*EQUIPMENT, *TOOL_WORDS])})\b",
    re.I,
)
HOW_LONG = re.compile(r"\b(how long|how much time|how many minutes|takes? to (?:make|cook))\b", re.I)
HOW_MANY = re.compile(
    r"\b(how many (?:people|servings|portions)|(?:serves?|makes?|feeds?) how many"
    r"|how many (?:does|do|will|would|can)\b[^?.!]{0,40}?\b(?:make|makes|feed|feeds|serve|serves)"
    # "how do I scale it for 8?": how many it serves, against how many are eating.
    r"|scale\b[^?.!]{0,40}?\b(?:for|to) \d+"
    # "how much do i need for 8?", "is it enough for 10?": the servings, against the guests.
    r"|how much (?:do|will|would|should) (?:i|we) (?:need|make)\b[^?.!]{0,20}?\bfor \d+"
    r"|\b(?:is|be) (?:it|that|this|the [\w' -]{1,40}?) enough for \d+"
    r"|how many does)\b",
    re.I,
)
METHOD = re.compile(
    r"\bhow (?:do|can|should|would|to) (?:i |you |we )?(?:make|cook|prepare|bake|do)\b"
    r"|\bhow (?:is|are) .{1,80}? made\b|\b(?:steps|instructions|method|directions|recipe) for\b"
    r"|\bwalk me through\b|\bsend me\b",
    re.I,
)
# How hot a dish is, asked: "which is the least spicy?", "is it very hot?", "something mild".
HEAT = re.compile(r"\b(?:spic(?:y|ier|iest)|mild(?:er|est)?|hott(?:er|est)|how hot|too hot|heat)\b", re.I)
MILDEST = re.compile(r"\b(?:least|less|not (?:too |very )?(?:spicy|hot)|mild(?:er|est)?)\b", re.I)
# How sweet a dish is, asked: "is it very sweet?", "which is the least sugary?".
SWEETNESS = re.compile(r"\b(?:sweet|sweeter|sweetest|sugary)\b", re.I)
# What makes a dish sweet, as ingredient lists write it. The data rates no sweetness: these are read.
SUGARY = re.compile(
    r"sugar|honey|syrup|molasses|agave|treacle|caramel|condensed milk|chocolate|\bjam\b|\bdates\b", re.I
)
# A question asked of recipes, before what it asks: "any of those vegan?", "is it gluten free?".
ASKS_OF = re.compile(r"\b(?:is|are|any|either|both|which|all|can|does|do)\b", re.I)
# "Do any of them have nuts?", "does it contain eggs?", "is there dairy in it?"; not "is there
# a recipe with lentils?", a search.
HAS = re.compile(
    r"\b(?:have|has|contain|contains|use|uses|got)\s+(?:any\s+|some\s+)?(?P<what>[a-z][a-z-]+)"
    r"|\b(?:is|are) there\s+(?:any\s+|some\s+)?(?P<there>[a-z][a-z-]+)(?=\s+in\b)"
    # "can she eat the cookies, nut-free?": the diets are the flags' (`_diet`), this is a food.
    r"|\b(?P<free>[a-z]+)[- ]free\b",
    re.I,
)
# Words that hold a kind without being of it: "peanut butter" is no dairy, "eggplant" no egg,
# "nutmeg" no nut. Taken out of a line before that kind is looked for.
FALSE_FRIENDS: dict[str, re.Pattern[str]] = {
    kind: re.compile(pattern, re.I)
    for kind, pattern in {
        "dairy": r"\b(?:peanut|nut|almond|cashew|cocoa|apple|shea) butter|butternut|cream of tartar"
        r"|\b(?:coconut|oat|almond|soy|soya|rice|cashew|plant|vegan|non-dairy|dairy-free)"
        r" (?:milk|cream|butter|yogh?urt|cheese)",
        "nut": r"nutmeg|butternut|doughnut|nutritional yeast",
        "egg": r"eggplant|egg-free",
        "gluten": r"gluten-free",
        "meat": r"meatless|meat-free|minced",
    }.items()
}
# Keeping a dish: asked as "does it freeze well?", "can I make it the day before?"; said in a
# recipe's steps as "freezes", "keeps in the fridge", "store", "reheat", "overnight".
KEEPING = re.compile(
    r"\bfreez|\bfroze|make (?:it |them |this |that )?ahead|(?:day|night) before|\breheat|leftover"
    r"|\bhow far ahead|\bahead of time|\bin advance"
    # "which of those can i prep in the morning?", "can i get it done earlier in the day".
    r"|\b(?:prep|prepare|make|do|get)\b[^?.!]{0,25}?\b(?:in the morning|earlier in the day|that morning"
    r"|the morning of)\b"
    r"|\bstore|\bkeeps?(?: well| for|\s*\?|$)|last (?:for|in the fridge)"
    # "does it keep till lunch without a fridge?": kept out of the fridge.
    r"|\b(?:keeps?|lasts?) (?:till|until) |\bwithout (?:a |the )?fridge|\bout of the fridge|\bunrefrigerated"
    r"|\bat room temp"
    # "would any of them survive a few hours in the car?".
    r"|\bsurvive\b[^?.!]{0,30}?\b(?:hours?|car|heat|sun|day|trip|journey|outside)\b"
    # "how long do cooked chickpeas keep in the fridge?": how long the dish lasts, not chills.
    r"|\b(?:keeps?|lasts?|stays? (?:ok|good|fresh)) in the (?:fridge|freezer)",
    re.I,
)
KEPT = re.compile(
    r"\bfreez|\bfroze|\bfridge|refrigerat|\bstor(?:e|ed|age)\b|\bkeeps? (?:for|well|up to|fresh)\b"
    r"|\bkeeps? in (?:the fridge|an? (?:airtight|sealed|cool))|\breheat|\bahead\b|\bovernight|\bleftover",
    re.I,
)
# The oven's heat, asked: "what temp is the oven?", "how hot should the oven be?".
OVEN_TEMP = re.compile(
    r"\b(?:what|which|wat)\s+(?:temp|temperature|heat|degrees)\b|\boven (?:temp|temperature)\b"
    r"|\bhow hot\b[^?.!]{0,25}\boven\b|\bgas mark\b",
    re.I,
)
# … and said in a step: "Preheat the oven to 375°F (190°C)", "200 degrees", "gas mark 6".
STEP_TEMP = re.compile(r"\b\d{2,3}\s*(?:°|º|degrees?\b)|\b\d{3}\s*[FC]\b|\bgas mark \d", re.I)
# Which course a dish is, asked: "would any of those work as a main?", "which one is a side?".
COURSE_ASKED = re.compile(
    r"\b(?:as|for) (?:a|the|an) (?P<as>main|main course|side|side dish|dessert|starter|snack)\b"
    r"|\b(?:is|are|be)\b[^?.!,]{0,30}?\b(?:a |an )?"
    r"(?P<is>main|main course|side|side dish|dessert|starter|snack)s?\s*\?",
    re.I,
)
# What a recipe's nutrition is, asked: "how many calories is that?", "how much protein per bowl".
NUTRITION = re.compile(
    r"\b(?:calories|kcal|cals|nutrition(?:al)?|macros|how much (?:protein|fat|sugar|carbs|fibre|fiber))\b",
    re.I,
)
# How much work a dish is, asked: "which is the least work?", "the easiest one?".
EFFORT = re.compile(
    r"\b(?:least (?:work|effort|hassle)|less (?:work|effort)|easiest|simplest|easier|simpler"
    r"|fewest (?:steps|ingredients)|least (?:steps|ingredients)|hard|difficult|complicated|easy|tricky)\b",
    re.I,
)
# A message that only thanks or acknowledges: "thanks!", "great, thank you so much".
COURTESY = re.compile(
    r"^\W*(?:(?:thanks|thank you|thx|ty|cheers|great|perfect|awesome|lovely|ok(?:ay)?|cool|nice|bye"
    r"|goodbye|that's all|that is all)(?:\s+(?:a lot|so much|very much|again))?\W*)+$",
    re.I,
)
