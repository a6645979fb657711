"""The words and patterns a follow-up's references are read by: ordinals, sets, descriptions,
cuisines, dishes, diets, ingredient families, quick and slow."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from app.catalog.spelling import key
from app.search.question_reader import DIET_PHRASES, NEGATED, NO_ALCOHOL, said_not_to_apply
from app.search.recipe_facts import CUISINES

# A question aside: it changes the topic for itself alone, and the talk comes back after it.
SIDE_QUESTION = r"side (?:q|question)\b|side (?:thing|note)(?=\s*[—–:,-])"
SWITCH = re.compile(
    # "Actually" alone changes no topic: "ok actually my neighbour is vegetarian", "hmm
    # actually we had chicken all week. beef or pork?" go on with the conversation; "actually,
    # forget that" says so. And "dump it in and forget about it" forgets nothing.
    r"(?<!n't )(?<!dont )(?<!will )(?<!ll )(?<!i )(?<!always )(?<!might )"
    r"\b((?<!and )forget(?!(?: about)?(?: (?:it|them))?\s*[.!?]*$)(?! to\b)"
    # "scratch pasta entirely".
    r"|(?:scratch|scrap|ditch|drop) (?:the )?[\w'-]+ (?:entirely|altogether|completely)"
    r"|never ?mind|nvm|scrap (?:all (?:of )?)?(?:that|this)\b|something (?:completely |totally )?different"
    r"|change of plans?|(?:new|next) (?:question|q)\b"
    # "anyway scrap the keto stuff for a sec".
    r"|(?:scratch|scrap|ditch|drop|forget) (?:the |all the )?[\w'-]+ (?:stuff|thing|idea|plan)s?"
    r"|plans (?:have )?changed"
    r"|(?:different|diff|unrelated|another|random) (?:q|question|thing|topic)|unrelated|on another note"
    rf"|{SIDE_QUESTION}"
    r"|^random(?: but| thought| one)?|(?:completely|totally|kinda|slightly) random|random but"
    r"|switch(?:ing)? gears|chang(?:e|ing) (?:of )?(?:the )?subject|on a different note|moving on"
    r"|(?<![\w ] )separately(?=,)|while i(?:'ve| have) (?:got )?(?:you|u)\b"
    r"|(?:totally |completely )?sep[ae]rate (?:\w+ )?(?:thing|question|q|note|topic|problem|matter|issue)"
    r"|(?:totally|completely) separate(?=\s*[—–:-])"
    r"|random,? but|(?:my )?(?:real|main|actual) question is|meanwhile)\b"
    # "anyway lol. next weekend we're camping …": the talk turns.
    r"|^anyway\W*(?:lol|lmao|haha)?\s*[.!]+(?=\s)"
    r"|^(?:now|ok(?:ay)? now)\b(?! (?:what|how) about\b)|\bnow for (?:tonight|dinner|lunch|tomorrow)\b"
    r"|\bnow for the (?:grown[- ]?ups|adults|parents|kids|little ones)\b"
    r"|(?<=[.!] )now(?=\s*[—–:-])|\bbefore i forget\b"
    # "different day different drama: …", "these r great. now dinner is the problem".
    r"|\b(?:different|new|another) day,? (?:different|new|another)"
    r" (?:drama|problem|dilemma|story|crisis|question)"
    r"|(?<=[.!] )now(?= (?:[\w'-]+ ){1,2}(?:is|'s) (?:the |my )?(?:problem|issue|question|dilemma|struggle"
    r"|hard part|tricky bit)\b)"
    # "made the garlic oil one and it slapped. now theres like 6 very brown bananas …".
    r"|(?<=[.!] )now(?= (?:there'?s|theres|i (?:have|got|need)|i'?ve got)\b)",
    re.I,
)
# Words that point into the set offered: with them, "actually" or "forget the fish" changes no
# topic ("ok actually she's vegetarian. the veggie one, what cheese?").
INTO_THE_SET = re.compile(
    r"\bthe (?:[\w'-]+ )?ones?\b|\bthe (?:other|others|remaining)\b|\bbetween the\b|\bwhat'?s left\b"
    # "the rest of us drink on fridays": people, not recipes.
    r"|\bthe rest\b(?! of (?:us|you|the (?:family|group|guests|table|week|day|time)))"
    r"|\b(?:any|all|each|either|both|none|which) of (?:them|those|these)\b|\bwhich ones?\b"
    r"|\b(?:everything|anything|something|stuff|things|dishes|recipes) (?:in|on|from)"
    r" (?:ur|your|the|that|this) (?:list|table|lot|bunch)\b|\b(?:of|from) (?:that|this) (?:lot|bunch)\b"
    r"|\b(?:first|second|third|last|1st|2nd|3rd) (?:one|two|three)\b"
    # "forget vegan. going back to ur list - number 3": back into the set.
    r"|\b(?:going |go |get |getting |coming )?back to (?:the|ur|your|that) \w+"
    r"|\bnumber (?:[1-9]|two|three|four)\b",
    re.I,
)
# "those four", "the 4 pasta things you listed": a set by its size (`count`).
SET_COUNT = re.compile(
    r"\b(?:the|those|these|all|ur|your|of)\s+(?P<count>two|three|four|five|six|[2-6])\b"
    r"(?!\s*(?:people|ppl|of us|guests|kids|adults|portions|servings|minutes?|mins?|hours?|hrs?|days?"
    r"|weeks?|times?))",
    re.I,
)
# "back to the curries", "the pasta ones": a set by what its recipes are (`what`).
SET_KIND = re.compile(
    r"\bback to (?:the|ur|your|those|these) (?P<what>[\w'-]+)"
    r"|\b(?:the|those|these|of the|ur|your) (?P<kind>[\w'-]+) (?:ones|things|dishes|recipes|options|ideas)\b"
    # "which one of those bakes": the list of that kind.
    r"|\b(?:those|these) (?P<noun>[a-z'-]+s)\b",
    re.I,
)
# Asking for more of the same kind: "what else?", "any others?", "none of those, other ideas?".
# "what else is there that doesnt need tomatoes": more, with a need of its own (`rest`).
# Asking for more of the same: "what else?", "any others?", "can u give me a couple more".
MORE_ASKED = (
    r"(?:what else|anything else|something else|any (?:others|more)|got any more"
    r"|(?:(?:can|could) (?:u|you) )?(?:show|give) me (?:some |a (?:couple|few)(?: of)? |two |2 )?"
    r"(?:more|others|other ones)"
    r"|a (?:couple|few) (?:more|others)|more (?:ideas|options|suggestions|recipes)"
    r"|(?:any )?other (?:ideas|options|suggestions|recipes))"
)
MORE_THAT = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+|well)\W+)*"
    + MORE_ASKED
    + r"(?:\s+(?:is there|have you got|do you have|you got|(?:could|can) (?:i|we) (?:make|do|cook)))?"
    r",?\s+(?P<rest>(?:that|with|without|for|but|which)\b[^?]*)\?*$",
    re.I,
)
MORE = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|hmm+|well|nah|no|none of (?:those|these|them)|not those)\W+)*"
    + MORE_ASKED
    # "what else could I make", "anything else I could serve?", "what else could go on the table".
    + r"(?:\s+(?:is there|have (?:you|u) got|do (?:you|u) have|(?:you|u) got"
    r"|(?:(?:could|can|should) )?(?:i|we) (?:could |can )?"
    r"(?:make|do|cook|serve|bake|have|put out|put on the table)|(?:could|can) go on the table))?"
    r"(?:\s+(?:please|pls|plz|then|too|as well))?\W*$",
    re.I,
)
# A set refused before a new request: "hmm, none of those. something with tofu?".
REFUSED_SET = re.compile(
    r"^(?:\w+\W+)?(?:none of (?:those|these|them)|not (?:those|these|them)"
    r"|not (?:really )?(?:feelin[g']?|into|loving|keen on) (?:any of )?(?:those|these|them))"
    r"(?:\s+(?:tbh|honestly|lol|tho|though|really))*\s*[.,;:!?—–-]+\s*",
    re.I,
)
# The set refused in a sentence of its own, before a new request: "… so she won't be up for any
# of that. what's a good gentle soup".
REFUSED_SET_SAID = re.compile(
    r"\b(?:won'?t|wont|can'?t|cant|not|isn'?t|isnt)\s+(?:be\s+)?"
    r"(?:up for|into|feeling|able to (?:eat|have|do))\s+any of (?:that|those|these|them|it)\b"
    r"[^.!?]*[.!?]+\s+",
    re.I,
)
ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
ORDINALS |= {"fifth": 4, "5th": 4, "last": -1, "final": -1, "middle": 1}
ORDINALS |= {"second to last": -2, "second-to-last": -2, "penultimate": -2}
ORDINALS |= {"second from the bottom": -2, "second from the end": -2, "second from last": -2}
# The longest first, so that "second to last" is not read as "second".
ORDINAL_WORDS = "|".join(sorted(ORDINALS, key=len, reverse=True))
COUNTS = {"two": 2, "three": 3, "2": 2, "3": 3}
# "number three is the move": a number in words ("number one" is praise as often as a pointer).
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
NOT_COUNTED = (
    "hour|time|day|week|night|minute|step|bit|thing|part|layer|batch|round|course|stage|year|month"
    "|weekend|meal|bite|slice|attempt|try|go|guest|person|couple|few"
)
ORDINAL = re.compile(
    # "the last hour before sunset" counts no recipe.
    # "used the last of it" is the last of a food.
    # "of these last ones" is the latest list, not its last item.
    # "molten in the middle" is a place, not the middle one.
    # "but first, christmas eve" and "first of all" order what is said.
    rf"\b(?<!these )(?<!those )(?<!\bbut )(?<!\bat )(?:the\s+)?(?!(?<=in the )middle|(?<=-)middle)"
    # "do they need to sit for days first?": before something else.
    rf"(?!first(?:ly|,| of all| off)\b|first\s*(?:[?.!]|$))(?P<which>{ORDINAL_WORDS})"
    rf"(?!\s+(?:{NOT_COUNTED})s?\b)"
    r"(?!\s+of (?:it|my|our|the)\b)"
    # "the second they walk in": the moment they do.
    r"(?!(?<=second)\s+(?:they|i|we|you|he|she|people|ppl|guests|everyone)\b)"
    rf"(?:\s+(?P<count>two|three|2|3))?"
    r"(?:\s+(?:one|recipe|option|dish|suggestion|row|item|entry|entries)s?)?\b"
    # "kid #2 has an egg allergy" counts a child, not a recipe.
    r"|(?:\b(?:number|option|no\.|nr\.?|num)|(?<!kid )(?<!child )(?<!son )(?<!daughter )(?<!guest )#)"
    rf"\s*(?P<number>[1-9]|{'|'.join(NUMBER_WORDS)})\b"
    r"|\boption\s+(?P<letter>[a-e])\b",
    re.I,
)
# Numbers of a numbered list said bare, opening the message: "2 and 4 look fun!!".
BARE_NUMBERS = re.compile(
    r"^\W*(?P<first>[1-9])(?:\s*(?:and|&|\+|,)\s*(?P<second>[1-9]))?\s+(?:look|sound|seem)s?\b", re.I
)
# Two ordinals together: "first and last one", "the 2nd and 3rd".
ORDINAL_PAIR = re.compile(
    rf"\b(?:the\s+)?(?P<first>{ORDINAL_WORDS})\s+(?:and|&|\+)\s+(?:the\s+)?(?P<second>{ORDINAL_WORDS})"
    r"(?:\s+(?:one|recipe|option|dish|suggestion|row|item|entry|entries)s?)?\b",
    re.I,
)
# "the one with chickpeas", "the one without meat".
ONE_WITH = re.compile(
    r"\bthe one (?P<how>with no|with|w/?|without|w/o|that (?:does ?n[o']?t|doesnt) have|that has no"
    r"|that has|that uses|that'?s|that is|which is)"
    r" (?:the |some |any |fully |totally |completely |actually )?(?P<what>[\w'-]+)",
    re.I,
)
# "the one that doesnt need baking", "the no-bake one", "the one where u dont have to deep
# fry": the recipes whose steps do not cook that way (`how`: the fact they lack).
NOT_MADE = re.compile(
    r"\bthe (?:one|recipe|dish)s? (?:that |which |where )?(?:you |u |i )?(?:said |mentioned )?"
    r"(?:does ?n[o']?t|dont|don't|do not|does not) (?:need|use|require|involve|go in|have)"
    r"(?: to)?(?: be)? (?:any |an? |the )?(?P<how>bak(?:e|ed|ing)|oven|(?:deep[- ]?)?fr(?:y|ied|ying))\b"
    r"(?: (?:it |them )?in (?:an? |the )?(?:[\w-]+ ){0,2}?(?:oil|oven|pan|fat))?"
    r"|\bthe no[- ](?P<no>bake) (?:one|recipe|dish)s?\b"
    r"|\bthe (?:one|recipe|dish)s? (?:without|w/o|with no) (?:an? |the )?(?P<without>oven)\b"
    # "the one that doesn't get cooked at all", "the no-cook one": by its data, no heat at all.
    r"|\bthe (?:one|recipe|dish)s? (?:that |which |you |u )?(?:does ?n[o']?t|dont|don't|do not|never)"
    r" (?:even )?(?:get |need to be |have to be )?(?P<raw>cook(?:ed)?)\b(?: at all\b)?"
    r"|\bthe no[- ](?P<nocook>cook) (?:one|recipe|dish)s?\b",
    re.I,
)
# "the one that makes 12 portions", "the one that serves 8".
SERVING = re.compile(
    r"\bthe (?:one|recipe|dish) (?:that |which )?(?:makes|serves|feeds|is for|does) (?P<count>\d+)"
    r"(?: (?:portions|servings|people|ppl))?\b",
    re.I,
)
# "the one that's just done in a frying pan", "the one you eat cold": a description said as
# a clause (`clause`), up to the next stop.
RELATIVE = re.compile(
    # "the one cooked in a cauldron for hours" says its clause without "that".
    r"\bthe (?:one|recipe|dish) (?:thats|that|which|where|you|u|we|i|(?=(?:\w+ed|made|done)\b))\b"
    # "… just potatoes onions and oil, no butter or milk anywhere": what it lacks, said after.
    # It ends at a stop, a dash, an emoji or a "but": "… comes with applesauce 😂 but our student
    # doesn't eat pork" says nothing more of the dish.
    r"(?P<clause>(?:(?! - |\s+but\b)[^.?!,;:()—–\U0001F000-\U0001FAFF])*"
    r"(?:,\s*(?:no|without|not|nothing)\b(?:(?! - |\s+but\b)[^.?!,;:()—–\U0001F000-\U0001FAFF])*)?)",
    re.I,
)
# The words of a description up to the next stop: "white beans and greens tho".
RELATIVE_TAIL = re.compile(r"(?:(?! - )[^.?!,;:()—–])*")
# A request of its own after a remark: "these are good but … anything with beans in?".
ASKED_ANEW = re.compile(r"(?:anything|something|got (?:any|an?))\b", re.I)
# Another dish than those offered: "got a spanish sweet one?", "something with potato".
NEW_ONE = re.compile(r"\b(?:an?|any|some)\s+(?:[\w'-]+\s+){0,3}ones?\b|\b(?:something|anything)\b", re.I)
# A new request in place of the set: "these look nice but … anything with tofu instead?".
INSTEAD = re.compile(
    r"\b(?:anything|something|any recipes?|any ideas?|what can (?:i|we) (?:do|make|cook))\b"
    r"[^.?!]*\binstead\b",
    re.I,
)
# "anything with rice in it?": the dish asked for, not one offered.
FOOD_IN_IT = re.compile(r"\b(?:with|w|have|has|got|contains?)\s+(?:[\w-]+\s+){1,4}?in it\b", re.I)
# "what about ones with fruit in them?": the dishes asked for.
FOOD_IN_THEM = re.compile(
    r"\b(?:ones|something|anything|any) (?:with|w)\s+(?:[\w-]+\s+){1,4}?in them\b", re.I
)
# "the noodle one", "the French one", "the quicker one", and "the soup", "the risotto".
# A word of a description: "the quickest and which one" describes nothing.
_DESCRIBING = r"(?!(?:and|or|which|what|how|is|are|but)\b)[\w'-]+"
DESCRIBED = re.compile(
    rf"\bthe\s+(?P<what>(?:{_DESCRIBING}\s+){{0,2}}?{_DESCRIBING}?(?=\s+(?:one|recipe|dish)s?\b)"
    rf"|(?:{_DESCRIBING}\s+){{0,2}}?{_DESCRIBING}?)"
    r"(?:\s+(?:one|recipe|dish)s?)?\b(?=[\s?.!,;:]|$)",
    re.I,
)
# "the brazilian stew you mentioned": a description by what the assistant said.
TOLD_DESCRIBED = re.compile(
    # One dish: "the sauces you mentioned" and "the chicken ones" are the list (SET_KIND).
    rf"\bthe\s+(?P<what>(?:{_DESCRIBING}\s+){{0,2}}{_DESCRIBING}(?<!s))"
    r"\s+(?:that\s+)?(?:you|u)(?:'ve)?\s+(?:mentioned|said|suggested|recommended|described)\b",
    re.I,
)
# "whichevers quicker of the two": the one a time tells apart.
WHICHEVER = re.compile(r"\bwhichever(?:'?s| is| one is)?\s+[\w-]+(?: of the (?:two|three|four))?", re.I)
# A description that is a diet: "the vegan one".
DIET = re.compile(r"vegan|vegetarian|veggie|meat[- ]?free|meatless|(?:gluten|dairy|nut|egg)[- ]?free", re.I)
# "quicker one then", "vegan one pls": a description without its "the", opening the message.
BARE_ONE = re.compile(
    r"^(?:(?:ok(?:ay)?|so|fine|yeah|then|hmm+|and)\W+)*(?P<what>[\w'-]+) one\b(?!\s+of\b)", re.I
)
# Words after which "the asian" of "the asian store" would be a description: none but these
# go on a sentence after a description said without "one" ("the soup, is it vegan?").
AFTER_DESCRIPTION = (
    "is|are|was|were|sounds|looks|seems|then|pls|please|for|with|to|and|or|but|i|you|it|that|which"
    "|one|recipe|dish|can|could|would|will|does|do|did|has|have|had|needs|takes"
)
# Nouns after which "this" and "that" point at no recipe: "in this house", "that week".
NOT_POINTED = (
    "case|way|sense|point|time|house|home|household|kitchen|family|weekend|week|month|year"
    "|morning|evening|afternoon|summer|winter|season|christmas|holiday|party"
    # "for this heatwave", "that trip": a noun after it, not a recipe.
    "|heatwave|heat|weather|occasion|trip|event|dinner|lunch|breakfast|brunch|meal|crowd|group"
    # "stretch to that many", "in that kinda time frame": a number or a measure, not a recipe.
    "|many|much|kinda|kind|sort|type|timeframe|range|vein|list|same|lot|bunch|selection|lineup|line-up"
    # "its freezing in this flat": where the user is.
    "|flat|apartment|apt|place|town|city|country|area|office|dorm"
)
# Words after which "its" is written for "it's": "its 5 now", "its a birthday".
IT_IS = (
    "a|an|the|not|been|so|too|just|already|now|ok|okay|fine|late|early|getting|going|gonna|my|our|her|his|their"
    "|only|still|really|very|quite|like|cold|hot|raining|snowing|for|about|me|us|time|over"
    "|fre+zing|boiling|roasting|warm|sunny|meant|supposed|literally|basically"
    "|absolutely|super|pretty|bloody|actually|sweltering|humid|pouring|chilly|autumn|winter|spring|summer"
    "|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|tomorrow"
)
# Words after which "that" may open a clause: "will that keep", "and that needs an oven?".
CLAUSE_OPENERS = "|".join(
    rf"(?<=\b{word} )"
    for word in ["and", "but", "so", "if", "will", "would", "can", "could", "does", "did", "should", "then"]
)
FOCUS = re.compile(
    # "how long does it take to make Greek yogurt" points at nothing: its object is named.
    rf"\b(?P<pronoun>(?:that|this) (?:one|dish|recipe)|its(?! (?:\d|(?:{IT_IS})\b))"
    # "haha knew it", "ok got it.": the user was right, or follows; no recipe is meant.
    r"|(?<!\bknew )(?!(?<=\bgot )it\s*[.,!—–-])"
    # "it's in december", "it's tomorrow", "it's like 30 degrees", "it's a 2h drive": the
    # event, the weather or the day, not a recipe.
    r"it(?! takes? to (?:make|cook|bake|do) (?!it\b|th)\w)(?! all (?:week|day|night|weekend)\b)"
    # "dont care if it takes all afternoon": the cooking, however long.
    r"(?! takes? (?:all|most of the|the whole) (?:day|afternoon|morning|evening|night|weekend)\b)"
    # "it has to be something i can pack": what is asked for, not a recipe.
    r"(?! (?:has|needs|got) to be (?:something|anything|a|an|one)\b)"
    # "it's absolutely freezing here".
    r"(?!['’]s (?:(?:so|absolutely|really|super|pretty|bloody|very|way too|too|actually) )?"
    r"(?:in|on|at|next|this|tomorrow|tonight|going|gonna|getting|raining|snowing|fre+zing"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening|already|only|nearly|almost"
    r"|boiling|roasting|sweltering|warm|warmer|colder|hotter|cooler|nicer|sunny|humid|late|early|meant"
    r"|supposed|just me|all|my|our|her|his"
    r"|autumn|fall|winter|spring|summer"
    r"|their|(?:a )?(?:date|game|movie) night|a (?:birthday|bday|party|surprise|school night))(?!\w)"
    r"|['’]s (?:like |a )?\d)"
    r"(?! is (?:(?:so|absolutely|really|super|pretty|bloody|very|actually) )?"
    r"(?:fre+zing|boiling|roasting|sweltering|raining|snowing|pouring|chilly|humid|sunny)\b))\b"
    r"|(?:(?<=\bis )|(?<=\bdoes )|(?<=\bmake )|(?<=\bcook )|(?<=\bfreeze )|(?<=\bprepare )"
    r"|(?<=\babout )|(?<=\bwith )|(?<=\bfor )|(?<=\bserve )|(?<=\btry )|(?<=\bbake )|(?<=\bdo )"
    r"|(?<=\bin )|(?<=\bof )|(?<=\bto )|(?<=\bon )|(?<=\bmaking )|(?<=\bcooking )|(?<=\bbaking )"
    r"|(?<=\beat )|(?<=\beating )|(?<=\bserving )|(?<=\bpair )|(?<=\bstore )|(?<=\breheat )"
    r"|(?<=\bprep )|(?<=\bdouble )|(?<=\btriple )|(?<=\bhalve )|(?<=\bscale )|(?<=\bbring )|(?<=\bpack ))"
    # "what could i do that isn't too fiddly": a relative "that", no recipe.
    rf"(?<!none of )(?P<bare>this|that)\b(?! \w+ (?:is|are)\b)(?! (?:{NOT_POINTED})\b)"
    # "my grandma used to make this cold summer soup": a dish of its own ("this soup" is the
    # one in focus).
    r"(?! (?:[\w-]+ ){1,3}(?:soup|stew|cake|bread|salad|pie|curry|sauce|dough|dish|casserole|tart|roast)s?\b)"
    r"(?! (?:isn'?t|aren'?t|doesn'?t|won'?t|wouldn'?t|is not|does not)\b)"
    # "what main could i make that'll impress her", "what could i bake that he can eat": a
    # relative "that".
    r"(?!['’](?:ll|d)\b)"
    r"(?! (?:he|she|they|we|i|you|everyone|everybody|the kids|my \w+) (?:can|could|will|would|might|likes?"
    r"|loves?|eats?|wants?)\b)"
    # "that needs" opens a clause, but "mushrooms that need using up" is a relative one.
    rf"|(?:^|(?<=[.,;:!?] )|{CLAUSE_OPENERS})"
    r"(?P<subject>this|that)(?= (?:be|get|go|keep|work|take|need|serve|freeze|reheat)s?\b)"
    r"|^(?P<lead>this|that)(?= is\b| takes?\b| needs?\b| serves?\b|'s\b)",
    re.I,
)
# A question of swapping an ingredient: "could I use turkey instead?", "sub the cream?".
SWAP = re.compile(
    r"\b(?:use|using|swap|substitute|sub|replace|put)\b.*\binstead\b|\b(?:swap|substitute|sub)\b.*\b(?:for|with)\b"
    r"|\bwhat (?:can|could|should|do) (?:i|we) do instead of\b"
    r"|\b(?:can|could) (?:i|we) (?:leave out|omit|skip|do without|leave off)\b"
    # "can i use greek yogurt if i cant find kefir?", "skip all that and just use store bought paste?".
    r"|\b(?:use|using)\b[^.?!]*\b(?:if|since|as|cause|because) (?:i|we)"
    r" (?:can'?t|cannot|don'?t|dont) (?:find|get|have)\b"
    r"|\bskip\b[^.?!]*\b(?:and|&) (?:just )?use\b"
    # "would frozen shrimp (and their shells) work the same?".
    r"|\b(?:would|will|could|does|do)\b[^.?!]*\bwork (?:the same|just as well|as well|instead)\b",
    re.I,
)
# A step of a recipe, asked by its number: "what's step 3 again?", "the last step".
STEP_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
STEP_NUMBERS |= {"nine": 9, "ten": 10, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
STEP_NUMBERS |= {"sixth": 6, "last": -1, "final": -1}
STEP_ASKED = re.compile(
    rf"\bstep\s+(?P<n>\d{{1,2}}|{'|'.join(k for k in STEP_NUMBERS if k.isalpha())})\b"
    rf"|\bthe (?P<nth>{'|'.join(STEP_NUMBERS)}) step\b",
    re.I,
)
# Whether a recipe suits someone the user cooks for: "is it safe for him?", "can she eat it?".
SUITS_SOMEONE = re.compile(
    r"\b(?:safe|ok|okay|fine|alright|suitable)\s+for\s+(?:him|her|them|my\s+\w+|the\s+kids?)\b"
    r"|\bcan\s+(?:he|she|they)\s+(?:eat|have)\b",
    re.I,
)
# A side dish asked for with no dish named: "what would go well on the side?", "any sides?".
SIDE_ASKED = re.compile(
    r"\b(?:on|for) the side\b|\b(?:as|for) an? side(?: dish)?\b|\bside dish(?:es)?\b"
    r"|\bany (?:[\w-]+ )?sides\b",
    re.I,
)
# Where a food is lacked: "no wine here", "no eggs in the house", "no ginger left".
_LACKED_WHERE = r"(?:here|left|in the (?:house|fridge|cupboard|pantry)|at home|on hand)\b"
# A food the user lacks: "i don't have garam masala, is that a problem?", "we're out of eggs",
# "no wine here, can i skip it?".
LACKING = re.compile(
    r"\b(?:(?:i|we)\s+(?:don'?t|dont|do not|didn'?t|didnt)\s+have|(?:all\s+)?out of|ran out of"
    r"|(?:i|we) have no|there'?s no|theres no|there is no"
    rf"|no(?=\s+[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?\s+{_LACKED_WHERE}))\s+(?:any\s+|an?\s+|the\s+)?"
    rf"(?P<food>[a-z][\w'-]*(?:\s+(?!{_LACKED_WHERE})[a-z][\w'-]*)?)",
    re.I,
)
# What is done to a food the user lacks: "no wine in the house, can i just leave it out?".
LACKED_IT = re.compile(
    r"\b(?:leave|leaving|skip|skipping|omit|drop|sub|swap|replace|substitute|without)\s+(?:\w+\s+)?$", re.I
)
# A part of a recipe: "the meringue bit", "the dough part", "the frosting step".
PART_OF = re.compile(r"\bthe (?:[\w'-]+ )?(?P<what>[\w'-]+) (?:bit|part|step|stage|layer)\b", re.I)
# A fragment that asks about the recipe in focus: "for 2 people?", "without eggs?".
ABOUT_IT = re.compile(r"^(?:(?:and|or|but|ok|so)\W+)?(?:for|without|in|on|using|instead of|minus)\b", re.I)
# The leftovers of the dish in view, asked how they keep: "can I freeze leftovers?", "how long do
# the leftovers keep?"; not "what can I make with leftovers?", a new request.
LEFTOVERS = re.compile(r"\b(?:leftovers|left-overs|what(?:'s| is) left(?: over)?)", re.I)
KEPT_HOW = re.compile(r"\b(?:freez\w*|keeps?|last|store|reheat\w*|fridge|microwave)\b", re.I)
# What a recipe's own data or method says, asked with no pointer to the dish in view: "do I
# need any special equipment?", "how many calories?", "what temp?", "any tips?"; the clause
# ends there, so "any tips for a quick dinner?" asks of something else.
DETAIL_ASKED = re.compile(
    r"\b(?:equipment|tools?|gadgets?|utensils?|calories|kcal|nutrition(?:al)?(?: info\w*)?|macros"
    r"|(?:oven\s+)?temp(?:erature)?|tips?|shopping list|grocery list)\b"
    r"(?P<rest>(?:(?!\b(?:for|with|about|on|in)\b)[^.?!])*)(?=[.?!]|$)",
    re.I,
)
# Scaling the recipe in focus, said with no pointer: "so I just double everything?".
SCALING = re.compile(
    r"\b(?:double|halve|triple|scale(?: it)?(?: up| down)?)"
    r"(?:\s+(?:everything|it all|all of it|the recipe|the amounts|the quantities|the ingredients))?\W*$",
    re.I,
)
# Words of a clause: "in that case, which is quicker?" is no fragment.
CLAUSE_WORDS = re.compile(r"\b(?:which|what|how|who|is|are|do|does|can|could|should|would|will)\b", re.I)
# Kitchen appliances: "it" and "those" may mean one just said.
APPLIANCES = (
    "air ?fryer|slow ?cooker|crock ?pot|instant ?pot|pressure cooker|rice cooker|dutch oven|wok|grill"
    "|bbq|smoker|dehydrator|bread machine|blender|food processor|waffle iron|sous vide"
)
SET_WORDS = re.compile(
    # "either serve it cold or reheat it" points at nothing.
    # "anything along those lines" points at no recipe.
    # "here both days" counts days, not recipes.
    # "one of those air fryers everyone's obsessed with" is an appliance.
    rf"\b(those(?! lines)(?!\s+(?:{APPLIANCES})s?\b)|these|them|they|either(?!\s+[\w' ]{{1,40}}?\bor\b)"
    # "where we both get stuck in": people.
    r"|(?<!\bwe )(?<!\bus )(?<!\byou )(?<!\bthey )both(?!\s+(?:days|nights|weekends|meals|times))"
    r"|all of them|all three"
    # "out of that lot whats the least faff".
    r"|(?:that|this|the whole) (?:lot|bunch|selection|line-?up)"
    r"|the others?|the rest|each of them"
    r"|the (?:two|three|four|five|six)(?! of (?:us|you|them))|which ones?|wh?ich of|any of|thse"
    # "any that are nut free?": among those.
    r"|any (?:that|which) (?:are|is) (?:[\w-]+[- ]free|vegan|vegetarian|veggie|mild|spicy|kid[- ]friendly)\b"
    r"|(?:everything|anything|something) (?:in|on|from) (?:ur|your|the|that|this) (?:list|table|lot|bunch)"
    r"|which (?:is|would|has|takes|needs|serves|do|does|should|can|could|will))\b",
    re.I,
)
# A question about the whole set: "do any of them use leftover rice?", "do all of these need a wok?".
SET_ASKED = re.compile(
    r"\b(?:any|all|each|which|either|both) of (?:them|those|these)\b|\ball (?:of )?(?:these|those)\b"
    r"|^\W*(?:[\w']+\W+){0,4}?(?:do|are|can|will|would|could) (?:they|these|those)\b",
    re.I,
)
# A question that asks to choose one: its answer names the chosen one first.
CHOICE = re.compile(r"\bwhich\b(?! (?:recipes|dishes|ones)\b)", re.I)
SET_LEAD = re.compile(
    r"^(?:(?:so|ok(?:ay)?|and|well|then)[,\s]+)*(?:from|of|among|out of|between) (?:(?:those|these)"
    r"(?: (?:last|latest|new) ones)?|them|the (?:three|two|four))\s*[,:—–-]?\s*",
    re.I,
)
# Who does not eat something, said before it: "i don't like", "my friend doesnt eat".
DISLIKE = (
    rf"(?:(?:my|our|his|her|their) )?(?:one of (?:them|us|our \w+|my \w+)|i|[a-z]+) (?:{NEGATED})"
    r" (?:like|want|fancy|eat|have)"
)
EXCLUDED = re.compile(
    r"(?:^|[\s,;.])(?P<clause>(?:(?:i'm |im )?not a fan of|not feeling|not in the mood for|not"
    r"|apart from|except(?: for)?|other than"
    r"|besides|but not|minus|skip(?:ping)?|ditch|drop|scratch|scrap|nix|forget|ignoring|ignore"
    r"|pass(?:ing)? on"
    r"|not (?:doing|making|gonna (?:do|make)|going to (?:do|make))"
    r"|cross off|rule out"
    # "gonna save the porto sandwich for when im there".
    r"|save(?= (?:the )?[\w'-]+(?: [\w'-]+)? for (?:when|later|another|next|some|the))"
    # "leave in the oven", "leave it to rest" set nothing aside.
    r"|(?:i'?ll |let'?s )?leave(?! out)(?!\s+(?:(?:it|them)\s+)?(?:in|on|to|for|overnight|alone)\b)"
    r"|anything but|everything but|leave out|leaving out|without"
    r"|(?:(?:someone|somebody|[a-z]+) (?:else )?(?:is|are|'s) )?(?:already |just )?"
    # "can any of them be made the night before" sets nothing aside.
    r"(?<!\bbe )(?<!\bbeen )(?<!\bbeing )(?:had|did|made|cooked|bringing|brought)"
    # "i don't like", "my friend doesnt eat": a dislike, which leaves out every recipe with it.
    # "thats a no from me": a verdict, said by RULED_OUT.
    rf"|{DISLIKE}|(?<!\ba )(?<!\bhard )(?<!\bbig )no)\s+(?:the\s+)?(?!an?\b)"
    r"(?!(?:night|day|morning|evening|week) before\b)"
    # "i'm not waiting 2 hrs", "not happening": what the user will not do, no recipe.
    r"(?!(?<=\bnot\s)(?:waiting|happening|spending|going|turning|standing|buying|hunting|getting|trying"
    r"|paying|driving|looking|planning)\b)"
    r"(?P<what>[\w'-]+?(?:\s+(?!(?:so|which|what|how|is|are|do|does|can|could|would|should|pls|please|for"
    r"|thanks|last|yesterday|already|haha|lol)\b)[\w'-]+)?)"
    r"(?:\s+one)?)(?:\s+(?:pls|please|thanks|last night|yesterday|already|lately|for now))*"
    # What follows may be anything ("not the soup its like 32 degrees"): the resolver tries
    # the first word alone when two name nothing.
    r"\s*(?=[;,.!?…—–(]|\s-\s|$|\s+\w)",
    re.I,
)
# The word before a "no" or "without" that asks for a need, not sets a recipe aside: "which
# ones have no dairy", "a strict no nuts policy", "something without gluten".
NEEDS_NO = re.compile(
    r"\b(?:have|has|got|with|contain|contains|strict|is|are|be|something|anything|ones?|recipes?|dish(?:es)?"
    # "any way to make those without the booze": how to make them.
    r"|make|do|done|made|cook|those|them|these|it)\s*$",
    re.I,
)
# A food hated, said as a liking: "she hates anchovies", "he can't stand olives".
HATED = re.compile(
    r"\b(?:hates?|can'?t stand|cannot stand|gags? at|is allergic to)\s+"
    r"(?!(?:anything|everything|something|it|that|this|the|a|an)\b)(?P<food>[a-z][\w-]+)",
    re.I,
)
# A dislike just before a pointer: "instead of spinach, they hate it" (the food, not the dish).
DISLIKED_BEFORE = re.compile(
    rf"\b(?:hate|hates|hated|can'?t stand|cannot stand|dislikes?|(?:{NEGATED}) (?:like|eat))\s+$", re.I
)
# "skip that one" after "not a fan of aubergine": the pointer is what the message disliked.
POINTER = frozenset({"that", "it", "this", "them", "those"})
# "banana's out", "the soup is out": a recipe set aside, said after it; `firmly` by itself
# ("grits are a hard pass … outta the pasta ones"), without "the others" beside it.
RULED_OUT = re.compile(
    # "… fishy so that one's a hard no": no "so" or "and" in what is set aside.
    r"\b(?P<clause>(?:the\s+)?(?!(?:so|and|but|then|because|cos|as|or|yeah|yea|yep|ok|okay|well|nah|hmm)\b)"
    r"(?P<what>(?:[\w-]+\s+){0,2}?[\w-]+?)(?:'s|’s|(?<=\bthat)s| is| are)\s+"
    # "the brazilian one's a no", "the slow cooker one is off the table", "soup is sooo not
    # happening".
    r"(?:(?:\w+\s+)?out(?:ta)?\b(?!\s+of\b)"
    r"|(?:(?:so+|really|totally|just|def(?:initely)?)\s+)?(?P<firmly>off the table"
    r"|a (?:hard |big |definite )?no(?:[- ]go)?\b(?![- ]brainer)"
    r"|a (?:hard )?pass\b|out of the question|not happening)"
    # "the tunisian one is tempting but … the others then".
    r"|(?:very |really |so )?(?:tempting|nice|lovely|good|great|fun) but\b"
    # "the greek ones are too much for me honestly … any of the rest nut free?"
    r"|(?:way |just |a bit |a little )?too (?:much|fiddly|long|heavy|rich|involved|complicated|fancy)\b)"
    # "thats a no from me".
    r"(?:\s+(?:from|for)\s+(?:me|us|him|her|them)\b)?)",
    re.I,
)
# "the ice cube tray one sounds like a whole project, pass": a verdict after a description.
PASSED_ON = re.compile(
    r"\b(?P<clause>the\s+(?P<what>(?:[\w'-]+\s+){0,4}?ones?)\s+(?:sounds|looks|seems)\s+[^.!?,]{1,40},"
    r"\s*(?:so\s+)?(?:i'?ll\s+)?(?:pass|nope|nah)\b)",
    re.I,
)
# "leaving that out", "taking the tiramisu out": a recipe set aside, said around it.
# "leaving the brazilian chicken one aside".
TAKEN_OUT = re.compile(
    r"\b(?P<clause>(?:leav(?:e|ing|in)|tak(?:e|ing|in)|put(?:ting)?|set(?:ting)?)"
    r" (?P<what>that(?: one)?|it|this(?: one)?|the (?:[\w'-]+ ){0,2}?[\w'-]+(?: ones?)?)"
    r" (?:out|aside))\b(?! of\b)",
    re.I,
)
# Words that set a recipe aside by themselves; "not the soup" needs "the others" beside it.
EXCLUSIVE = re.compile(r"^(?:apart from|except|other than|besides|anything but|everything but|minus)\b", re.I)
OTHERS = re.compile(
    r"\b(?:(?:out of|of|from|among|between) )?"
    r"(?:the (?:othe?r|remaining)(?: (?:two|three|four|[2-9]|ones?))?|the others|the rest"
    # "from other two", "between the othr 2"
    r"|(?<=(?:of|om|en) )othe?r (?:two|three|four|[2-9])"
    r"|(?:what|whatever)'?s left|what is left"
    r"|everything else(?: (?:you|u) (?:suggested|listed|said|mentioned))?)\b",
    re.I,
)
ELLIPSIS_LEAD = re.compile(
    r"^(?:(?:and|or|but|ok(?:ay)?|k|kk|so|well|hmm+|mm+|meh|oo+h|oh|then|also|maybe|perhaps|got|you got"
    r"|have you got|do you have|cool|nice|great|perfect|lovely|awesome|thanks|thank you|thx|ty"
    r"|cheers|yes|yeah|sure|right|alright|def|defo|deffo|definitely|omg|lol|haha|pls|please|yum|yummy"
    r"|will do|btw|by the way|amazing|brilliant|wonderful|fab|excellent|noted|got it|fair enough|need|gimme)"
    r"\b[,!.\s–—-]*)+",
    re.I,
)
# A request for recipes said as a want, not as a fragment: "we're more in the mood for fish",
# "the kids want pasta", "got chickpeas to use up, anything with those?".
WANTING = re.compile(
    r"\b(?:mood for|craving|fancy|feel like|rather (?:have|do|eat|make)|prefer|wants?|to use up"
    # "im more of a pork person tho".
    r"|more of an? [\w-]+ (?:person|fan|guy|girl|household|family))\b",
    re.I,
)
# A request said as a question of what there is: "what've you got", "what can she have".
WHAT_THERE_IS = re.compile(
    r"\bwhat(?:'ve| have|'?d| would| do| can) (?:you|u) (?:got|have|suggest|recommend)\b"
    r"|\bwhat (?:can|could) (?:she|he|they|we|i) (?:have|eat|make)\s*\W*$"
    # "she can't have any dairy at all, what would work for her".
    r"|\bwhat (?:would|could|will|can|might) (?:work|do) for (?:her|him|them|us|me|everyone)\s*\W*$"
    # "what can i do with potatoes instead": a food to cook.
    r"|\bwhat (?:can|could|should) (?:i|we) (?:do|make|cook) with (?!(?:it|them|that|this|those|these)\b)",
    re.I,
)
REQUEST = re.compile(
    rf"\b(?:ideas?|options?|suggestions?|something|anything|recipes|dishes)\b|{WANTING.pattern}"
    rf"|{WHAT_THERE_IS.pattern}",
    re.I,
)
# Chat shorthand, written out where the rules read words: "smth sweet".
SHORTHAND = {"smth": "something", "sth": "something", "somethin": "something", "anythin": "anything"}
SHORTHAND |= {
    "brekkie": "breakfast",
    "brekky": "breakfast",
    "pud": "dessert",
    "puds": "desserts",
    "abt": "about",
    "w/o": "without",
    "w/": "with",
}
ELLIPTICAL = re.compile(
    r"^(?:what about|how about|any(?:thing)?|something|some|ones?|with|without|a|an|only|no)\b", re.I
)
FULL_QUESTION = re.compile(
    r"^(?:how|what|which|who|where|when|why|can|could|do|does|did|is|are|should|would|will|tell|show"
    r"|give|find|i|i'm|i'd|my|we|let's|please)\b",
    re.I,
)
SETTLING = re.compile(r"^\s*(?:ok(?:ay)?|fine|alright|all right)\b|\b(?:then|instead)\W*$", re.I)
ADDITIVE = re.compile(r"^(?:and|also|or|what about|how about|any)\b", re.I)
HEAD = re.compile(r"\b(?:ones?|something|anything|recipes?|dishes|dish|ideas?|options?|stuff)\b", re.I)

DISHES = frozenset(
    [
        "soup",
        "soups",
        "curry",
        "curries",
        "pasta",
        "dessert",
        "desserts",
        "salad",
        "salads",
        "stew",
        "stews",
        "bread",
        "breads",
        "cake",
        "cakes",
        "cookies",
        "biscuits",
        "breakfast",
        "snack",
        "snacks",
        "drink",
        "drinks",
        "sauce",
        "sauces",
        "pizza",
        "pie",
        "pies",
        "pancakes",
        "risotto",
        "noodles",
        "sandwich",
        "sandwiches",
        "casserole",
        "side",
        "sides",
        "starter",
        "starters",
        "stir-fry",
    ]
)
DIET_WORDS = {
    "vegetarian": "vegetarian",
    "vegan": "vegan",
    "gluten_free": "gluten-free",
    "dairy_free": "dairy-free",
}
# Needs the filters do not read, which a request keeps as its diets do: "nut free" for a
# school bake sale, "keto", "non-alcoholic" drinks for a kid's party.
NEEDS = {
    "nut-free": re.compile(r"\b(?:nut[- ]?free|no nuts|nut allerg(?:y|ic|ies)|allergic to nuts)\b", re.I),
    "keto": re.compile(
        r"\b(?:keto|low[- ]carbs?|(?:off|cutting(?: out| down on)?|no|avoiding) carbs)\b", re.I
    ),
    "pescatarian": re.compile(r"\bpesc[ae]tarians?\b", re.I),
    "diabetic": re.compile(r"\bdiabet(?:ic|es)\b|\blow[- ]sugar\b|\bsugar[- ]free\b", re.I),
    "non-alcoholic": re.compile(rf"{NO_ALCOHOL.pattern}|\bno (?:alcohol|booze)\b|\bteetotal\b", re.I),
    "high-protein": re.compile(
        r"\bhigh[- ]protein\b|\bprotein[- ](?:packed|rich|heavy)\b|\b(?:lots of|plenty of|more) protein\b",
        re.I,
    ),
}


def not_needed(need: str, text: str) -> bool:
    """Whether `text` says that `need` does not apply: "she's not coeliac so normal pastry is
    fine". A need's words are those that ask for it, as a diet's are the reader's."""
    flag = next((f for f, word in DIET_WORDS.items() if word == need), None)
    words = DIET_PHRASES[flag] if flag is not None else NEEDS.get(need)
    return words is not None and any(said_not_to_apply(text, m) for m in words.finditer(text))


