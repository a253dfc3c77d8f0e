"""Whirling Witchcraft's components as data: ingredients, the 60 recipe cards, the 17 personalities.

Source: ``docs/rules/whirling-witchcraft.md`` sections 2, 7 and 8 (card data from the Japanese
edition, tagged there). Slots are written as on the sheet: ``"M (RT)"`` is one mandrake plus one
slot that takes a mushroom or a toad; ``(*)`` takes any of the five types. English names are the
sheet's (most are literal translations, see the README).

Every cube count in the engine is a 5-tuple or 5-list indexed by ``HEART, MANDRAKE, MUSHROOM,
SPIDER, TOAD``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Literal

# --- ingredients -------------------------------------------------------------------------------

HEART, MANDRAKE, MUSHROOM, SPIDER, TOAD = range(5)
INGREDIENTS: tuple[str, ...] = ("heart", "mandrake", "mushroom", "spider", "toad")
INGREDIENT_INDEX: dict[str, int] = {name: i for i, name in enumerate(INGREDIENTS)}
CODES = "HMRST"
BASICS = (MUSHROOM, SPIDER, TOAD)
# Workbench slots per type [RULEBOOK]: 3 hearts, 4 mandrakes, 9 of each basic.
CAPACITY: tuple[int, ...] = (3, 4, 9, 9, 9)

Cubes = tuple[int, int, int, int, int]

# --- arcana ------------------------------------------------------------------------------------

ARCANA: tuple[str, ...] = ("potion", "raven", "book")
POTION, RAVEN, BOOK = range(3)

Status = Literal["RULEBOOK", "CONFIRMED", "SOURCE", "GUESS", "UNKNOWN"]
RULEBOOK: Status = "RULEBOOK"
CONFIRMED: Status = "CONFIRMED"
SOURCE: Status = "SOURCE"
GUESS: Status = "GUESS"


@dataclass(frozen=True, slots=True)
class Face:
    """One orientation of a recipe: what goes in, what comes out.

    ``inputs``/``outputs`` are fixed cube counts; each element of ``input_choices`` /
    ``output_choices`` is one slot listing the types it accepts, chosen at each use.
    ``input_totals`` / ``output_totals`` are every total cube vector the slots can make.
    """

    inputs: Cubes
    input_choices: tuple[tuple[int, ...], ...]
    outputs: Cubes
    output_choices: tuple[tuple[int, ...], ...]
    input_totals: frozenset[Cubes] = field(compare=False)
    output_totals: frozenset[Cubes] = field(compare=False)

    @classmethod
    def build(cls, inputs: str, outputs: str) -> Face:
        fixed_in, choice_in = _parse_slots(inputs)
        fixed_out, choice_out = _parse_slots(outputs)
        return cls(
            fixed_in,
            choice_in,
            fixed_out,
            choice_out,
            _totals(fixed_in, choice_in),
            _totals(fixed_out, choice_out),
        )

    def turned(self) -> Face:
        return Face(
            self.outputs,
            self.output_choices,
            self.inputs,
            self.input_choices,
            self.output_totals,
            self.input_totals,
        )

    @property
    def has_inputs(self) -> bool:
        return any(self.inputs) or bool(self.input_choices)


@dataclass(frozen=True, slots=True)
class Recipe:
    """A recipe card (``R01``…``R60``) or a personality's own recipe (``P05``…)."""

    id: str
    name: str
    name_ja: str
    family: str
    face: Face  # as printed, inputs on top
    reversible: bool
    arcana: tuple[int, int, int]  # icons: potion, raven, book
    initiative: int
    status: Status
    single_use: bool = False
    back: Face = field(init=False, compare=False, repr=False)  # the face turned, made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "back", self.face.turned())

    def side(self, rotated: bool) -> Face:
        return self.back if rotated else self.face


def _parse_slots(text: str) -> tuple[Cubes, tuple[tuple[int, ...], ...]]:
    counts = [0, 0, 0, 0, 0]
    choices: list[tuple[int, ...]] = []
    for token in text.split():
        if token.startswith("("):
            inner = token.strip("()")
            choices.append(tuple(range(5)) if inner == "*" else tuple(CODES.index(c) for c in inner))
        else:
            for code in token:
                counts[CODES.index(code)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4]), tuple(choices)


def _totals(fixed: Cubes, choices: tuple[tuple[int, ...], ...]) -> frozenset[Cubes]:
    totals: set[Cubes] = set()
    for pick in product(*choices):
        vec = list(fixed)
        for kind in pick:
            vec[kind] += 1
        totals.add((vec[0], vec[1], vec[2], vec[3], vec[4]))
    return frozenset(totals)


