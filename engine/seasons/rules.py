"""The flow of a Seasons match (sheet sections 4, 7 and 8).

Phases: ``draft`` (master and magician levels: pick 1 of the cards offered, pass the rest left,
simultaneous and hidden) → ``build`` (every seat splits its 9 cards into the hand of year I,
Library II and Library III, simultaneous and hidden) → rounds of ``dice`` (the first player's
roll is automatic; each seat from the first player clockwise takes a die) and ``turn`` (each
seat's turn, in the same order) → ``over`` after year III.

A turn is several small actions. Step ``die``: before the die is resolved, Die of Malice (#15)
and Bonus 4 may be used, then ``resolve_die``; a seat with neither option has its die resolved
at once. Step ``main``: ``summon``, ``activate``, ``transmute``, ``bonus``, ``end_turn`` in any
order. Anything an effect asks is a question on ``state.stack`` (``tasks.py``) and is answered
before anything else; automatic steps there carry the round's end and the marker's move.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import memo
from engine.memo import same
from engine.protocol import Action, Event, IllegalAction, Step, check_request, private
from engine.rng import Rng
from engine.seasons import bonus, effects_apprentice, effects_master, questions, readings, scoring
from engine.seasons.cards import (
    APPRENTICE_CARDS,
    COPIES,
    ENERGIES,
    ENERGY_INDEX,
    MASTER_CARDS,
)
from engine.seasons.dice import DICE_PER_SEASON, FACES, SEASONS, Face, face_dict
from engine.seasons.dice import face as die_face
from engine.seasons.effects import Effect, effect_of
from engine.seasons.marker import move_marker
from engine.seasons.options import SeasonsOptions
from engine.seasons.state import Player, State, Turn, copy_json
from engine.seasons.summoning import (
    activate,
    activation_options,
    hand_summons,
    summon,
    summon_options,
)
from engine.seasons.table import (
    add_gauge,
    amulet_pool,
    draw,
    gain_crystals,
    gain_energy,
    has_room,
    in_turn_order,
    left_of,
    reserve_limit,
    reserve_size,
    spend,
    token_value,
)
from engine.seasons.tasks import (
    TASKS,
    AutoStep,
    Question,
    Task,
    ask,
    make,
    overflow_check,
    push,
    push_in_order,
    settle,
    task,
    top_question,
)

# The modules that fill the registries, imported once from above: every card's Effect
# (``effects.EFFECTS``) and the questions many cards share (``tasks.TASKS``). The framework reads
# the registries and never imports these back.
REGISTERING_MODULES = (effects_apprentice, effects_master, questions)


# --- setup -------------------------------------------------------------------------------------


def setup(players: int, seed: int, options: SeasonsOptions) -> State:
    rng = Rng(seed)
    opts = options.model_dump()
    dice_in_use: dict[str, list[int]] = {}
    for season in SEASONS:  # reading Q3: players + 1 of the 5 dice, chosen once
        dice = list(range(DICE_PER_SEASON))
        rng.shuffle(dice)
        dice_in_use[season] = sorted(dice[: players + 1])
    first = options.first_player
    if first is not None and first >= players:
        raise IllegalAction("bad_options", f"first_player: there is no seat {first}")
    if first is None:
        first = rng.below(players)
    seats = [Player() for _ in range(players)]
    level = options.level
    numbers = APPRENTICE_CARDS if level in ("apprentice", "magician") else MASTER_CARDS
    deck = [n for n in numbers for _ in range(COPIES)]
    if level == "apprentice":  # reading Q9: one pre-built set each, the rest is the draw pile
        sets = list(readings.APPRENTICE_SETS)
        rng.shuffle(sets)
        for seat, player in enumerate(seats):
            player.hand = sorted(sets[seat])
            for card in sets[seat]:
                deck.remove(card)
        phase = "build"
    rng.shuffle(deck)
    if level != "apprentice":
        for player in seats:
            player.draft = sorted(deck[: readings.DRAFT_CARDS])
            del deck[: readings.DRAFT_CARDS]
        phase = "draft"
    return State(
        players, opts, phase, 1, 1, 0, first, dice_in_use, "winter", [], None, None, 0,
        deck, [], rng.dump(), 1, [], 0, 0, None, seats,
    )


# --- the Prelude -------------------------------------------------------------------------------


def _draft_pick(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.seats[seat]
    player.pick = action["card"]
    events.append({"type": "draft_picked", "seat": seat})
    if any(p.pick is None for p in state.seats_to_read()):  # reading: copies no seat
        return
    # every seat has picked: all keep their pick, the rest goes left [RULEBOOK]
    rest = []
    for p in state.seats:
        assert p.pick is not None
        p.hand.append(p.pick)
        p.hand.sort()
        draft = p.draft[:]  # replaced, never changed in place: Player.copy shares it
        draft.remove(p.pick)
        p.draft = draft
        p.pick = None
        rest.append(p.draft)
    for s in range(state.players):
        state.seats[left_of(s, state.players)].draft = rest[s]
    state.draft_round += 1
    events.append({"type": "draft_passed", "picks": state.draft_round})
    if len(state.seats[0].draft) == 1:  # the last card is simply taken
        for p in state.seats:
            p.hand.extend(p.draft)
            p.hand.sort()
            p.draft = []
        state.phase = "build"
        events.append({"type": "draft_over"})
        for s, p in enumerate(state.seats):
            events.append(private({"type": "cards_received", "cards": p.hand[:],
                                   "why": "draft"}, s))
    else:
        for s, p in enumerate(state.seats):
            events.append(private({"type": "draft_offer", "cards": p.draft[:]}, s))


def _draft_options(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    if player.pick is not None:
        return []
    return [{"type": "draft_pick", "card": c} for c in sorted(set(player.draft))]


def _build_options(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    if player.built:
        return []
    out: list[Action] = []
    # confirm first and reset last: a bot that breaks ties by the first action never loops
    if all(len(lib) == readings.LIBRARY_SIZE for lib in player.libraries):
        out.append({"type": "confirm_libraries"})
    for lib in (2, 3):
        if len(player.libraries[lib - 2]) < readings.LIBRARY_SIZE:
            out += [{"type": "to_library", "card": c, "library": lib}
                    for c in sorted(set(player.hand))]
    if player.libraries[0] or player.libraries[1]:
        out.append({"type": "reset_libraries"})
    return out


def _to_library(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.seats[seat]
    player.hand.remove(action["card"])
    # a library is replaced, never changed in place: Player.copy shares it
    i = action["library"] - 2
    player.libraries[i] = sorted([*player.libraries[i], action["card"]])


def _reset_libraries(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.seats[seat]
    player.hand = sorted(player.hand + player.libraries[0] + player.libraries[1])
    player.libraries = [[], []]


def _confirm_libraries(state: State, seat: int, action: Action, events: list[Event]) -> None:
    state.seats[seat].built = True
    events.append({"type": "libraries_built", "seat": seat})
    if all(p.built for p in state.seats_to_read()):
        push(state, make("start_round", state.first_player))


# --- rounds ------------------------------------------------------------------------------------


@task
class StartRound(AutoStep):
    """The first player rolls the current season's dice [RULEBOOK]."""

    kind = "start_round"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        rng = Rng.load(state.rng)
        state.round += 1
        state.round_season = state.season
        state.dice = [{"die": d, "side": rng.below(FACES), "taken_by": None}
                      for d in state.dice_in_use[state.round_season]]
        state.rng = rng.dump()
        for player in state.seats:
            player.die = None
        state.phase = "dice"
        state.chooser = state.first_player
        state.turn = None
        state.turns_taken = 0
        events.append({"type": "round_started", "round": state.round, "year": state.year,
                       "month": state.month, "season": state.round_season,
                       "first_player": state.first_player, "dice": [dict(d) for d in state.dice]})