# A taste asked for: "properly spicy, like makes-you-sweat", "chilli heads", but not "not too spicy".
SPICY = re.compile(
    r"(?<!not )(?<!too )(?<!nothing )(?<!isn't )(?<!isnt )\b(?:spicy|spicier|fiery|chill?i ?heads?"
    r"|makes?[- ](?:me|you)[- ]sweat|(?:with|proper|some|real|a) (?:heat|kick))\b",
    re.I,
)
MILD = re.compile(
    r"\b(?:mild|not (?:too |very )?spicy|no (?:heat|spice)|can'?t (?:handle|take) (?:heat|spice))\b", re.I
)
# Ingredients that belong to a word a cook uses for them ("I don't eat pork").
FAMILIES = {
    key(family): {key(w) for w in members.split()}
    for family, members in {
        "pork": "bacon ham guanciale pancetta prosciutto chorizo sausage sausages lard pork speck salami",
        "beef": "beef steak mince veal brisket",
        "meat": "beef pork chicken lamb mutton veal bacon ham sausage turkey duck rabbit venison mince",
        "fish": "fish salmon tuna cod trout mackerel anchovies anchovy sardines haddock",
        "seafood": "shrimp prawns crab lobster mussels clams squid octopus scallops",
        "dairy": "milk cream butter cheese yogurt yoghurt",
        "nuts": "almonds walnuts peanuts cashews hazelnuts pecans pistachios",
    }.items()
}
MEATY = frozenset({"meat", "meaty", "meatier", "meatiest"})
QUICK = frozenset(
    {"quick", "quicker", "quickest", "fast", "faster", "fastest", "shorter", "shortest", "easier"}
)
SLOW = frozenset({"slow", "slower", "slowest", "longer", "longest"})
# Main ingredients a request may be built around ("fish tonight", "using dried lentils"), and
# the dishes they carry into ("any soups?" → fish soups). Meats and fish: a request for one is
# no vegetarian request.
MEATS = frozenset(
    ["chicken", "beef", "pork", "lamb", "fish", "salmon", "shrimp", "prawns", "seafood", "turkey", "sausage"]
)
MAINS = MEATS | {"tofu", "lentils", "chickpeas", "beans", "eggs", "mushrooms", "paneer", "halloumi"}
SAVOURY = frozenset(
    [
        *("soup", "soups", "curry", "curries", "pasta", "salad", "salads", "stew", "stews", "pie", "pies"),
        *("risotto", "noodles", "sandwich", "sandwiches", "casserole", "stir-fry", "pizza"),
    ]
)