ONE_WAY, TWO_WAY = False, True


def _recipe(
    rid: str,
    name: str,
    name_ja: str,
    family: str,
    inputs: str,
    outputs: str,
    reversible: bool,
    arcana: tuple[int, int, int],
    status: Status,
    initiative: int | None = None,
    single_use: bool = False,
) -> Recipe:
    # Initiative: the printed numbers are unknown; our reading is ID order (README, reading 1).
    number = initiative if initiative is not None else int(rid[1:])
    face = Face.build(inputs, outputs)
    return Recipe(rid, name, name_ja, family, face, reversible, arcana, number, status, single_use)


# --- the 60 recipe cards (sheet section 7.4) ---------------------------------------------------

RECIPES: tuple[Recipe, ...] = (
    _recipe("R01", "Spore Lore", "胞子の伝承", "Lore", "R", "M", ONE_WAY, (1, 1, 1), CONFIRMED),
    _recipe("R02", "Web-spinning Lore", "巣張りの伝承", "Lore", "S", "M", ONE_WAY, (1, 1, 1), SOURCE),
    _recipe("R03", "Croaking Lore", "鳴き声の伝承", "Lore", "T", "M", ONE_WAY, (1, 1, 1), SOURCE),
    _recipe("R04", "Hairy Brew", "抜け毛だらけの醸造", "Brew", "S", "M T", ONE_WAY, (0, 1, 1), SOURCE),
    _recipe("R05", "Blistered Brew", "水膨れだらけの醸造", "Brew", "R", "M S", ONE_WAY, (1, 0, 1), SOURCE),
    _recipe("R06", "Warty Brew", "いぼだらけの醸造", "Brew", "T", "M R", ONE_WAY, (1, 1, 0), SOURCE),
    _recipe("R07", "Binding Spell", "拘束の呪文", "Spell", "S", "R S T", ONE_WAY, (1, 1, 0), SOURCE),
    _recipe("R08", "Spell of Discovery", "発見の呪文", "Spell", "T", "R S T", ONE_WAY, (1, 0, 1), SOURCE),
    _recipe("R09", "Shattering Spell", "粉砕の呪文", "Spell", "R", "R S T", ONE_WAY, (0, 1, 1), SOURCE),
    _recipe("R10", "Vanishing Spell", "姿くらましの呪文", "Spell-pair", "R S", "M", TWO_WAY, (1, 1, 0), SOURCE),
    _recipe("R11", "Levitation Spell", "浮遊の呪文", "Spell-pair", "S T", "M", TWO_WAY, (0, 1, 1), SOURCE),
    _recipe("R12", "Invisibility Spell", "透明化の呪文", "Spell-pair", "R T", "M", TWO_WAY, (1, 0, 1), SOURCE),
    _recipe("R13", "Sleep Charm", "眠りのまじない", "Charm", "(ST)", "RR", TWO_WAY, (0, 0, 1), SOURCE),
    _recipe("R14", "Fear Charm", "恐怖のまじない", "Charm", "(RT)", "SS", TWO_WAY, (0, 1, 0), SOURCE),
    _recipe("R15", "Love Charm", "愛のまじない", "Charm", "(RS)", "TT", TWO_WAY, (1, 0, 0), SOURCE),
    # The Flasks, erratum of 2026-12 [CONFIRMED: JP spreadsheet + FR data]: one fixed cube of the
    # type the input pair and the output pair share, plus one from the output pair. The earlier
    # reading is FLASKS_AS_CONVERTED below, a room option.
    _recipe("R16", "Flask of Insight", "洞察のフラスコ", "Flask", "(ST)", "S (RS)", ONE_WAY, (0, 0, 1), CONFIRMED),
    _recipe("R17", "Flask of Shapeshifting", "姿変わりのフラスコ", "Flask", "(RS)", "R (RT)", ONE_WAY, (0, 1, 0), CONFIRMED),
    _recipe("R18", "Flask of Dreams", "夢のフラスコ", "Flask", "(RT)", "T (ST)", ONE_WAY, (1, 0, 0), CONFIRMED),
    _recipe("R19", "Toad Offering", "ヒキガエルの供物", "Offering", "TTT", "M R S", ONE_WAY, (1, 0, 0), SOURCE),
    _recipe("R20", "Mushroom Offering", "キノコの供物", "Offering", "RRR", "M S T", ONE_WAY, (0, 1, 0), SOURCE),
    _recipe("R21", "Spider Offering", "クモの供物", "Offering", "SSS", "M R T", ONE_WAY, (0, 0, 1), SOURCE),
    _recipe("R22", "Spore Summoning", "胞子の召喚", "Summoning", "TT", "M RR", ONE_WAY, (1, 0, 0), CONFIRMED),
    _recipe("R23", "Slime Summoning", "スライムの召喚", "Summoning", "SS", "M TT", ONE_WAY, (0, 1, 0), CONFIRMED),
    # R24 is kept two-way as recorded; see SPIDER_SUMMONING_ONE_WAY below.
    _recipe("R24", "Spider Summoning", "クモの召喚", "Summoning", "RR", "M SS", TWO_WAY, (0, 0, 1), CONFIRMED),
    _recipe("R25", "Secret Summoning", "秘密の召喚", "Summoning", "HH", "M SS TT", ONE_WAY, (0, 0, 0), SOURCE),
    _recipe("R26", "Spider Earthquake", "クモの地震", "Disaster", "MM", "SSS", ONE_WAY, (0, 0, 0), SOURCE),
    _recipe("R27", "Toad Tornado", "ヒキガエルの竜巻", "Disaster", "MM", "TTT", ONE_WAY, (0, 0, 0), SOURCE),
    _recipe("R28", "Mushroom Flood", "キノコの洪水", "Disaster", "MM", "RRR", ONE_WAY, (0, 0, 0), CONFIRMED),
    _recipe("R29", "Crawling Sorcery", "這伏の魔術", "Sorcery", "M", "M SS", ONE_WAY, (0, 1, 0), SOURCE),
    _recipe("R30", "Leaping Sorcery", "跳躍の魔術", "Sorcery", "M", "M TT", ONE_WAY, (1, 0, 0), SOURCE),
    _recipe("R31", "Poison Sorcery", "毒の魔術", "Sorcery", "M", "M RR", ONE_WAY, (0, 0, 1), SOURCE),
    _recipe("R32", "Rite of Growth", "成長の儀術", "Rite", "SS", "RR S T", TWO_WAY, (0, 0, 0), SOURCE),
    _recipe("R33", "Rite of Life", "生物の儀術", "Rite", "TT", "R SS T", TWO_WAY, (0, 0, 0), SOURCE),
    _recipe("R34", "Rite of Nature", "自然の儀術", "Rite", "RR", "R S TT", TWO_WAY, (0, 0, 0), SOURCE),
    _recipe("R35", "Elixir of Despair", "絶望の霊薬", "Elixir", "TT", "R S", TWO_WAY, (0, 1, 1), SOURCE),
    _recipe("R36", "Elixir of Sorrow", "悲しみの霊薬", "Elixir", "RR", "S T", TWO_WAY, (1, 0, 1), SOURCE),
    _recipe("R37", "Elixir of Wrath", "怒りの霊薬", "Elixir", "SS", "R T", TWO_WAY, (1, 1, 0), SOURCE),
    _recipe("R38", "Elixir of the Sun", "太陽の霊薬", "Elixir", "M S", "M (RT)", ONE_WAY, (1, 1, 0), SOURCE),
    _recipe("R39", "Elixir of the Stars", "星の霊薬", "Elixir", "M R", "M (ST)", ONE_WAY, (1, 0, 1), SOURCE),
    _recipe("R40", "Elixir of the Moon", "月の霊薬", "Elixir", "M T", "M (RS)", ONE_WAY, (0, 1, 1), CONFIRMED),
    _recipe("R41", "Potion of Speed", "速さの秘薬", "Potion", "R S T", "RR T", TWO_WAY, (0, 1, 0), SOURCE),
    _recipe("R42", "Potion of Stamina", "スタミナの秘薬", "Potion", "R S T", "R SS", TWO_WAY, (0, 0, 1), SOURCE),
    _recipe("R43", "Potion of Strength", "強さの秘薬", "Potion", "R S T", "S TT", TWO_WAY, (1, 0, 0), SOURCE),
    _recipe("R44", "Backache Remedy", "腰痛の秘薬", "Remedy", "M R", "H", TWO_WAY, (1, 0, 0), SOURCE),
    _recipe("R45", "Headache Remedy", "頭痛の秘薬", "Remedy", "M T", "H", TWO_WAY, (0, 0, 1), SOURCE),
    _recipe("R46", "Toothache Remedy", "歯痛の秘薬", "Remedy", "M S", "H", TWO_WAY, (0, 1, 0), SOURCE),
    _recipe("R47", "Shadow Arcanum", "影の秘術", "Arcanum", "M RR", "H S T", ONE_WAY, (1, 0, 0), SOURCE),
    _recipe("R48", "Arcanum of Dread", "戦慄の秘術", "Arcanum", "M TT", "H R S", ONE_WAY, (0, 0, 1), SOURCE),
    _recipe("R49", "Arcanum of Chaos", "混沌の秘術", "Arcanum", "M SS", "H R T", ONE_WAY, (0, 1, 0), SOURCE),
    _recipe("R50", "Wind Ritual", "風の儀式", "Ritual", "M R S T", "H TT", TWO_WAY, (0, 1, 0), SOURCE),
    _recipe("R51", "Fire Ritual", "炎の儀式", "Ritual", "M R S T", "H SS", TWO_WAY, (1, 0, 0), SOURCE),
    _recipe("R52", "Earth Ritual", "大地の儀式", "Ritual", "M R S T", "H RR", TWO_WAY, (0, 0, 1), SOURCE),
    _recipe("R53", "Storm Incantation", "嵐の魔法", "Incantation", "H", "H R S", ONE_WAY, (0, 1, 0), CONFIRMED),
    _recipe("R54", "River Incantation", "川の魔法", "Incantation", "H", "H R T", ONE_WAY, (0, 0, 1), CONFIRMED),
    _recipe("R55", "Lava Incantation", "溶岩の魔法", "Incantation", "H", "H S T", ONE_WAY, (1, 0, 0), CONFIRMED),
    _recipe("R56", "Whirling Stratagem", "渦巻く秘策", "single", "M", "R S T", TWO_WAY, (2, 0, 0), SOURCE),
    _recipe("R57", "The Lost Arcana", "失われしアルカナ", "single", "", "", ONE_WAY, (2, 2, 2), CONFIRMED),
    _recipe("R58", "Void Storm", "空虚の嵐", "single", "", "R S T", ONE_WAY, (0, 2, 0), CONFIRMED),
    _recipe("R59", "Curse of Shadow", "影の呪い", "single", "H M R S T", "HH", ONE_WAY, (0, 0, 0), SOURCE),
    _recipe("R60", "Midnight Tome", "真夜中の書", "single", "RR (ST) (ST)", "H", ONE_WAY, (0, 0, 2), SOURCE),
)