def _take_die(state: State, seat: int, action: Action, events: list[Event]) -> None:
    state.dice[action["die"]] = {**state.dice[action["die"]], "taken_by": seat}
    state.seats[seat].die = action["die"]
    events.append({"type": "die_taken", "seat": seat, "die": action["die"]})
    nxt = left_of(seat, state.players)
    if nxt == state.first_player:
        state.phase = "turn"
        state.chooser = None
        start_turn(state, state.first_player, events)
    else:
        state.chooser = nxt


def face_of(state: State, seat: int) -> Face:
    index = state.seats[seat].die
    assert index is not None
    d = state.dice[index]
    return die_face(state.round_season, d["die"], d["side"])


def _die_step_options(state: State, seat: int) -> list[Action]:
    out: list[Action] = [{"type": "resolve_die"}]
    out += bonus.bonus_options(state, seat)
    for entry in state.seats_to_read()[seat].in_play:  # read only (start_turn asks in apply)
        if effect_of(entry.card).when == "die":
            out += activation_options(state, seat, entry)
    return out


def start_turn(state: State, seat: int, events: list[Event]) -> None:
    state.turn = Turn(seat, "die")
    events.append({"type": "turn_started", "seat": seat})
    if len(_die_step_options(state, seat)) == 1:  # nothing to do before the die: resolve it
        resolve_die(state, seat, events)