# A meal of the day: a request for one is no request for the course asked before.
MEAL = re.compile(
    r"\b(?:breakfast|brekkie|brunch|lunch|dinner|supper|tea ?time|starter|appeti[sz]er|main course|nibbles"
    r"|snacks?|canap[eé]s|finger food)\b",
    re.I,
)
# The meal a request is for, said just before its head ("breakfast ideas").
MEAL_BEFORE = re.compile(
    r"\b(?:for\s+)?(?P<meal>breakfast|brunch|lunch|dinner|supper|dessert|snack|party|picnic|weeknight),?\s+$",
    re.I,
)
SWEET = re.compile(r"\b(?:something sweet|sweet (?:for after|treat)|for afters?\b|sweet tooth)", re.I)
# "a tin of chickpeas to use up, anything with those?": the pointer is the food just said.
FOOD_POINTER = re.compile(
    # "each of those", "any of them" count the set, whatever food the message names.
    r"\b(?P<food>[a-z]+s)\b[^?.!]*?\b(?:with|w|use|using|for|on|over|into"
    r"|(?<!each )(?<!any )(?<!all )(?<!which )(?<!one )(?<!none )(?<!some )(?<!both )of)"
    r"\s+(?:those|them|these)\b"
    # "smth w mushrooms? my dad loves them": liking a food just named, in the next sentence too.
    r"|\b(?P<liked>[a-z]+s)\b[^?.!]*?(?:[?.!]+\s+[^?.!]*?)?"
    r"\b(?:loves?|likes?|adores?|hates?|prefers?) (?:them|those)\b"
    # "stuff with zucchini, i have like 4 of them going soft": how many of a food the user has.
    # "every time i make crepes they rip", "pickled red onions … how do you make those".
    r"|\b(?P<made>[a-z]+s)\b[^?.!]*?\b(?:make|making|cook|bake|flip) (?:those|them|these)\b"
    r"|\b(?:make|making|cook|bake)\s+(?P<making>[a-z]+s)\b[^?.!]*?\bthey\b"
    # "my kids hate mushrooms, can i skip them?": the food, left out.
    r"|\b(?:hates?|dislikes?|can'?t stand|(?:don'?t|doesn'?t) like|allergic to)\s+(?P<hated>[a-z]+s)\b"
    r"[^?.!]*?(?:[?.!]+\s+[^?.!]*?)?"
    r"\b(?:skip|leave out|leave|omit|replace|swap|sub|remove|without|pick out) (?:them|those)\b"
    # "she does love chickpeas tho like she puts them in everything".
    r"|\b(?:loves?|likes?|adores?)\s+(?P<loved>[a-z]+s)\b[^?.!]*?\b(?:them|those)\b"
    # "a huge box of mushrooms i need to use up before they go slimy".
    r"|\b(?P<spoiling>[a-z]+s)\b[^?.!]*?\b(?:before|till|until) they\b"
    r"|\b(?:have|got|bought)\s+(?:like\s+)?"
    r"(?P<count>\d+|two|three|four|five|six|a few|a couple|a bunch|loads|lots|half)"
    r" of (?:them|those|these)\b",
    re.I,
)