# The sheet's ``alternative`` readings (open questions 4 and 5), each a room option, off by default.
# The Flasks as the JP data.json was converted, before the erratum of 2026-12 [SOURCE].
FLASKS_AS_CONVERTED: tuple[Recipe, ...] = (
    _recipe("R16", "Flask of Insight", "洞察のフラスコ", "Flask", "(ST)", "T (RS)", ONE_WAY, (0, 0, 1), SOURCE),
    _recipe("R17", "Flask of Shapeshifting", "姿変わりのフラスコ", "Flask", "(RS)", "(RT)", ONE_WAY, (0, 1, 0), SOURCE),
    _recipe("R18", "Flask of Dreams", "夢のフラスコ", "Flask", "(RT)", "(ST)", ONE_WAY, (1, 0, 0), SOURCE),
)
# R24 one-way like its two cycle siblings [GUESS]; as recorded it is two-way.
SPIDER_SUMMONING_ONE_WAY = _recipe(
    "R24", "Spider Summoning", "クモの召喚", "Summoning", "RR", "M SS", ONE_WAY, (0, 0, 1), GUESS
)

# --- the 17 personalities (sheet section 8) ----------------------------------------------------

Power = Literal[
    "hand_swap",  # Initiate
    "claim_from_cauldron",  # Witch of All Trades
    "pour_on_potion",  # Potion Brewer
    "rotate_any",  # Whirlwind
    "play_random",  # Daredevil
    "forced_gain",  # Uncontrolled Powers
    "extra_card",  # Clairvoyant
    "turning_recipe",  # Trickster
    "scholar_book",  # Spellbook Scholar
    "recipe",  # only a recipe of its own
]