def resolve_die(state: State, seat: int, events: list[Event]) -> None:
    """draw → energy → crystals → gauge → the rest [RULEBOOK]."""
    turn = state.own_turn()  # changed below
    face = face_of(state, seat)
    turn.step = "main"
    turn.may_transmute = turn.may_transmute or face.transmute
    index = state.seats[seat].die
    d = state.dice[index or 0]
    events.append({"type": "die_resolved", "seat": seat, "die": index, "side": d["side"],
                   "season": state.round_season,
                   "face": face_dict(state.round_season, d["die"], d["side"])})
    if face.card:
        cards = draw(state, 2 if turn.card_choice else 1, events)
        if cards:
            events.append({"type": "card_drawn", "seat": seat, "count": len(cards)})
            events.append(private({"type": "you_drew", "cards": cards[:]}, seat))
            kind = "keep_one" if len(cards) > 1 else "keep_or_discard"
            ask(state, kind, seat, secret={"cards": cards}, why="die")
    gain_energy(state, seat, face.energy, events, "die")
    gain_crystals(state, seat, face.crystals, events, "die")
    add_gauge(state, seat, face.gauge, events, "die")


def _end_turn(state: State, seat: int, action: Action, events: list[Event]) -> None:
    # activated cards are ready again [SOURCE: BGA] (a seat with none is not copied)
    for s, player in enumerate(state.seats_to_read()):
        if any(entry.used or entry.fresh for entry in player.in_play):
            for entry in state.seats[s].own_entries():
                entry.used = False
                entry.fresh = False
    events.append({"type": "turn_ended", "seat": seat})
    state.turns_taken += 1
    state.turn = None
    if state.turns_taken < state.players:
        start_turn(state, left_of(seat, state.players), events)
        return
    order = in_turn_order(state)
    push_in_order(state, [make("end_of_round", s) for s in order] + [make("advance_time", 0)])


def _has_end_of_round(card: int) -> bool:
    return type(effect_of(card)).on_end_of_round is not Effect.on_end_of_round


def _end_of_round_next(state: State, seat: int, pending: list[int], events: list[Event]) -> None:
    """Resolve the seat's next end-of-round card; with two different ones still to come, the
    player chooses which first (sheet section 8.4 [SOURCE: FAQ]). Each card's own questions are
    answered before the next card resolves."""
    player = state.seats[seat]
    alive = [i for i in pending if player.entry(i) is not None]
    if not alive:
        return
    if len({player.entry(i).card for i in alive}) >= 2:  # type: ignore[union-attr]
        ask(state, "end_of_round_order", seat, pending=alive)
        return
    _end_of_round_one(state, seat, alive[0], alive[1:], events)


def _end_of_round_one(
    state: State, seat: int, entry_id: int, rest: list[int], events: list[Event]
) -> None:
    if rest:
        push(state, make("end_of_round_rest", seat, pending=rest))
    entry = state.seats[seat].entry(entry_id)
    assert entry is not None
    effect_of(entry.card).on_end_of_round(state, seat, entry, events)


@task
class EndOfRound(AutoStep):
    """One seat's end-of-round effects (#13, #14, #39, #50)."""

    kind = "end_of_round"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        seat = t["seat"]
        ids = [e.id for e in state.seats_to_read()[seat].in_play if _has_end_of_round(e.card)]
        _end_of_round_next(state, seat, ids, events)


@task
class EndOfRoundRest(AutoStep):
    kind = "end_of_round_rest"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        _end_of_round_next(state, t["seat"], t["pending"], events)


