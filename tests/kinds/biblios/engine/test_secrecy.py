"""R22, who knows what: no view or event tells a seat (or a spectator) a card it may not know.

What each seat may know is worked out here, independently of the engine's `view` code, from the
omniscient zones (`view(state, "all")["zones"]`), the public discard and the action just taken:

- everyone: the public space, the revealed auction card, the church card being resolved (this
  project plays acquired church cards face up), the public discard (Gold paid for non-Gold cards,
  unsold auction cards, church cards used or not), and every card that was ever so shown;
- seat s also: every card ever in its hand, the card it draws and places and its self card (R3),
  the cards it put in the auction pile, the cards it gave face down (R12), and in a penalty
  (R14/R15) the card taken, for taker and loser both;
- after the game, every final hand, to everyone;
- never, to anyone: draw-pile cards not yet drawn, the cards removed at setup (R1, even after the
  game), the order of the auction pile.

Each view is then scanned, as JSON text, for all 87 card ids.
"""

import json
import random

from hypothesis import given

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, DECK_ORDER

from .helpers import budget, card_ids_in, game_setups, policy_seeds, random_playout, start

# Keys that would hand out hidden state wholesale, at any depth of a player's or spectator's view.
SECRET_KEYS = {
    "seed", "rng_draws", "zones", "draw_pile", "removed", "auction_pile", "placed_by",
    "hidden_discard", "setup", "deck", "secret", "secret_to", "self_card_of", "drawing_of",
}  # fmt: skip


class Knowledge:
    """What every seat may legitimately know so far (R22), learnt state by state."""

    def __init__(self, num_players: int):
        self.n = num_players
        self.public: set[str] = set()
        self.known = [set() for _ in range(num_players)]
        self.placed = [set() for _ in range(num_players)]  # put in the auction pile, per seat
        self.final: set[str] = set()  # the final hands, once the game is over
        self.zones = None

    def see(self, state: biblios.State, last) -> None:
        """Learn from `state`, reached by `last` = (seat, action), or None for the first state."""
        zones = biblios.view(state, "all")["zones"]
        before, self.zones = self.zones, zones
        if last is not None:
            seat, action = last
            if action["type"] == "place" and action["to"] == "auction":
                (card,) = before["drawing"]
                self.placed[seat].add(card)
                self.known[seat].add(card)
            if action["type"] == "refuse":
                self._penalty(seat, before, zones, state)
        self.public.update(
            zones["public_space"], zones["auction_card"], zones["church_card"], state.discard
        )
        for seat, hand in enumerate(zones["hands"]):
            self.known[seat].update(hand)
        if state.phase == "gift":  # R3: the active player sees what it draws and keeps
            self.known[state.active].update(zones["drawing"], zones["self_card"])
        if state.phase == "over":  # R22: hands are shown at the end
            self.final = {card for hand in zones["hands"] for card in hand}

    def _penalty(self, loser: int, before: dict, after: dict, state) -> None:
        """R14: each taker sees the card it took; R15: the left neighbour sees the card it
        draws out of the game. The loser knew them all already (they were in its hand)."""
        lost = set(before["hands"][loser]) - set(after["hands"][loser])
        taken = set()
        for taker in range(self.n):
            if taker != loser:
                got = set(after["hands"][taker]) - set(before["hands"][taker])
                assert got <= lost and len(got) <= 1, ("R14: one card per taker", taker, got)
                self.known[taker] |= got
                taken |= got
        dropped = lost - taken
        if dropped:  # R15: out of the game face down, seen by the player on the loser's left
            assert state.options["medieval_bluff"] and len(dropped) == 1, dropped
            assert dropped <= set(after["discard"]) - set(state.discard)
            self.known[(loser + 1) % self.n] |= dropped

    def allowed(self, seat) -> set[str]:
        """Card ids `seat` may see (None: a spectator, who sees only what is public)."""
        if seat is None:
            return self.public | self.final
        return self.public | self.known[seat] | self.final

    def unknown_to(self, seat) -> set[str]:
        return set(CARD_IDS) - self.allowed(seat)