# A question about recipes already offered, not a request: "is it vegetarian?", "is the pink
# one vegetarian?", "does that one need an oven?".
ASKS_ABOUT = re.compile(rf"{FOCUS.pattern}|^\s*(?:is|are|does)\b|\bthe\s+[\w'-]+\s+ones?\b", re.I)


# "bought an air fryer, what's worth making in it": the "it" of an appliance just said.
APPLIANCE = re.compile(rf"\b(?:{APPLIANCES})s?\b", re.I)
# … every such "it" of the sentence: "wants to break it in saturday, what can he make in it".
APPLIANCE_IT = re.compile(
    r"(?:\b(?:in|with|w|into)\s+|\bbreak\s+(?=it\s+in\b)|\b(?:use|used|using|try|tried|test)\s+(?=it\b)"
    # "… an air fryer as a wedding gift and it's still in the box".
    r"|\band\s+(?=it(?:'?s| is| has)\b))(?P<it>it)\b",
    re.I,
)


# "she's obsessed with aubergine, got anything with that?": the "that" of a food just said.
FOOD_THAT = re.compile(
    r"\b(?:obsessed with|(?:mad|crazy|nuts) about|loves?|likes?|got|have|has|bought|grab(?:bed)?|picked up"
    r"|gave me|given"
    r"|there'?s|there is)\s+"
    r"(?:some\s+|a lot of\s+|loads of\s+|a\s+)?"
    # "a big pork shoulder, like 2.5 lbs, what can i do with it".
    r"(?:[\w-]+\s+){0,2}[\w-]+\b(?:[^.?!]|\.(?=\d))*?\b(?:with|w|use|using)\s+(?P<it>that|it)\b",
    re.I,
)
# "all 3 use yogurt lol … i go thru SO much of it": the food just said.
FOOD_MUCH_OF_IT = re.compile(
    r"\b(?:use|uses|using|buy|bought|have|has|got)\s+(?:[\w-]+\s+){0,2}?[\w-]+\b[^.?!]*?"
    r"\b(?:much|lot|lots|loads|tons|heaps) of (?P<it>it)\b",
    re.I,
)
# "no more pasta this week we've had it like 4 times": the food just said to be had enough of.
FOOD_HAD_IT = re.compile(
    r"\b(?:no more|sick of|tired of|bored of|had enough of)\s+(?:[\w-]+\s+){0,2}?[\w-]+\b[^.?!]*?"
    r"\b(?:had|eaten|ate|made|cooked|done)\s+(?P<it>it)\b",
    re.I,
)
# "my brother turned up with a rabbit he shot (??) and wants me to cook it": a food brought.
FOOD_GOT_IT = re.compile(
    r"\b(?:with|got|bought|brought|caught|shot|picked up|grabbed)\s+(?:a|an|some|this|these|a whole)\s+"
    r"(?!(?:recipe|dish|one|new)\b)[\w-]+\b(?:\(\W*\)|[^.?!])*?"
    # "… a whole octopus, whats the trick so it doesnt turn out rubbery".
    r"(?:\b(?:cook|make|do|use|prep|roast|bake|grill|fry|eat)|\bso|\btill|\buntil)\s+(?P<it>it)\b",
    re.I,
)
# "bread going stale … a shame to bin it", "half a cabbage … using it up": a food, no recipe.
FOOD_WASTED_IT = re.compile(
    r"\b(?:(?:bin|binning|waste|wasting)\s+(?=it\b)"
    r"|(?:toss|tossing|throw|throwing|chuck|chucking|use|using)\s+(?=it\s+(?:up|out|away)\b))(?P<it>it)\b",
    re.I,
)
# "any w/o pasta? i always overcook it", "how do i cook plain rice without it going mushy": a
# food just said, and how it goes wrong.
_FOOD_SAID = (
    r"\b(?:without|w/o|no|cook|cooking|make|making|boil|boiling)\s+(?:[\w-]+\s+){0,2}?[\w-]+\b.{0,80}?"
)
FOOD_SPOILT_IT = re.compile(
    rf"{_FOOD_SAID}\b(?:(?:over|under)?cook\w*|burn\w*|ruin\w*|screw\w* up|mess\w* up)\s+(?P<it>it)\b",
    re.I | re.S,
)
FOOD_SPOILS_IT = re.compile(
    rf"{_FOOD_SAID}\b(?P<it>it)\s+(?:going|goes|gets|getting|turns|turning|comes out|coming out)\s+"
    r"(?:all\s+|really\s+|so\s+)?(?:mushy|soggy|burnt|burned|sticky|gluey|stodgy|dry|hard|chewy|rubbery|lumpy)\b",
    re.I | re.S,
)
# "she's been craving pavlova like crazy — is that hard to make?": the dish just said.
DISH_CRAVED_IT = re.compile(
    r"\b(?:craving|cravings? for|obsessed with|(?:mad|crazy) about|begging for)\s+(?:[\w-]+\s+){0,2}?[\w-]+\b"
    r"[^.?!]*?\b(?:is|are|would|will|can|could)\s+(?P<it>that|it)\b",
    re.I,
)
# "and anything with fish? I'm trying to eat more of it": the food just asked for.
FOOD_ASKED_IT = re.compile(
    r"\b(?:anything|something|recipes?|ones?|stuff) (?:with|w)\s+[\w-]+(?:\s+[\w-]+)?\s*\?+\s+[^.?!]*?"
    r"\b(?:more|of|eat|eating|love|like|into)\s+(?P<it>it)\b",
    re.I,
)
# "what about bread, is that even possible", "something with rice so it's a full meal": the
# "it" of what was just asked for.
ASKED_FOR_IT = re.compile(
    r"(?:\b(?:what|how) about [^.?!,]+,\s*(?:is|are|would|will|can|could|does)\s+"
    r"|\b(?:something|anything)\b[^.?!]*?\bso\s+(?=it\b))(?P<it>that|it|this)\b",
    re.I,
)