@task
class EndOfRoundOrder(Question):
    """Which of your end-of-round cards resolves next (one choice per different card)."""

    kind = "end_of_round_order"

    def options(self, state: State, t: Task) -> list[Action]:
        player = state.seats[t["seat"]]
        out: list[Action] = []
        cards: set[int] = set()
        for i in t["pending"]:
            entry = player.entry(i)
            if entry is not None and entry.card not in cards:
                cards.add(entry.card)
                out.append({"type": "resolve_card", "slot": i})
        return out

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        rest = [i for i in t["pending"] if i != action["slot"]]
        _end_of_round_one(state, t["seat"], action["slot"], rest, events)


@task
class AdvanceTime(AutoStep):
    """The leftover die moves the marker; the first player passes left [RULEBOOK]."""

    kind = "advance_time"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        state.phase = "dice"
        if state.year > readings.YEARS:  # Temporal Boots went past year III: game over
            finish(state, events)
            return
        leftover = next(d for d in state.dice if d["taken_by"] is None)
        time = die_face(state.round_season, leftover["die"], leftover["side"]).time
        state.first_player = left_of(state.first_player, state.players)
        push(state, make("next_round", state.first_player))
        move_marker(state, time, events, "leftover_die")


@task
class NextRound(AutoStep):
    kind = "next_round"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        if state.year > readings.YEARS:
            finish(state, events)
        else:
            push(state, make("start_round", state.first_player))


@task
class SeasonChange(AutoStep):
    kind = "season_change"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        events.append({"type": "season_changed", "season": state.season})
        for seat in reversed(in_turn_order(state)):  # pushed last-first: first player first
            push(state, make("season_change_seat", seat))


@task
class SeasonChangeSeat(AutoStep):
    kind = "season_change_seat"

    def run(self, state: State, t: Task, events: list[Event]) -> None:
        seat = t["seat"]
        player = state.seats[seat]
        for entry in list(player.in_play):
            if player.entry(entry.id) is not None:
                effect_of(entry.card).on_season_change(state, seat, entry, events)


def finish(state: State, events: list[Event]) -> None:
    state.stack = []
    state.result = scoring.final_result(state, events)
    state.phase = "over"
    state.turn = None
    state.chooser = None
    events.append({"type": "game_over", **state.result})


def _overflow(state: State) -> bool:
    """Push an overflow discard for the first seat over its reserve limit, if any."""
    # the usual case, first (this runs before every automatic step): no reserve above the
    # lowest limit (list's own iterator: reading every seat must not copy them all)
    limit = readings.RESERVE_LIMIT
    for p in _list_iter(state.seats):
        e = p.energy
        if e[0] + e[1] + e[2] + e[3] > limit:
            break
    else:
        return False
    seats = state.seats_to_read()
    start = state.turn.seat if state.turn else state.first_player
    for seat in in_turn_order(state, start):
        size = reserve_size(seats[seat])
        if size <= readings.RESERVE_LIMIT:  # no card lowers the limit below 7
            continue
        if size > reserve_limit(state, seat) and not any(
            t["kind"] == "discard_energy" and t["seat"] == seat for t in state.stack
        ):
            ask(state, "discard_energy", seat)
            return True
    return False


_list_iter = list.__iter__
overflow_check.append(_overflow)


# --- the main step of a turn -------------------------------------------------------------------


def transmute_options(state: State, seat: int) -> list[Action]:
    turn = state.turn
    if turn is None or not turn.may_transmute or turn.step != "main":
        return []
    player = state.seats[seat]
    pool = amulet_pool(player)
    out: list[Action] = []
    append = out.append  # loops, not comprehensions (a frame each): every main step lists these
    energy = player.energy
    for k, e in enumerate(ENERGIES):
        for n in range(1, energy[k] + 1):
            append({"type": "transmute", "energy": e, "count": n})
        for n in range(1, pool[k] + 1):
            append({"type": "transmute", "energy": e, "count": n, "amulet": True})
    return out