@dataclass(frozen=True, slots=True)
class Personality:
    id: str
    name: str
    name_ja: str
    power: Power
    start: Cubes
    recipe: Recipe | None = None
    initiate: bool = False
    copies: int = 1
    discard_on_use: bool = False
    hand_limit: int = 4
    # Icons on the ability side: the token moves at setup when the card is flipped [RULEBOOK].
    # Sheet question 2 (2026-12, JP sheet): only the Frog Whisperer has one, a book.
    arcana_on_flip: tuple[int, int, int] = (0, 0, 0)
    status: Status = SOURCE


def _own_recipe(pid: str, name: str, inputs: str, outputs: str, status: Status, **kw: bool) -> Recipe:
    face = Face.build(inputs, outputs)
    reversible = kw.get("reversible", False)
    single_use = kw.get("single_use", False)
    # A personality recipe is never "the latest played recipe", so its initiative never counts.
    return Recipe(pid, name, "", "personality", face, reversible, (0, 0, 0), 0, status, single_use)


def _cubes(h: int, m: int, r: int, s: int, t: int) -> Cubes:
    return (h, m, r, s, t)


PERSONALITIES: tuple[Personality, ...] = (
    Personality("P01", "Initiate", "見習い", "hand_swap", _cubes(0, 1, 4, 4, 4),
                initiate=True, copies=5, discard_on_use=True),
    Personality("P02", "Witch of All Trades", "よろず魔女", "claim_from_cauldron", _cubes(1, 1, 5, 5, 5),
                status=RULEBOOK),
    Personality("P03", "Potion Brewer", "秘薬醸造家", "pour_on_potion", _cubes(0, 2, 4, 4, 4)),
    Personality("P04", "Whirlwind", "風おこし", "rotate_any", _cubes(0, 0, 5, 5, 5), status=RULEBOOK),
    # The four printed personality recipes, erratum of 2026-12 [CONFIRMED: JP sheet + FR data].
    Personality("P05", "Frog Whisperer", "カエル語使い", "recipe", _cubes(0, 1, 2, 1, 9),
                recipe=_own_recipe("P05", "Frog Whisperer", "TTT", "(*)", CONFIRMED),
                arcana_on_flip=(0, 0, 1)),
    Personality("P06", "Daredevil", "命知らず", "play_random", _cubes(0, 1, 4, 4, 4)),
    Personality("P07", "Uncontrolled Powers", "制御不能のちから", "forced_gain", _cubes(0, 0, 2, 2, 2),
                recipe=_own_recipe("P07", "Uncontrolled Powers", "H", "M R", CONFIRMED)),
    Personality("P08", "Hidden Power", "秘めしちから", "recipe", _cubes(0, 0, 4, 4, 4),
                recipe=_own_recipe("P08", "Hidden Power", "H M R S T", "(*) (*) (*)", CONFIRMED,
                                   single_use=True),
                discard_on_use=True),
    Personality("P09", "Fae-Blessed", "フェイに祝福されし者", "recipe", _cubes(1, 0, 5, 5, 0),
                recipe=_own_recipe("P09", "Fae-Blessed", "", "M T", SOURCE)),
    Personality("P10", "Clairvoyant", "千里眼", "extra_card", _cubes(1, 2, 4, 4, 4), hand_limit=5),
    Personality("P11", "Trickster", "ペテン師", "turning_recipe", _cubes(1, 1, 5, 3, 5),
                recipe=_own_recipe("P11", "Trickster", "RR", "TT", CONFIRMED, reversible=True)),
    Personality("P12", "Spider Summoner", "クモの操り手", "recipe", _cubes(1, 0, 2, 5, 2),
                recipe=_own_recipe("P12", "Spider Summoner", "MMM", "SSSSS", SOURCE)),
    Personality("P13", "Spellbook Scholar", "魔術書学者", "scholar_book", _cubes(1, 2, 3, 3, 3)),
)