def where(value, cards, path="view"):
    """The paths inside `value` at which any of `cards` is written (for failure messages)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if card_ids_in(str(key)) & cards:
                found.append(f"{path} key {key!r}")
            found += where(item, cards, f"{path}[{key!r}]")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found += where(item, cards, f"{path}[{i}]")
    elif isinstance(value, str) and card_ids_in(value) & cards:
        found.append(f"{path} = {value!r}")
    return found


def all_keys(value) -> set:
    if isinstance(value, dict):
        keys = set(value)
        for item in value.values():
            keys |= all_keys(item)
        return keys
    if isinstance(value, list):
        return set().union(*map(all_keys, value)) if value else set()
    return set()


def describe(state, seat, last) -> str:
    return (
        f"seat {seat!r}, {state.phase}/{state.step}, version {state.version}, after {last}, "
        f"events {[e['type'] for e in state.events]}"
    )


def assert_shows_only_allowed(state, seat, knowledge: Knowledge, last) -> dict:
    seen = biblios.view(state, seat)
    allowed = knowledge.allowed(seat)
    shown = card_ids_in(json.dumps(seen))
    removed = shown & set(knowledge.zones["removed"])
    assert not removed, f"R1: {describe(state, seat, last)} sees removed {where(seen, removed)}"
    leaked = shown - allowed
    assert not leaked, f"{describe(state, seat, last)} sees {where(seen, leaked)}"
    events = biblios.events_for(state, seat)
    leaked = card_ids_in(json.dumps(events)) - allowed
    assert not leaked, f"{describe(state, seat, last)} is told {where(events, leaked, 'events')}"

    keys = all_keys(seen) | all_keys(events)
    assert not keys & SECRET_KEYS, f"{describe(state, seat, last)}: keys {keys & SECRET_KEYS}"
    if state.phase != "over":
        assert "hands" not in seen and "result" not in seen, describe(state, seat, last)
    if seat is None:
        assert seen["hand"] is None and seen["legal_actions"] == []
        assert seen["my_auction_cards"] == [] and seen["my_hidden_discards"] == []
    return seen


def observers(num_players: int) -> list:
    return [*range(num_players), None]


@budget(30)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_no_view_or_event_shows_a_card_its_seat_may_not_know(setup, policy_seed):
    """R22 (and R1, R3, R12, R14, R15): at every state of a game, every card id anywhere in
    `view(state, s)` and `events_for(state, s)` is one that s may know, for every seat s and for
    a spectator; removed cards are never shown, even after the game; no view carries the seed,
    the draw pile, the removed cards, the auction pile or the omniscient zones; a spectator has
    no hand and no actions."""
    knowledge = Knowledge(setup["num_players"])
    last = None
    for state, seat, action in random_playout(start(setup), random.Random(policy_seed)):
        knowledge.see(state, last)
        for observer in observers(state.num_players):
            assert_shows_only_allowed(state, observer, knowledge, last)
        last = (seat, action)
    assert state.phase == "over"


def variant(state: biblios.State, change) -> biblios.State:
    data = json.loads(biblios.dumps(state))
    change(data)
    return biblios.loads(json.dumps(data))


def secret_slots(data: dict) -> list:
    """Every place in a state (as JSON data) that holds one card: (getter, setter) pairs."""

    def slot(container, key):
        return (lambda: container[key], lambda card: container.__setitem__(key, card))

    slots = [slot(data["draw_pile"], i) for i in range(len(data["draw_pile"]))]
    for hand in data["hands"]:
        slots += [slot(hand, i) for i in range(len(hand))]
    slots += [slot(data["auction_pile"], i) for i in range(len(data["auction_pile"]))]
    slots += [slot(entry, 0) for entry in data["hidden_discard"]]
    for field in ("drawing", "self_card"):
        if data[field] is not None:
            slots.append(slot(data, field))
    return slots


@budget(30)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_a_view_is_the_same_whatever_the_cards_its_seat_cannot_know(setup, policy_seed):
    """R22, differentially: exchanging a card that seat s may not know (in another hand, in
    the draw pile, in the auction pile, discarded face down, being placed or kept by another
    player) with a card removed at setup (R1: never known to anyone) must leave s's view
    exactly as it was; so must shuffling the draw pile and the auction pile (their order is
    hidden from all). Otherwise the view would depend on, and so reveal something about, a card
    s may not know (a count, a kind, a cap, an order…)."""
    rng = random.Random(policy_seed)
    knowledge = Knowledge(setup["num_players"])
    last = None
    for state, seat, action in random_playout(start(setup), random.Random(policy_seed)):
        knowledge.see(state, last)
        last = (seat, action)
        if rng.random() > 0.04 and state.step != "church" and seat is not None:
            continue
        for observer in observers(state.num_players):
            hidden = knowledge.unknown_to(observer)
            seen = biblios.view(state, observer)

            def exchange(data, hidden=hidden):
                removed_i = rng.randrange(len(data["removed"]))
                slots = [s for s in secret_slots(data) if s[0]() in hidden]
                for get, put in rng.sample(slots, min(3, len(slots))):
                    card, other = get(), data["removed"][removed_i]
                    put(other)
                    data["removed"][removed_i] = card
                    if card in data["placed_by"]:
                        data["placed_by"][other] = data["placed_by"].pop(card)

            def shuffle_piles(data):
                rng.shuffle(data["draw_pile"])
                rng.shuffle(data["auction_pile"])
                rng.shuffle(data["removed"])

            for change in (exchange, shuffle_piles):
                other = variant(state, change)
                assert biblios.view(other, observer) == seen, (
                    f"{change.__name__}: {describe(state, observer, last)}"
                )


@budget(15)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_own_auction_cards_are_shown_as_a_set_in_deck_order(setup, policy_seed):
    """R22: each player sees the cards it put in the auction pile, as a set (after the R9
    shuffle nobody knows the order): `my_auction_cards` is exactly the seat's cards still in the
    pile, sorted in deck order, never in pile order; and reordering the pile changes no view."""
    rng = random.Random(policy_seed)
    knowledge = Knowledge(setup["num_players"])
    last = None
    pile_order_differed = False
    for state, seat, action in random_playout(start(setup), random.Random(policy_seed)):
        knowledge.see(state, last)
        last = (seat, action)
        pile = knowledge.zones["auction_pile"]
        for s in range(state.num_players):
            mine = [card for card in pile if card in knowledge.placed[s]]
            shown = biblios.view(state, s)["my_auction_cards"]
            assert shown == sorted(mine, key=DECK_ORDER.__getitem__), describe(state, s, last)
            pile_order_differed |= shown != mine
        if state.phase == "auction" and len(pile) >= 2 and rng.random() < 0.1:
            reordered = variant(state, lambda data: data["auction_pile"].reverse())
            for observer in observers(state.num_players):
                assert biblios.view(reordered, observer) == biblios.view(state, observer)
    assert state.phase == "over"


def test_card_id_scanner_matches_whole_ids_only():
    """The scanner behind these tests: whole ids only, wherever they are written."""
    assert card_ids_in('{"a": "gold-1-01", "b": ["monks-A"]}') == {"gold-1-01", "monks-A"}
    assert card_ids_in("gold-1-1 gold-1-011 xmonks-A monks-AB monks_A") == set()
    assert card_ids_in("you drew church-up1-1.") == {"church-up1-1"}
    assert card_ids_in(json.dumps({"church-down2-2": 1})) == {"church-down2-2"}
    assert card_ids_in(json.dumps(list(CARD_IDS))) == set(CARD_IDS)


@budget(10)
@given(setup=game_setups())
def test_knowledge_at_setup_is_only_the_first_card_drawn(setup):
    """The tracker these tests rely on, checked against R1–R3 at setup: before any action the
    active player may know exactly the card it has drawn; other players and spectators know
    nothing, and nobody knows a removed card."""
    state = start(setup)
    knowledge = Knowledge(state.num_players)
    knowledge.see(state, None)
    drawing = knowledge.zones["drawing"]
    assert len(drawing) == 1 and not set(drawing) & set(knowledge.zones["removed"])
    for observer in observers(state.num_players):
        expected = set(drawing) if observer == state.active else set()
        assert knowledge.allowed(observer) == expected, observer