def _transmute(state: State, seat: int, action: Action, events: list[Event]) -> None:
    assert state.turn is not None
    k = ENERGY_INDEX[action["energy"]]
    n = action["count"]
    vec = [0, 0, 0, 0]
    vec[k] = n
    player = state.seats[seat]
    if action.get("amulet"):
        spend(player, [0, 0, 0, 0], vec)
    else:
        spend(player, vec, [0, 0, 0, 0])
    value = token_value(state, seat, k, state.turn.transmute_bonus)
    player.crystals += value * n
    events.append({"type": "transmuted", "seat": seat, "energy": action["energy"], "count": n,
                   "crystals": value * n})


def _main_options(state: State, seat: int) -> list[Action]:
    player = state.seats[seat]
    out = hand_summons(state, seat)
    for entry in player.in_play:
        if effect_of(entry.card).when == "main":
            out += activation_options(state, seat, entry)
    out += transmute_options(state, seat)
    out += bonus.bonus_options(state, seat)
    out.append({"type": "end_turn"})
    return out


# --- checking one action -----------------------------------------------------------------------


def _check_summon(state: State, seat: int, action: Action) -> list[Action]:
    player = state.seats[seat]
    card = action.get("card")
    # a bool is an int to Python (True == 1): it must not name card 1
    if not isinstance(card, int) or isinstance(card, bool) or card not in player.hand:
        raise IllegalAction("not_in_hand", f"card {card!r} is not in your hand")
    if not has_room(player):
        raise IllegalAction("gauge_full", "your summoning gauge has no free slot")
    options = summon_options(state, seat, card)
    if not options:
        raise IllegalAction("cannot_afford", f"you cannot pay for card {card}")
    return options


def _check_activate(state: State, seat: int, action: Action) -> list[Action]:
    entry = state.seats[seat].entry(action.get("slot"))  # type: ignore[arg-type]
    if entry is None:
        slot = action.get("slot")
        raise IllegalAction("not_in_play", f"you have no card in play with id {slot!r}")
    if entry.used:
        raise IllegalAction("already_used", f"card {entry.card} has been activated this turn")
    assert state.turn is not None
    if effect_of(entry.card).when != state.turn.step:
        code = "die_first" if state.turn.step == "die" else "die_resolved"
        raise IllegalAction(code, f"card {entry.card} cannot be activated at this step")
    options = activation_options(state, seat, entry)
    if not options:
        raise IllegalAction("no_activation", f"card {entry.card} cannot be activated now")
    return options


def _check_transmute(state: State, seat: int, action: Action) -> list[Action]:
    turn = state.turn
    assert turn is not None
    if not turn.may_transmute:
        raise IllegalAction("no_permission", "you may not transmute this turn")
    name = action.get("energy")
    k = ENERGY_INDEX.get(name) if isinstance(name, str) else None
    n = action.get("count")
    if k is None or not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise IllegalAction("bad_action", "transmute takes an energy type and a count ≥ 1")
    player = state.seats[seat]
    have = amulet_pool(player)[k] if action.get("amulet") else player.energy[k]
    if n > have:
        raise IllegalAction("cannot_afford", f"you have {have} {action['energy']} tokens")
    return transmute_options(state, seat)


def _check_bonus(state: State, seat: int, action: Action) -> list[Action]:
    bonus.check_bonus(state, seat, action)
    return bonus.bonus_options(state, seat)


def _check_in_main(state: State, seat: int) -> None:
    assert state.turn is not None
    if state.turn.step != "main":
        raise IllegalAction("die_first", "resolve your season die first")


Checker = Callable[[State, int, Action], list[Action]]
Handler = Callable[[State, int, Action, list[Event]], None]


def _opts(fn: Callable[[State, int], list[Action]]) -> Checker:
    return lambda state, seat, action: fn(state, seat)


def _in_main(check: Checker) -> Checker:
    def checked(state: State, seat: int, action: Action) -> list[Action]:
        _check_in_main(state, seat)
        return check(state, seat, action)

    return checked


def _check_take_die(state: State, seat: int, action: Action) -> list[Action]:
    i = action.get("die")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(state.dice):
        raise IllegalAction("no_such_die", f"there is no die {i!r} this round")
    if state.dice[i]["taken_by"] is not None:
        raise IllegalAction("die_taken", f"die {i} is already taken")
    return [{"type": "take_die", "die": i}]