RECIPE_BY_ID: dict[str, Recipe] = {r.id: r for r in RECIPES}
PERSONALITY_BY_ID: dict[str, Personality] = {p.id: p for p in PERSONALITIES}
OWN_RECIPE_BY_ID: dict[str, Recipe] = {p.id: p.recipe for p in PERSONALITIES if p.recipe}
INITIATE = PERSONALITY_BY_ID["P01"]
ADVANCED_PERSONALITIES: tuple[str, ...] = tuple(p.id for p in PERSONALITIES if not p.initiate)


def any_recipe(rid: str) -> Recipe:
    """A recipe card or a personality's own recipe, by id."""
    return RECIPE_BY_ID.get(rid) or OWN_RECIPE_BY_ID[rid]


# Room option name → the cards it replaces.
ALTERNATIVES: dict[str, tuple[Recipe, ...]] = {
    "flasks_as_converted": FLASKS_AS_CONVERTED,
    "spider_summoning_one_way": (SPIDER_SUMMONING_ONE_WAY,),
}


def recipe_table(flasks_as_converted: bool = False, summoning_one_way: bool = False) -> dict[str, Recipe]:
    """Every recipe (cards and personality recipes) by id, with the chosen card readings."""
    key = (flasks_as_converted, summoning_one_way)
    table = _TABLES.get(key)
    if table is None:
        table = {**RECIPE_BY_ID, **OWN_RECIPE_BY_ID}
        for option, chosen in zip(ALTERNATIVES, key, strict=True):
            if chosen:
                table.update({r.id: r for r in ALTERNATIVES[option]})
        _TABLES[key] = table
    return table


_TABLES: dict[tuple[bool, bool], dict[str, Recipe]] = {}