# A dish asked for, new to the talk: "is there some dough where you just mix it and leave it",
# "wants to bake something with me … a kid can do most of it".
NEW_DISH = re.compile(
    r"\b(?:is|are) there (?:a|an|some|any)\s+(?!(?:way|chance|trick|substitute|reason|need|point|risk|problem"
    r"|difference|alternative|version|shortcut|hack|method|option)s?\b)[\w-]+\b"
    r"|\b(?:make|bake|cook|want|need|find)\s+(?:\w+\s+)?something\b"
    # "how do i cook salmon so it doesnt come out dry", "if i make ricotta this weekend … will it
    # keep", "worth making plain yogurt myself and how do you do it".
    r"|\b(?:cook|make|bake|roast|grill|fry)\s+(?:a |the |my )?[\w-]+(?:\s+[\w-]+){0,4}?\s+so\s+"
    r"(?:that\s+)?(?=it\b)"
    r"|\bif (?:i|we) (?:make|bake|cook|prep)\s+(?!(?:it|that|this|them|those|one)\b)[\w-]+"
    r"|\bworth (?:making|baking|doing)\b"
    # "… keeps telling me to make my own sourdough starter with it, how do i even do that".
    r"|\b(?:make|making|bake|baking) (?:my|our|your) own\b",
    re.I,
)
# A dish asked for by its name, whose "it" may follow in the next sentence: "do you have
# schinkenfleckerl? my oma used to make it every winter".
DISH_ASKED = re.compile(
    r"\b(?:do you have|have you got|got)\s+(?:a |an |any )?(?:recipes? for )?"
    r"(?!(?:it|that|this|them|those|one|ones|any|anything|something|ideas?)\b)[\w-]+",
    re.I,
)
# … every "it" of that sentence, but "something like it" (the recipe in focus).
NEW_DISH_IT = re.compile(
    r"(?<!like )(?<!as )(?<!to )(?<!into )\b(?P<it>it|(?<=\bdo )that|(?<=\bfor )that)\b", re.I
)