def _check_draft(state: State, seat: int, action: Action) -> list[Action]:
    if state.seats[seat].pick is not None:
        raise IllegalAction("already_picked", "you have picked this pass already")
    if action.get("card") not in state.seats[seat].draft:
        raise IllegalAction("not_offered", f"card {action.get('card')!r} is not offered to you")
    return _draft_options(state, seat)


def _check_build(state: State, seat: int, action: Action) -> list[Action]:
    player = state.seats[seat]
    if player.built:
        raise IllegalAction("already_built", "your libraries are built")
    if action["type"] == "to_library":
        if action.get("card") not in player.hand:
            raise IllegalAction("not_in_hand", f"card {action.get('card')!r} is not unplaced")
        lib = action.get("library")
        if lib in (2, 3) and len(player.libraries[lib - 2]) >= readings.LIBRARY_SIZE:
            raise IllegalAction("library_full", f"Library {lib} holds 3 cards already")
    if action["type"] == "confirm_libraries" and not all(
        len(lib) == readings.LIBRARY_SIZE for lib in player.libraries
    ):
        raise IllegalAction("libraries_incomplete", "put 3 cards in each library first")
    return _build_options(state, seat)


def _resolve_die_action(state: State, seat: int, action: Action, events: list[Event]) -> None:
    resolve_die(state, seat, events)


def _check_resolve(state: State, seat: int, action: Action) -> list[Action]:
    assert state.turn is not None
    if state.turn.step != "die":
        raise IllegalAction("die_resolved", "your die is already resolved")
    return [{"type": "resolve_die"}]


def _bonus(state: State, seat: int, action: Action, events: list[Event]) -> None:
    bonus.use_bonus(state, seat, action, events)


def _summon(state: State, seat: int, action: Action, events: list[Event]) -> None:
    summon(state, seat, action, events)


def _activate(state: State, seat: int, action: Action, events: list[Event]) -> None:
    activate(state, seat, action, events)


# phase → action type → (checker returning the legal actions of that type, handler)
ACTIONS: dict[str, dict[str, tuple[Checker, Handler]]] = {
    "draft": {"draft_pick": (_check_draft, _draft_pick)},
    "build": {
        "to_library": (_check_build, _to_library),
        "reset_libraries": (_check_build, _reset_libraries),
        "confirm_libraries": (_check_build, _confirm_libraries),
    },
    "dice": {"take_die": (_check_take_die, _take_die)},
    "turn": {
        "resolve_die": (_check_resolve, _resolve_die_action),
        "summon": (_in_main(_check_summon), _summon),
        "activate": (_check_activate, _activate),
        "transmute": (_in_main(_check_transmute), _transmute),
        "bonus": (_check_bonus, _bonus),
        "end_turn": (_in_main(lambda s, seat, a: [{"type": "end_turn"}]), _end_turn),
    },
}
ANSWER_TYPES = frozenset(
    {"gain_energy", "discard_energy", "keep_card", "discard_card", "return_energy",
     "take_energy", "sacrifice", "return_card", "move_marker", "choose_player", "choose_card",
     "resolve_card",
     "give_card", "pass", "choose"}
)


# --- who owes what -----------------------------------------------------------------------------


def to_move(state: State) -> frozenset[int]:
    known = state.memo  # memo.to_move's usual case, inlined (asked several times a step)
    if known is not None:
        found: frozenset[int] | None = known.get(memo.TO_MOVE)
        if found is not None:
            return found
    return memo.to_move(state, _to_move)


def _to_move(state: State) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if state.stack:
        return frozenset({state.stack[-1]["seat"]})
    if state.phase == "draft":
        return frozenset(s for s, p in enumerate(state.seats) if p.pick is None)
    if state.phase == "build":
        return frozenset(s for s, p in enumerate(state.seats) if not p.built)
    if state.phase == "dice":
        return frozenset() if state.chooser is None else frozenset({state.chooser})
    if state.phase == "turn" and state.turn is not None:
        return frozenset({state.turn.seat})
    return frozenset()


def legal_actions(state: State, seat: int) -> list[Action]:
    return memo.legal_actions(state, seat, _legal_actions)


