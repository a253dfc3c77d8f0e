"""The 50 power cards of Seasons (base game) as typed data.

Generated once from the rules sheet's machine-readable block (``docs/rules/seasons.md``
section 9.2) and checked in; nothing reads the sheet at run time. Costs and prestige are the
2nd edition's (BGA, TTS and BRO agree, sheet section 9); ``first_edition`` keeps the older
values of #5 and #43 (room option ``edition``). Effects are the sheet's paraphrases, never the
printed card text. What each card *does* is code next to this data: ``effects_apprentice.py``
(cards 1–30) and ``effects_master.py`` (31–50), registered by card number in ``effects.py``.

Every energy count in the engine is a 4-tuple or 4-list in the order of :data:`ENERGIES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ENERGIES: tuple[str, ...] = ("air", "water", "fire", "earth")
AIR, WATER, FIRE, EARTH = range(4)
ENERGY_INDEX: dict[str, int] = {name: i for i, name in enumerate(ENERGIES)}

Energy = tuple[int, int, int, int]
Kind = Literal["magic_item", "familiar"]
Level = Literal["basic", "advanced"]


@dataclass(frozen=True, slots=True)
class Cost:
    """What summoning a card from the hand costs: energy tokens and crystals."""

    energy: Energy
    crystals: int = 0

    @property
    def tokens(self) -> int:
        return sum(self.energy)


# Elemental Amulet (#31): one token of each type in any non-empty subset of the four, chosen
# when it is summoned. The ``Cost`` here is the most it can cost; the effect module enumerates.
CHOICE_COST: tuple[Cost, Cost, Cost] = (Cost((1, 1, 1, 1), 0),) * 3


@dataclass(frozen=True, slots=True)
class FirstEdition:
    costs: tuple[Cost, Cost, Cost]
    effect: str
    timing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Card:
    num: int
    name: str
    kind: Kind
    level: Level  # basic: 1–30 (apprentice level), advanced: 31–50
    costs: tuple[Cost, Cost, Cost]  # with 2, 3 and 4 players (#11, #33, #39, #41, #49 differ)
    pp: int  # prestige points, counted at the end while the card is in play
    timing: tuple[str, ...]  # on_entry, activation[:…], permanent:<hook>, holds_energy
    effect: str  # the sheet's paraphrase
    rulings: tuple[str, ...]  # the sheet's rulings, each with its status tag
    status: str
    first_edition: FirstEdition | None = None

    def cost(self, players: int, edition: int = 2) -> Cost:
        costs = self.costs
        if edition == 1 and self.first_edition is not None:
            costs = self.first_edition.costs
        return costs[min(max(players, 2), 4) - 2]

    @property
    def familiar(self) -> bool:
        return self.kind == "familiar"

    @property
    def magic_item(self) -> bool:
        return self.kind == "magic_item"

    @property
    def choice_cost(self) -> bool:
        return self.costs is CHOICE_COST


CARDS: tuple[Card, ...] = (
    Card(1, 'Amulet of Air', 'magic_item', 'basic', (Cost((2, 0, 0, 0), 0),) * 3, 6, ('on_entry',), '+2 summoning gauge.', ('The gauge never goes above 15. [RULEBOOK]',), 'CONFIRMED', None),
    Card(2, 'Amulet of Fire', 'magic_item', 'basic', (Cost((0, 0, 2, 0), 0),) * 3, 6, ('on_entry',), 'Take the top 4 cards of the draw pile; put 1 in your hand and discard the other 3.', (), 'CONFIRMED', None),
    Card(3, 'Amulet of Earth', 'magic_item', 'basic', (Cost((0, 0, 0, 2), 0),) * 3, 6, ('on_entry',), '+9 crystals.', (), 'CONFIRMED', None),
    Card(4, 'Amulet of Water', 'magic_item', 'basic', (Cost((0, 2, 0, 0), 0),) * 3, 6, ('on_entry', 'holds_energy'), 'Take 4 energy tokens of your choice from the supply and keep them on this card.', ('These tokens can be spent like reserve tokens (costs, transmuting, discard costs) but are not part of the reserve: they do not count toward the reserve limit, and #13, #14, #21, #24, #26, #40, #42 and #45 ignore them. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(5, 'Balance of Ishtar', 'magic_item', 'basic', (Cost((0, 0, 0, 0), 2),) * 3, 4, ('activation',), 'Discard 3 identical energy tokens to gain 9 crystals (2nd edition).', ('Usable without a transmute permission. It counts as transmuting: Purse of Io adds +1 per token (12 in total) and the Transmute +1 bonus adds +1 per token. [CONFIRMED: BGA, TTS, FAQ]', '1st edition: costs 6 crystals and turns 4 identical tokens into 12 crystals (16 with Purse of Io). [SOURCE: BGA; ultraboardgames]'), 'CONFIRMED', FirstEdition((Cost((0, 0, 0, 0), 6),) * 3, 'Discard 4 identical energy tokens to gain 12 crystals.', ('activation',))),
    Card(6, 'Staff of Spring', 'magic_item', 'basic', (Cost((0, 0, 0, 3), 0),) * 3, 9, ('permanent:on_own_summon_from_hand',), '+3 crystals every time you summon a card from your hand.', ('No bonus for cards put into play free by an effect (#9, #24, #34), and none for its own summon. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(7, 'Temporal Boots', 'magic_item', 'basic', (Cost((0, 0, 0, 0), 0),) * 3, 8, ('on_entry',), 'Move the season marker 1, 2 or 3 spaces forward or backward.', ('Moving back from winter into autumn lowers the year by 1; players keep their hands, and library cards are handed out only once. [CONFIRMED: TTS, BGA]', 'A season change caused by the move triggers #11 and #27 at once; moving forward into a new year hands out library cards. [SOURCE: BGA]', 'The dice of the current round stay in use; transmutation rates follow the new marker position at once. [SOURCE: BGA]', 'Moving past the end of year III: finish the current round, then the game ends. [SOURCE: TAK]'), 'CONFIRMED', None),
    Card(8, 'Purse of Io', 'magic_item', 'basic', (Cost((1, 0, 1, 0), 0),) * 3, 6, ('permanent:transmute_modifier',), '+1 extra crystal for every energy token you transmute.', ('Applies to #5 and #26; does not apply to #35 or #37; each copy adds its own +1. [SOURCE: BGA]',), 'CONFIRMED', None),
    Card(9, 'Divine Chalice', 'magic_item', 'basic', (Cost((1, 1, 1, 1), 0),) * 3, 10, ('on_entry',), 'Look at the top 4 cards of the draw pile; put 1 of them into play for free and discard the others.', ("Needs a free gauge slot; without one, the chosen card is discarded too. The free card's own on-entry effect resolves. It does not trigger #6, #30 or #33. [CONFIRMED: TTS, BGA]",), 'CONFIRMED', None),
    Card(10, 'Syllas the Faithful', 'familiar', 'basic', (Cost((0, 0, 3, 0), 0),) * 3, 14, ('on_entry',), 'Each opponent sacrifices one of their cards in play (the opponent chooses which).', ('An opponent with nothing in play is unaffected. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(11, 'Figrim the Avaricious', 'familiar', 'basic', (Cost((0, 0, 0, 0), 3), Cost((0, 0, 0, 0), 6), Cost((0, 0, 0, 0), 9)), 7, ('permanent:season_change',), 'At every change of season, each opponent gives you 1 crystal.', ('An opponent with 0 crystals gives nothing. [CONFIRMED: FAQ, BGA]',), 'CONFIRMED', None),
    Card(12, 'Naria the Prophetess', 'familiar', 'basic', (Cost((0, 0, 0, 0), 3),) * 3, 8, ('on_entry',), 'Draw one card per player (you included). Keep one and give one of your choice to each opponent.', (), 'CONFIRMED', None),
    Card(13, 'Wondrous Chest', 'magic_item', 'basic', (Cost((0, 1, 1, 0), 0),) * 3, 4, ('permanent:end_of_round',), 'At the end of each round, if your reserve holds 4 or more tokens, +3 crystals.', ('Tokens on #18 count; tokens on #4 and #35 do not. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(14, "Beggar's Horn", 'magic_item', 'basic', (Cost((1, 0, 0, 1), 0),) * 3, 8, ('permanent:end_of_round',), 'At the end of each round, if your reserve holds at most 1 token, gain 1 energy of your choice.', ('Same counting rule as #13. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(15, 'Die of Malice', 'magic_item', 'basic', (Cost((0, 0, 0, 0), 0),) * 3, 8, ('activation:start_of_own_turn',), 'At the start of your turn, before using your season die, re-roll it, use the new face, and gain 2 crystals.', ('Cannot be used in the turn it enters play. [SOURCE: BGA]', 'With 2 copies you may re-roll twice (+2 crystals each time). [SOURCE: TTS]'), 'CONFIRMED', None),
    Card(16, 'Kairn the Destroyer', 'familiar', 'basic', (Cost((3, 0, 0, 0), 0),) * 3, 9, ('activation',), 'Discard 1 energy token: each opponent loses 4 crystals.', ('Losses stop at 0. [CONFIRMED: FAQ, BGA]',), 'CONFIRMED', None),
    Card(17, 'Amsug Longneck', 'familiar', 'basic', (Cost((1, 1, 0, 0), 0),) * 3, 8, ('on_entry',), 'Every player, you included, returns one of their magic items in play to their hand.', ('Each player chooses their own item; a player with no magic item is unaffected. [CONFIRMED: TTS, BGA]', "A returned card is not sacrificed, so #42's penalty does not trigger; tokens stored on a returned card are lost. [SOURCE: BGA]"), 'CONFIRMED', None),
    Card(18, 'Bespelled Grimoire', 'magic_item', 'basic', (Cost((0, 1, 0, 1), 0),) * 3, 8, ('on_entry', 'permanent:reserve_limit'), 'Gain 2 energies of your choice. While this card is in play, your reserve limit is 10.', ('Tokens counted on it belong to the reserve. A second Grimoire still gives 10: the card sets the limit, it does not add to it. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(19, "Ragfield's Helm", 'magic_item', 'basic', (Cost((3, 0, 0, 0), 0),) * 3, 10, ('permanent:end_of_game',), 'At the end of the game, +20 crystals if you have strictly more cards in play than every opponent.', ('A tie for most gives nothing. [SOURCE]',), 'CONFIRMED', None),
    Card(20, 'Hand of Fortune', 'magic_item', 'basic', (Cost((1, 0, 1, 1), 3),) * 3, 9, ('permanent:cost_modifier',), 'Every card you summon costs 1 energy less (you choose which); an energy cost is never reduced below 1 token.', ('Crystal costs and activation costs are not reduced, so it only helps cards costing 2 or more energy. Two copies stack. [SOURCE: BGA]', 'Works on #31. [CONFIRMED: TTS, BGA]'), 'CONFIRMED', None),
    Card(21, 'Lewis Greyface', 'familiar', 'basic', (Cost((1, 0, 1, 0), 0),) * 3, 6, ('on_entry',), 'Pick an opponent and take from the supply the same energy tokens (types and numbers) as in their reserve.', ('The opponent loses nothing. Tokens on #18 are copied; tokens on #4 and #35 are not. The reserve limit applies afterwards. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(22, 'Runic Cube of Eolis', 'magic_item', 'basic', (Cost((0, 0, 0, 0), 20),) * 3, 30, (), 'No effect; it only gives prestige.', (), 'CONFIRMED', None),
    Card(23, 'Potion of Power', 'magic_item', 'basic', (Cost((0, 0, 2, 0), 0),) * 3, 0, ('activation:sacrifice_self',), 'Sacrifice this card: draw 1 card (you must keep it) and +2 summoning gauge.', (), 'CONFIRMED', None),
    Card(24, 'Potion of Dreams', 'magic_item', 'basic', (Cost((2, 0, 0, 0), 0),) * 3, 0, ('activation:sacrifice_self',), 'Sacrifice this card and discard your whole reserve (it may be empty): put a card from your hand into play for free.', ("This potion's own slot is freed before the gauge check. [SOURCE: BGA]", 'Tokens on #4 and #35 are kept; tokens on #18 are discarded. No #6/#30/#33 triggers. [CONFIRMED: TTS, BGA]'), 'CONFIRMED', None),
    Card(25, 'Potion of Knowledge', 'magic_item', 'basic', (Cost((0, 2, 0, 0), 0),) * 3, 0, ('activation:sacrifice_self',), 'Sacrifice this card: gain 5 energies of your choice.', ('The reserve limit applies. [RULEBOOK]',), 'CONFIRMED', None),
    Card(26, 'Potion of Life', 'magic_item', 'basic', (Cost((0, 0, 0, 2), 0),) * 3, 0, ('activation:sacrifice_self',), 'Sacrifice this card: transmute every token in your reserve at 4 crystals each.', ('Needs no transmute permission and gives none for later. Purse of Io adds +1 per token. Tokens on #18 are included; tokens on #4 and #35 are not. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(27, 'Hourglass of Time', 'magic_item', 'basic', (Cost((1, 1, 1, 1), 0),) * 3, 6, ('permanent:season_change',), 'At every change of season, gain 1 energy of your choice.', (), 'CONFIRMED', None),
    Card(28, 'Scepter of Greatness', 'magic_item', 'basic', (Cost((1, 1, 1, 1), 0),) * 3, 8, ('on_entry',), '+3 crystals for each other magic item you have in play.', (), 'CONFIRMED', None),
    Card(29, "Olaf's Blessed Statue", 'magic_item', 'basic', (Cost((0, 3, 0, 0), 0),) * 3, 0, ('on_entry',), '+20 crystals.', (), 'CONFIRMED', None),
    Card(30, "Yjang's Forgotten Vase", 'magic_item', 'basic', (Cost((0, 1, 1, 1), 0),) * 3, 6, ('permanent:on_own_summon_from_hand',), 'Gain 1 energy of your choice every time you summon a card from your hand.', ('Nothing for cards put into play free by an effect, and nothing for its own summon. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(31, 'Elemental Amulet', 'magic_item', 'advanced', CHOICE_COST, 2, ('on_entry',), 'For each energy type paid: water → gain 2 energies; earth → +5 crystals; fire → draw 1 card; air → +1 gauge.', ('At most one token of each type. Put into play free by #9, #24 or #34, it gives all four effects. With Hand of Fortune, one type per Hand is gained without paying it. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(32, 'Tree of Light', 'magic_item', 'advanced', (Cost((0, 0, 0, 2), 0),) * 3, 12, ('activation',), 'Choose one per activation: pay 3 crystals to gain 1 energy, or discard 1 energy to be allowed to transmute this turn.', (), 'CONFIRMED', None),
    Card(33, 'Arcano Leech', 'familiar', 'advanced', (Cost((0, 0, 0, 0), 2), Cost((0, 0, 0, 0), 5), Cost((0, 0, 0, 0), 8)), 8, ('permanent:on_opponent_summon_from_hand',), 'Before an opponent summons a card from their hand, they must pay you 1 crystal.', ('Cards put into play free by an effect are exempt. [CONFIRMED: TTS, BGA]', 'An opponent with 0 crystals cannot summon from their hand at all. [SOURCE: BGA]'), 'CONFIRMED', None),
    Card(34, 'Crystal Orb', 'magic_item', 'advanced', (Cost((0, 0, 1, 1), 0),) * 3, 6, ('activation',), 'Choose one: (a) look at the top card of the draw pile and either put it back or discard any 4 energies to put it into play for free; (b) pay 3 crystals to discard the top card of the draw pile.', ('(a) needs a free gauge slot; the free-summon rules apply. [SOURCE]',), 'CONFIRMED', None),
    Card(35, 'Glutton Cauldron', 'magic_item', 'advanced', (Cost((0, 0, 0, 0), 0),) * 3, 0, ('activation', 'permanent:auto_trigger_at_7'), 'Activation: move 1 token from your reserve onto this card. As soon as it holds 7 tokens, sacrifice it: the 7 tokens go to your reserve and you gain 15 crystals.', ('Tokens on it are not part of the reserve. After it empties, discard down to your limit. Purse of Io does not apply. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(36, 'Vampiric Crown', 'magic_item', 'advanced', (Cost((1, 1, 0, 0), 0),) * 3, 0, ('on_entry',), "Either draw 1 card (you must keep it) or discard 1 card from your hand; gain energies equal to that card's prestige points.", ('The card is shown to everyone. Prestige of 0 or less gives nothing. [SOURCE]',), 'CONFIRMED', None),
    Card(37, 'Dragon Skull', 'magic_item', 'advanced', (Cost((0, 1, 1, 1), 0),) * 3, 9, ('activation',), 'Sacrifice 3 of your cards in play to gain 15 crystals.', ('Needs 3 or more cards in play. Purse of Io does not apply. [SOURCE]',), 'CONFIRMED', None),
    Card(38, 'Demon of Argos', 'familiar', 'advanced', (Cost((1, 1, 1, 1), 0),) * 3, 16, ('on_entry',), 'Each opponent loses 1 summoning gauge and draws 1 card (which they must keep).', ('Nobody sacrifices anything for being over their gauge. [SOURCE: TTS]',), 'CONFIRMED', None),
    Card(39, 'Titus Deepgaze', 'familiar', 'advanced', (Cost((0, 0, 1, 0), 0), Cost((0, 0, 2, 0), 0), Cost((0, 0, 3, 0), 0)), 4, ('permanent:end_of_round',), 'At each end of round, every opponent gives you 1 crystal.', ('If any opponent cannot pay, collect from those who can, then sacrifice Titus. [CONFIRMED: TTS, BGA]',), 'CONFIRMED', None),
    Card(40, 'Air Elemental', 'familiar', 'advanced', (Cost((3, 0, 0, 0), 0),) * 3, 12, ('on_entry',), "Every token in each opponent's reserve becomes an air token.", ('Tokens on #18 change; tokens on #4 and #35 do not. [SOURCE]',), 'CONFIRMED', None),
    Card(41, 'Thieving Fairies', 'familiar', 'advanced', (Cost((0, 0, 0, 0), 0), Cost((0, 0, 0, 0), 3), Cost((0, 0, 0, 0), 6)), 6, ('permanent:on_opponent_activation',), 'Whenever an opponent activates one of their cards, they give you 1 crystal and you also take 1 crystal from the supply.', ('An opponent with 0 crystals may still activate, and you still get the supply crystal. [SOURCE]',), 'CONFIRMED', None),
    Card(42, 'Cursed Treatise of Arus', 'magic_item', 'advanced', (Cost((0, 1, 0, 0), 0),) * 3, -10, ('on_entry', 'permanent:on_sacrifice'), 'Gain 2 energies, +10 crystals and +1 gauge. If this card is ever sacrificed, you discard your entire reserve.', ('Tokens on #18 are lost too; tokens on #4 and #35 are not. The penalty applies only when the card is sacrificed, not when #17 returns it to hand. [SOURCE: BGA]',), 'CONFIRMED', None),
    Card(43, 'Idol of the Familiar', 'magic_item', 'advanced', (Cost((1, 1, 1, 1), 0),) * 3, 0, ('on_entry', 'activation'), 'On entry, +10 crystals (2nd edition). Activation: +1 crystal per familiar you have in play.', ('1st edition: the activation only, without the +10. [SOURCE: BGA]',), 'CONFIRMED', FirstEdition((Cost((1, 1, 1, 1), 0),) * 3, 'Activation only: +1 crystal per familiar you have in play.', ('activation',))),
    Card(44, 'Necrotic Kriss', 'magic_item', 'advanced', (Cost((2, 1, 0, 0), 0),) * 3, 6, ('activation',), 'Discard a familiar from your hand or sacrifice one of your familiars in play: gain 4 energies of your choice.', (), 'CONFIRMED', None),
    Card(45, 'Lantern of Xidit', 'magic_item', 'advanced', (Cost((0, 0, 3, 3), 0),) * 3, 24, ('permanent:end_of_game',), 'At the end of the game, +3 crystals per token in your reserve.', ('Tokens on #18 count; tokens on #4 and #35 do not. [SOURCE]',), 'CONFIRMED', None),
    Card(46, 'Sealed Chest of Urm', 'magic_item', 'advanced', (Cost((0, 2, 0, 1), 0),) * 3, 10, ('permanent:end_of_game',), 'At the end of the game, +20 crystals if you have no familiar in play.', (), 'CONFIRMED', None),
    Card(47, 'Mirror of the Seasons', 'magic_item', 'advanced', (Cost((0, 0, 0, 0), 3),) * 3, 8, ('activation',), 'Pay X crystals to turn X identical tokens of your reserve into X tokens of one other type.', ('X is at least 1. [SOURCE]',), 'CONFIRMED', None),
    Card(48, 'Pendant of Ragnor', 'magic_item', 'advanced', (Cost((1, 1, 1, 0), 0),) * 3, 0, ('on_entry',), 'Gain 1 energy of your choice for each other magic item you have in play.', (), 'CONFIRMED', None),
    Card(49, 'Sid Nightshade', 'familiar', 'advanced', (Cost((0, 0, 0, 1), 0), Cost((0, 0, 0, 2), 0), Cost((0, 0, 0, 3), 0)), 6, ('on_entry',), 'If you alone have the most crystals, each opponent gives you 5 crystals (or all they have, if fewer).', ('A tie for most gives nothing. [SOURCE]',), 'CONFIRMED', None),
    Card(50, 'Damned Soul of Onys', 'familiar', 'advanced', (Cost((0, 1, 0, 0), 0),) * 3, -5, ('on_entry', 'activation', 'permanent:end_of_round'), 'On entry, the player who summons it gets +10 crystals and 1 water token. At each end of round, whoever holds it loses 3 crystals. Activation: discard 1 water token to pass it, ready for use, to the player on your left.', ('The receiving player takes it into play even with a full gauge. [SOURCE: TTS]', 'Only the summoner gets the entry bonus. [SOURCE: FAQ]', 'Its −5 prestige counts for whoever holds it at the end. [SOURCE]'), 'CONFIRMED', None),
)

CARD: dict[int, Card] = {c.num: c for c in CARDS}
COPIES = 2  # two copies of each card: 100 cards [CONFIRMED: RB, BGA]
APPRENTICE_CARDS: tuple[int, ...] = tuple(c.num for c in CARDS if c.level == "basic")
MASTER_CARDS: tuple[int, ...] = tuple(c.num for c in CARDS)

assert len(CARDS) == 50 and sorted(CARD) == list(range(1, 51))