# "she's here for breakfast too, anything for that?": the "that" of a meal just said.
MEAL_THAT = re.compile(
    r"\b(?:breakfast|brunch|lunch|dinner|supper|dessert|afters|snacks?|party|picnic|potluck|bbq|fry[- ]?up"
    r"|mornings|weeknights)\b"
    # "a dessert to go with it" is served with the recipe in focus.
    r"(?:[^.?!]*?\b(?:for|(?<!go )(?<!goes )(?<!serve )(?<!pair )(?<!eat )with)\s+(?=(?:that|it)\b)"
    # "… in-laws coming for brunch … a proper fry up. what should i make for that": "for
    # that" may follow in the next sentence.
    r"|[^.?!]*?[.?!]+\s+[^.?!]*?\bfor\s+(?=that\b))(?P<it>that|it)\b",
    re.I,
)

# Idioms whose "it" or "that" is no recipe: "spiced apple ones it is for the kids then" (a choice
# said), "i never eat breakfast and it shows", "is it worth it".
IDIOM_IT = re.compile(
    r"(?:\b[\w'-]+\s+(?=it\s+is\b\s*(?:then|for|tonight|today|[^\w\s]|$))|\b(?=it\s+shows\b)"
    # "is it actually worth making yogurt myself": no recipe is "it".
    r"|\b(?=it\s+(?:\w+\s+)?worth\s+(?:making|doing|buying|trying)\s+(?!with|it|this|that|for|in|on)\w)"
    # "i kinda want something sweet?? is that bad lol", "ill go hunt for it" (what to buy).
    r"|\bis\s+(?=that\s+(?:bad|weird|normal|wrong|crazy|silly|dumb)\b)"
    r"|\b(?:hunt|look|shop|search) for\s+(?=it\b)"
    # "it feels like a shame to bin it": no recipe feels.
    r"|\b(?=it\s+(?:feels|seems|would be|'?d be|is|'s)\s+(?:like\s+)?(?:a\s+)?(?:shame|waste|pity|sin)\b)"
    # "15 minutes, a carton of eggs and some broth, that's it": all there is.
    r"|\bthat'?s\s+(?=it\s*(?:[.!,;]|$))"
    # "love it. side thing — …", "too tired to fight it", "i'll just wing it".
    r"|(?:^|[.!,;]\s*)(?:love|loved|lovin)\s+(?=it\s*(?:[.!,;]|$))"
    r"|\b(?:fight|wing|risk|chance)\s+(?=it\b)"
    # "does it matter if i leave it out": the choice, not a recipe.
    r"|\b(?:does|would|will)\s+(?=it\s+(?:really\s+)?matter\b)"
    # "spatchcock i think its called": the name of a dish just said.
    r"|\b(?=(?:it|that)(?:'?s|\s+is|\s+was)\s+(?:called|named)\b))"
    r"(?P<it>its|it|that)\b",
    re.I,
)