def _legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_move(state):
        return []
    found = top_question(state)
    if found is not None:
        q, t = found
        return q.options(state, t)
    if state.phase == "draft":
        return _draft_options(state, seat)
    if state.phase == "build":
        return _build_options(state, seat)
    if state.phase == "dice":
        return [{"type": "take_die", "die": i} for i, d in enumerate(state.dice)
                if d["taken_by"] is None]
    assert state.turn is not None
    if state.turn.step == "die":
        return _die_step_options(state, seat)
    return _main_options(state, seat)


SECRET_BUILDING = frozenset({"to_library", "reset_libraries"})
"""The library-building steps nobody else may count (issue 22): they leave ``tick`` as it is, so
neither the view's ``tick`` nor the stage after the Prelude tells how many a seat took. Only
``confirm_libraries`` (the piles face down: public) counts."""


def stage(state: State) -> str:
    if state.phase == "draft":
        return f"draft:{state.draft_round}"
    if state.phase == "build":
        return "build"
    return f"{state.phase}:{state.tick}"


# --- applying one action -----------------------------------------------------------------------


MAX_ACTION_DEPTH = 4  # the deepest legal action is an object in an object ("amulet")
MAX_ACTION_ITEMS = 64


def _plain(value: object) -> bool:
    """No action field is ever a number with a fraction, and no legal action is deep or big:
    refuse floats (3.0, NaN) before a checker indexes a list with one, and deep or huge
    values before anything (an error message, a comparison) recurses through them."""
    todo = [(value, 0)]  # a loop, not recursion
    seen = 0
    while todo:
        item, depth = todo.pop()
        seen += 1
        if isinstance(item, float) or depth > MAX_ACTION_DEPTH or seen > MAX_ACTION_ITEMS:
            return False
        if isinstance(item, dict):
            todo.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item)
    return True


def offered(action: Action, options: list[Action]) -> bool:
    return any(same(action, o) for o in options)


def apply(state: State, seat: int, action: Action) -> Step:
    # One of the legal actions worked out for this state (engine.memo): none of the checks
    # below can refuse it, so they are skipped.
    listed = memo.listed(state, seat, action)
    if not listed:
        _check(state, seat, action)
    new = state.copy()
    if not (state.phase == "build" and action["type"] in SECRET_BUILDING):
        new.tick += 1
    events: list[Event] = []
    found = top_question(state)
    if found is not None:
        q, t = found
        if not listed and not offered(action, q.options(state, t)):
            if action["type"] not in ANSWER_TYPES:
                raise IllegalAction("answer_first", f"answer the pending {t['kind']} first")
            raise IllegalAction("not_offered", f"{action} is not an answer to {t['kind']}")
        answered = copy_json(new.stack.pop())  # shared with the previous state until now
        q.answer(new, answered, action, events)
    else:
        kind = action["type"]
        entry = ACTIONS.get(state.phase, {}).get(kind)
        if entry is None and kind in ANSWER_TYPES:
            raise IllegalAction("no_question", f"nothing asks you for {kind!r} now")
        if entry is None:
            raise IllegalAction(
                "wrong_phase", f"{kind!r} cannot be played in the {state.phase} phase"
            )
        check, handler = entry
        if not listed and not offered(action, check(state, seat, action)):
            raise IllegalAction("not_offered", f"{action} is not one of your legal actions")
        handler(new, seat, action, events)
    waiting = settle(new, events)
    new.done()
    if waiting is not None:  # the question's options are its seat's legal actions
        memo.remember(new, new.stack[-1]["seat"], waiting)
    return Step(new, events)


def _check(state: State, seat: int, action: Action) -> None:
    """The checks before any rule, for an action that is not a listed legal action."""
    if not _plain(action):  # first: nothing below may meet a float or recurse through a deep value
        raise IllegalAction(
            "bad_action", "action fields are whole numbers, strings, short lists or objects"
        )
    check_request(seat, action, state.players, state.phase == "over")
    kind = action["type"]
    known = kind in ANSWER_TYPES or any(kind in table for table in ACTIONS.values())
    if not known:
        raise IllegalAction("unknown_action", f"no action called {kind!r}")
    if seat not in to_move(state):
        raise IllegalAction("not_your_turn", "you owe no decision now")


__all__ = ["TASKS", "Question", "apply", "legal_actions", "move_marker", "setup", "stage",
           "to_move"]