def focus_pointer(message: str) -> re.Match[str] | None:
    """The first word of `message` that points at the recipe in focus (FOCUS), but not the
    "it" of a dish asked for ("anything with rice in it?", "what about bread, is that even
    possible") nor of an appliance, a food or a meal just said."""
    asked = [m.span() for m in FOOD_IN_IT.finditer(message)]
    asked += [
        m.span("it")
        for it_said in (
            ASKED_FOR_IT,
            FOOD_THAT,
            FOOD_ASKED_IT,
            FOOD_HAD_IT,
            FOOD_MUCH_OF_IT,
            FOOD_WASTED_IT,
            FOOD_SPOILT_IT,
            FOOD_SPOILS_IT,
            FOOD_GOT_IT,
            DISH_CRAVED_IT,
            MEAL_THAT,
            IDIOM_IT,
        )
        for m in it_said.finditer(message)
    ]
    # The "it" of an appliance, a dish asked for or a part just said ("i always screw up the
    # ricotta layer, it comes out watery"), in the sentence that says it or in the next.
    for said, its, sentences in (
        (APPLIANCE, APPLIANCE_IT, 1),
        (NEW_DISH, NEW_DISH_IT, 1),
        (PART_OF, NEW_DISH_IT, 2),
        (DISH_ASKED, NEW_DISH_IT, 2),
    ):
        for thing in said.finditer(message):
            stops = [m.start() for m in re.finditer(r"[.?!]+(?:\s|$)", message[thing.end() :])]
            ends = thing.end() + stops[sentences - 1] if len(stops) >= sentences else len(message)
            asked += [m.span("it") for m in its.finditer(message, thing.end(), ends)]
    return next((m for m in FOCUS.finditer(message) if not any(s <= m.start() < e for s, e in asked)), None)


# A question asked without its question mark: "wait arent stoofvlees and carbonade the same thing".
ASKED = re.compile(
    r"\?|^\W*(?:(?:wait|hmm+|oh+|ok(?:ay)?|so|and|but|also|lol)\W+)*"
    r"(?:is|isn'?t|are|aren'?t|arent|does|doesn'?t|do|don'?t|what'?s|whats|what|how|why|which|can|could"
    r"|should|would|will|wouldn'?t)\b"
    r"|\b(?:is|are|does|do|can|will|would|should|could) (?:that|it|this|they|these|those|there)\b",
    re.I,
)
REQUEST_OR_QUESTION = re.compile(r"\?|\b(?:how|what|which|any|got|recipe|ideas?)\b", re.I)
# Where a message's sentences end.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def last_sentence(text: str) -> tuple[str, str]:
    """What is said before the last sentence ended by "." or "!", and that sentence ("these
    look good!! what about soups"); a question keeps the remark after it ("what about
    dessert? same time limit")."""
    end = max((m.end() for m in re.finditer(r"(?<=[.!])\s+(?=\S)", text)), default=0)
    return text[:end].rstrip(), text[end:]


# A sentence that settles on a recipe offered: "goulash it is then", "beef one for sure",
# "yogurt cake she'll love that", "tetrazzini looks like a winner".
SETTLED = re.compile(
    r"\b(?:it is|for sure|defo|definitely|sold|sorted|decided|settled"
    r"|(?:sounds|looks) (?:like )?(?:a winner|perfect|great|amazing)"
    r"|(?:she|he|they)'?ll love (?:that|it)|(?:i'll|ill|gonna|going to|we'll) (?:go with|do|make|pick))\b"
    r"|\bthen\W*$",
    re.I,
)
# "btw" opens a new question when nothing after it points back: "potato leek then, thx. btw
# how do you make indian tea", but not "btw can I freeze it?".
ASIDE_SWITCH = re.compile(r"\b(?:btw|by the way)\b", re.I)


def topic_switch(message: str) -> re.Match[str] | None:
    """The words that change the topic, if any: a SWITCH, or a "btw" before a question that
    points at nothing said before."""
    if (switch := SWITCH.search(message)) is not None:
        return switch
    aside = ASIDE_SWITCH.search(message)
    if aside is None or aside.start() == 0:
        return None
    after = message[aside.end() :]
    pointing = INTO_THE_SET.search(after) or SET_WORDS.search(after) or focus_pointer(after)
    # "btw any desserts too?" adds to what was asked; "btw a friend gave me a bag of rye flour
    # and …" tells of something else.
    short = len(after.split()) <= 8
    adding = short and (ELLIPTICAL.match(after.strip(" ,")) or ADDITIVE.match(after.strip(" ,")))
    return aside if not pointing and not adding and REQUEST_OR_QUESTION.search(after) else None


# What may come before the words that change the topic in their sentence: "ok so totally …".
SWITCH_LEAD = re.compile(
    r"(?:[\W_]|\b(?:ok(?:ay)?|so|anyway|also|oh|and|hmm+|um+|totally|completely|a)\b)*", re.I
)
# The words that change the topic and say nothing else: "side q:", "totally different thing -",
# "never mind,", "btw". "forget the fish" and "now for dinner" say what the question is about.
SWITCH_ONLY = re.compile(r"(?!forget|scratch|scrap|ditch|drop|now\b)|scrap (?:that|this|all that)\b", re.I)
# Where such words end, when something follows them: a dash, a colon, a comma, "but".
SWITCH_SAID = re.compile(r"(?<=\bbut)\s+(?=\w)|\s*(?:[—–:;,.!?-]+|\bbut\b)\s*(?=\w)", re.I)


def switch_start(message: str) -> int:
    """Where the new question begins: the sentence that changes the topic ("potato leek then,
    thx. separately, how do I …"), so that what was said before it is not searched, and after
    the words that only say so ("totally different thing - my mum's birthday …")."""
    switch = topic_switch(message)
    if switch is None:
        return 0
    ends = [m.end() for m in PARTS.finditer(message) if m.end() <= switch.start()]
    start = ends[-1] if ends else 0
    said = SWITCH_SAID.match(message, switch.end())
    if said and SWITCH_LEAD.fullmatch(message, start, switch.start()) and SWITCH_ONLY.match(switch.group()):
        return said.end()
    return start


# An occasion or a drink a request may be for: one the conversation has not spoken of is a new
# topic ("perfect, sorted!! it's meant to snow so I want something hot, like a spiced wine").
OCCASION = re.compile(
    r"\b(?<!all )(?:tomorrow|tmrw|tmr|tonight|(?:this |the )?weekend|next (?:week|wk|month|weekend)"
    r"|later this (?:week|month)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|birthday|bday|party|bbq"
    r"|barbecue|picnic|potluck|book club|(?:game|movie|date) night|christmas|thanksgiving|easter|brunch"
    r"|lunch(?:es)?|breakfast)\b",
    re.I,
)
DRINK = re.compile(
    # "while ppl are having drinks", "over drinks": the occasion, no drink asked for.
    r"(?<!\bhaving )(?<!\bover )"
    r"\b(?:drinks?|cocktails?|mocktails?|boozy|booze|punch|mulled|(?:spiced|hot) wine|sangria|lemonade"
    r"|smoothies?|hot chocolate|eggnog|fizzy|by the jug|a jug of|pitcher)\b",
    re.I,
)
# An appliance just got: "we got an air fryer as a wedding gift", "my husband bought a smoker".
NEW_APPLIANCE = re.compile(
    rf"\b(?:bought|got|gifted|given|received|new)\b[^.?!]*?\b(?:{APPLIANCES})s?\b", re.I
)
# A food that has to be used: "a block of tofu that needs using today", "milk going off".
USE_UP = re.compile(
    r"\b(?:needs? using|to use up|us(?:e|ing) (?:it|them) up|going (?:off|bad|stale|soft)"
    r"|about to (?:go off|go bad|turn|expire)"
    # "came home from fishing with a ton of mackerel".
    r"|(?:a ton|tons|a load|loads|heaps|a glut|a mountain|a bucket) of (?!time\b)[a-z]+"
    # "i got a massive cabbage in my veg box and no idea what to do w it".
    r"|no idea what to (?:do|make|cook) (?:with|w) (?:it|them|this|these|that|those))\b",
    re.I,
)
# What keeps a request in the conversation's occasion: "same deal", "my brother's also coming",
# "to go with", "anything in that vein".
SAME_OCCASION = re.compile(
    # "the same lemon cake" she always brings is no request for the same.
    r"\b(?:same(?! (?:old )?(?:\w+ )?(?:cake|pie|dish|thing every|stuff every)\b)|in that vein|like that"
    r"|fits? the bill|to go with (?:it|that|them|those|these|this|the)\b"
    r"|on the side|to start|for afters|to finish"
    r"|(?:also|too) (?:coming|joining|eating)|(?:coming|joining|here) too|as well)\b",
    re.I,
)
# Words that point back at the recipes offered; "they" may be anyone ("they keep begging").
POINTING_BACK = re.compile(r"\b(?:those|these|them|both|either|(?:any|none|which|all|each) of)\b", re.I)
# A person already spoken of ("bake something with him"), unless someone new is said first.
PERSON_BACK = re.compile(r"\b(?:he|she|him|her|his|he'?s|she'?s|hes|shes)\b", re.I)
NEW_PERSON = re.compile(
    r"(?:\b(?:my|our|the) (?:\w+ )?|^)(?:mum|mom|mother|dad|father|sister|brother|daughter|son|kids?|gf|bf"
    r"|bff|bestie|best friend|girlfriend|boyfriend|partner|husband|wife|roomm?ate|roomie|flatmate|housemate"
    r"|friends?|parents|in-laws"
    r"|niece|nephew"
    r"|aunt|uncle|cousin|grandma|grandpa|nan|boss|coworkers?|colleagues?|neighbou?rs?|guests|grown ?ups)\b",
    re.I,
)
# People said in a message, whom a later "them" may mean: "10 of us … what would wow
# them", "two of the guests are vegetarian, what can i do for them".
PEOPLE_SAID = re.compile(
    rf"{NEW_PERSON.pattern}|\b(?:\d+|two|three|four|five|six|eight|ten|a few|some|all) of (?:us|the \w+)\b"
    r"|\b(?:everyone|everybody|people|ppl|the lads|the girls|the boys|vegetarians|vegans)\b",
    re.I,
)
# Where a message's parts end: a sentence, a spaced dash, an emoji ("… every night already 😅
# anyway diff thing, …").
PARTS = re.compile(rf"{SENTENCE_END.pattern}|\s[—–]\s|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+(?=\w)")


CUISINE_SAID = re.compile(
    r"\b(?:is|are|'s|from|something|anything|some|traditional)\s+(?:\w+\s+)??(?P<cuisine>[a-z]+)\b"
    r"(?!\s+(?:yogh?urt|cheese|sausages?|fries|toast|onions?|basil|oregano|muffins?|mustard|dressing|style))",
    re.I,
)


def moves_on(
    message: str, earlier: Sequence[str], names_offered: Callable[[str], bool] | None = None
) -> int | None:
    """Where `message` starts a new topic without saying so, if it does: a request for an
    occasion, a drink, an appliance or a food to use up that the earlier user turns (`earlier`)
    never spoke of, which points
    back at nothing, nor names a recipe offered (`names_offered`): "k thanks, going with the
    salmon. my daughter turns 6 next week, what cake is easy?". What is said before it is a
    remark about the recipes offered."""
    said = " ".join(earlier)
    starts = [0, *(m.end() for m in PARTS.finditer(message))]
    parts = [message[a:b] for a, b in zip(starts, [*starts[1:], len(message)], strict=True)]

    def new(part: str) -> bool:
        occasions = [m.group() for m in OCCASION.finditer(part)]
        # "my gf is portuguese and super homesick", "something venezuelan": a cuisine never asked
        # for, said of a person or a dish ("greek yogurt" is neither).
        occasions += [
            m["cuisine"].lower() for m in CUISINE_SAID.finditer(part) if m["cuisine"].lower() in CUISINES
        ]
        # "cold borscht for lunch?" after "soups for work lunches": no new occasion.
        bases = [re.sub(r"(?:(?<=ch)es|s)$", "", o, flags=re.I) for o in occasions]
        return any(not re.search(rf"\b{re.escape(o)}(?:e?s)?\b", said, re.I) for o in bases) or any(
            said_of.search(part) and not said_of.search(said) for said_of in (DRINK, NEW_APPLIANCE, USE_UP)
        )

    def adds(part: str) -> bool:
        # "and for tmrw, anything with beef?", "what about breakfast stuff?": more of the same;
        # but "oh and the party's outdoors so I want something hot and boozy …" says more.
        lead = re.match(r"^\W*(?:\w+\W+){0,2}?and\b", part, re.I)
        body = ELLIPSIS_LEAD.sub("", part.strip())
        # "cool cool. drinks?": a word or two asked, more of the same.
        short = (
            len(body.split()) <= 2
            and body.rstrip().endswith("?")
            and not re.fullmatch(
                r"(?:any )?(?:ideas?|suggestions?|thoughts?|help|options?|recs?)\W*", body, re.I
            )
        )
        # "and for midnight — i want to make some homemade boozy thing": a lead into what follows.
        # "ok and for lunch, something with chickpeas" too.
        lead_asks = (
            lead
            and len(part[lead.end() :].split()) <= 8
            and (REQUEST_OR_QUESTION.search(part) or REQUEST.search(part))
        )
        return bool(lead_asks or ELLIPTICAL.match(body) or short)

    def settles(part: str) -> bool:
        # "salmon tonight, sorted.", "shakshouka on saturday then.": a choice among the recipes
        # offered.
        return bool(SETTLED.search(part) and not REQUEST_OR_QUESTION.search(part))

    def points_back(rest: str) -> bool:
        back = PERSON_BACK.search(rest)
        someone = NEW_PERSON.search(rest)
        return bool(
            SAME_OCCASION.search(rest)
            or INTO_THE_SET.search(rest)
            or ORDINAL.search(rest)
            or focus_pointer(rest)
            or (
                (pointer := POINTING_BACK.search(rest)) is not None
                and not FOOD_POINTER.search(rest)
                # "movie night with the kids … not gonna make them suffer": the kids.
                and not (pointer.group().lower() == "them" and someone and someone.start() < pointer.start())
            )
            or (back and not (someone and someone.start() < back.start()))
            or (names_offered is not None and names_offered(rest))
        )

    # "what about a warm drink … — something with red wine and spices maybe?": what follows a
    # new request says more of it.
    def opens(n: int) -> bool:
        # A new request, or a remark on a new occasion followed by one ("… the real stress is
        # saturday — hosting 6 …"); not a remark followed by more of the same ("i had pasta for
        # lunch. something that isn't?").
        part = parts[n]
        if not new(part) or settles(part):
            return False
        # "my sister's coming for lunch tmrw and she's vegan... any soup i could make her?": what
        # follows asks for the person just said.
        for_them = n + 1 < len(parts) and NEW_PERSON.search(part) and PERSON_BACK.search(parts[n + 1])
        return bool(REQUEST_OR_QUESTION.search(part)) or (
            n + 1 < len(parts) and (not adds(parts[n + 1]) or bool(for_them))
        )

    first_new = next((n for n in range(len(parts)) if opens(n)), len(parts))
    if any(adds(part) for part in parts[: first_new + 1]):
        return None
    for start, part in zip(starts, parts, strict=True):
        if "?" in message[:start]:
            return None  # a question before is about the recipes offered
        if settles(part):
            continue
        rest = message[start:]
        asks = (
            REQUEST_OR_QUESTION.search(rest)
            or REQUEST.search(rest)
            or re.search(r"\b(?:need|whats)\b", rest, re.I)
            # "… will it keep that long or should i make it closer to the day": asked, no "?".
            or ASKED.search(rest)
        )
        if new(part) and asks and not points_back(rest):
            return start
    return None


def switches_topic(message: str) -> bool:
    """Whether `message` changes the topic: a SWITCH, and no pointer into the set in the same
    sentence, after it, or in a question before it ("forget the fish, the veggie one then?",
    "which ones are dairy free?? also random but …"). "made the apple ones this morning!! now
    for tonight I want fish" points into the set only in what it tells before the switch."""
    switch = topic_switch(message)
    if switch is None:
        return False
    # "forget the sauce, i'll buy ice cream. can I bake it in the morning?" keeps the recipe.
    forgotten = re.match(r"forget (?:about )?the \w+", message[switch.start() :], re.I)
    if forgotten and focus_pointer(message[switch.end() :]):
        return False

    def holds(pointer: re.Match[str]) -> bool:
        # "the zaatar one looked nice but honestly my real question is …": a remark before.
        between = message[pointer.end() : switch.start()]
        remark = re.search(r"[.!]|\bbut\b", between)
        return pointer.end() > switch.start() or "?" in between or not remark

    return not any(holds(m) for m in INTO_THE_SET.finditer(message))


# What people feel about food: "instead of spinach, they hate it": dishes neither hate nor like.
FEELING = re.compile(
    r"\s+(?:hate|love|like|dislike|can'?t stand|won'?t eat|are (?:allergic|fussy|picky)"
    rf"|(?:{NEGATED}) (?:like|eat))\b",
    re.I,
)
# What is done to people: "what would wow them", "something for them".
DONE_TO = re.compile(r"\b(?:for|wow|impress|feed|please|treat|surprise|give)\s+$", re.I)
# Drinks are for people: "what about drinks for them?" after food for 12 kids.
DRINKS_FOR = re.compile(
    r"\b(?:drinks?|something to drink|beverages?|mocktails?|cocktails?|juices?)\s+(?:\w+\s+)?for\s+$", re.I
)


def people_pointer(message: str) -> bool:
    """Whether each "them" of the message means people said before it in the message, and no
    other word points into the set: "christmas eve at mine, 10 of us, what would wow them"; but
    "do they have nuts" asks of the recipes."""
    pointers = list(SET_WORDS.finditer(message))
    return (
        bool(pointers)
        and not INTO_THE_SET.search(message)
        and all(
            (
                m.group().lower() == "them"
                and PEOPLE_SAID.search(message, 0, m.start())
                and DONE_TO.search(message, 0, m.start())
            )
            or (m.group().lower() == "they" and FEELING.match(message, m.end()))
            # "what about drinks for them?" after food for 12 kids: drinks are for people.
            or (m.group().lower() == "them" and DRINKS_FOR.search(message, 0, m.start()))
            for m in pointers
        )
    )
