"""The arrival sequence (X23) and the special assistants' powers (X53-X66).

Every arrival on a location, by placement, Ghost sharing or the Guild, goes through `_arrive`.
Step 1, the tile's placement rule, acts at once. Steps 2 to 4 (the specials already there, the
newcomer's power, the effect) are "then" entries: each runs once the decisions of the step
before are answered (X88). Each power's decisions are registered beside its code.
"""

from .cards import CARDS, CATEGORIES, LOCATIONS
from .decisions import EFFECTS, decision, then
from .shelving import _may_shelve
from .state import (
    _BIDDING,
    POWERS,
    _clockwise_from,
    _draw,
    _draw_card,
    _event,
    _free_slot,
    _gained,
    _holders,
    _occupants,
    _push,
    _rng,
    _seat,
    _tile,
)


def _leave_tile(state: dict, tile: str, assistant: str, seat: int) -> None:
    """`seat`'s `assistant` leaves `tile` (its slot, or the slot it shares) for its owner's
    supply (X24: it may be placed again this round)."""
    record = _tile(state, tile)
    mine = (seat, assistant)
    for i, holder in enumerate(record["slots"]):
        if holder is not None and (holder["seat"], holder["assistant"]) == mine:
            record["slots"][i] = None
    if "shared" in record:
        record["shared"] = [e for e in record["shared"] if (e["seat"], e["assistant"]) != mine]
    _seat(state, seat)["supply"].append(assistant)
    _event(state, "returned", seat=seat, assistant=assistant, tile=tile, rule="X24")


def _arrive(
    state: dict, seat: int, assistant: str, target: str, slot: int | None = None, *, share=False
) -> None:
    """X23: `seat`'s `assistant` arrives on `target`, a location or "library" (a home space),
    placed from the supply, moved there by the Guild (X49) or sharing `slot` as the Ghost (X60).

    Step 1, the location's placement rule, acts at once: the opponents' assistants on `slot`
    (the Guild's) go home, and so does a lower bid at a bidding tile (X37), all to the supply
    (X24); the newcomer takes `slot` (None: the lowest free one, X21) or shares it. Steps 2 to
    4 follow (`_arrival_step`): the powers of specials already here, the newcomer's own, the
    instant effect for `seat`. On a home space only step 3 applies, then the home action."""
    state["drivers"] = [assistant]
    state["arrivals"] += 1
    if target == "library":
        _seat(state, seat)["home"].append(assistant)
        _event(state, "placed", seat=seat, assistant=assistant, target="library")
        _home_arrival(state, seat, assistant)
        return
    record = _tile(state, target)
    if slot is None:
        slot = _free_slot(state, target)
    # Who could have to leave: anyone at a bidding tile, or whoever is on the slot taken.
    if not share and (
        target in _BIDDING or record["slots"][slot - 1] is not None or "shared" in record
    ):
        for entry in _occupants(state, target):
            outbid = LOCATIONS[target].bids and entry["slot"] != slot
            if entry["seat"] != seat and entry["slot"] == slot or outbid:
                _leave_tile(state, target, entry["assistant"], entry["seat"])
    here = {"seat": seat, "assistant": assistant, "arrival": state["arrivals"]}
    if share:
        record.setdefault("shared", []).append({**here, "slot": slot})
    else:
        record["slots"][slot - 1] = here
    _event(state, "placed", seat=seat, assistant=assistant, target=target, slot=slot, share=share)
    _arrival_step(state, {"seat": seat, "assistant": assistant, "tile": target, "stage": 2})


@then("arrival")
def _arrival_step(state: dict, entry: dict) -> None:
    """X23 steps 2 to 4 (X66: the tile's rule, then the powers already here in arrival order,
    then the newcomer): each pushes the next under its own decisions. A stage that asks nothing
    (the usual case) goes straight on to the next, as `_proceed` would, without its loop: this
    runs at every arrival."""
    seat, assistant, tile, stage = entry["seat"], entry["assistant"], entry["tile"], entry["stage"]
    pending = state["pending"]
    if (
        stage == 2
        and assistant not in POWERS
        and not state["witch_queue"]
        and not _reacting(state["tiles"][tile])
    ):
        stage = 4  # steps 2 and 3 would ask nothing: no Cube or Sasquatch here, no power
    while True:
        state["drivers"] = [assistant]
        if stage == 4:
            EFFECTS[tile](state, seat)
            return
        then = {  # `_push`'s entry, kept to see whether it is still on top afterwards
            "kind": "then",
            "step": "arrival",
            "seat": seat,
            "assistant": assistant,
            "tile": tile,
            "stage": stage + 1,
        }
        pending.append(then)
        if stage == 2:
            _arrival_reactions(state, seat, tile)
        else:
            _arrival_power(state, seat, assistant, tile)
        if pending[-1] is not then or state["witch_queue"]:
            return  # decisions first: `_proceed` comes back to the next stage
        # No decision and no Witch's card (`_proceed` would settle it first): the next
        # stage at once, as `_proceed` would run it, without going round its loop.
        pending.pop()
        stage += 1


def _reacting(record: dict) -> bool:
    """Whether a Gelatinous Cube or a Sasquatch is on this tile's record (X57, X58): a loop, not
    a generator, as it runs at every arrival."""
    for entry in _holders(record):
        if entry["assistant"] == "cube" or entry["assistant"] == "sasquatch":
            return True
    return False


def _arrival_reactions(state: dict, seat: int, tile: str) -> None:
    """X23 step 2: the Gelatinous Cube (X57) and the Sasquatch (X58) already here react to an
    opponent's arrival, in their arrival order (pushed last first, so asked first first)."""
    if not _reacting(state["tiles"][tile]):
        return
    reactions = []
    for entry in _occupants(state, tile):
        if entry["seat"] == seat or entry["assistant"] not in POWERS:
            continue
        if entry["assistant"] == "cube":
            reactions.append(("cube", {"seat": seat, "owner": entry["seat"], "rule": "X57"}))
        elif entry["assistant"] == "sasquatch":
            reactions.append(("sasquatch", {"seat": entry["seat"], "tile": tile, "rule": "X58"}))
    for kind, fields in reversed(reactions):
        _push(state, kind, **fields)


def _arrival_power(state: dict, seat: int, assistant: str, tile: str) -> None:
    """X23 step 3: the newcomer's own power on a location: the Ghost's draw when it shares
    (X60), the Goblin's thefts (X54), the Automaton's home actions (X55), the Wisp (X65)."""
    if assistant not in POWERS:
        return
    if assistant == "ghost":
        if any(e["assistant"] == "ghost" for e in state["tiles"][tile].get("shared", [])):
            _draw(state, seat, 1, "X60")
    elif assistant == "goblin":
        victims = [e["seat"] for e in _occupants(state, tile) if e["seat"] != seat]
        victims = _clockwise_from(state, seat, set(victims))
        if victims:
            _push(state, "goblin", seat=seat, victims=victims, received=[], rule="X54")
    elif assistant == "automaton":
        others = [e for e in _occupants(state, tile) if e["seat"] == seat]
        for _ in range(len(others) - 1):
            _push(state, "home", seat=seat, rule="X55")
    elif assistant == "wisp" and state["tiles"][tile]["cards"]:
        _push(state, "wisp", seat=seat, tile=tile, rule="X65")


def _home_arrival(state: dict, seat: int, assistant: str) -> None:
    """X23 on a home space: step 3, then the home action (X22): the Bookworm replaces it with
    both home actions and may buy them once more (X59); the Automaton first takes one per other
    assistant of yours at home (X55)."""
    if assistant == "bookworm" and assistant in POWERS:
        _push(state, "then", step="bookworm_offer", seat=seat)
        _push(state, "home", seat=seat, rule="X59", parts=["draw", "shelve"])
        return
    _push(state, "home", seat=seat, rule="X22")
    if assistant == "automaton" and assistant in POWERS:
        for _ in range(len(state["seats"][seat]["home"]) - 1):
            _push(state, "home", seat=seat, rule="X55")


def _cube_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X57: give the Cube's owner a random hand card, or let it take both home actions (forced
    with an empty hand)."""
    give = [{"type": "give_random"}] if state["seats"][seat]["hand"] else []
    return give + [{"type": "home_actions"}]


@decision("cube", rule="X57", choices=_cube_choices, shown=("owner",))
def _do_cube(state: dict, seat: int, action: dict) -> None:
    """X57: the random card is drawn by the engine and seen by giver and taker only (X77)."""
    top = state["pending"].pop()
    owner = top["owner"]
    if action["type"] == "home_actions":
        _event(state, "cube_home_actions", seat=seat, owner=owner, rule="X57")
        _push(state, "home", seat=owner, rule="X57", parts=["draw", "shelve"])
        return
    hand = _seat(state, seat)["hand"]
    card = hand.pop(_rng(state, "cube").randrange(len(hand)))
    _seat(state, owner)["hand"].append(card)
    _event(
        state, "cube_card", seat=seat, owner=owner, rule="X57", secret_to=[seat, owner], secret=card
    )
    _gained(state, owner, [card])


def _sasquatch_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "take_back"}, {"type": "stay"}]


@decision("sasquatch", rule="X58", choices=_sasquatch_choices, shown=("tile",))
def _do_sasquatch(state: dict, seat: int, action: dict) -> None:
    """X58: an opponent arrived: the Sasquatch may go back to its owner's supply (X24)."""
    top = state["pending"].pop()
    if action["type"] == "take_back":
        _leave_tile(state, top["tile"], "sasquatch", seat)


def _goblin_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X54: the next victim (not yet chosen) and a category, or stop: 6(N - 1) + 1 at most."""
    steals = [
        {"type": "steal", "victim": victim, "category": category}
        for victim in top["victims"]
        for category in CATEGORIES
    ]
    return steals + [{"type": "stop"}]


@decision("goblin", rule="X54", choices=_goblin_choices, shown=("victims",))
def _do_goblin(state: dict, seat: int, action: dict) -> None:
    """X54: a theft: the victim gives a card holding the category named (its choice) or, having
    none, shows its hand to the Goblin's owner only (X77); then the next victim, or stop and
    you may shelve any of the cards received."""
    top = state["pending"].pop()
    if action["type"] == "stop":
        _may_shelve(state, seat, top["received"], len(top["received"]), "X54")
        return
    victim, category = action["victim"], action["category"]
    _event(state, "named", seat=seat, victim=victim, category=category, rule="X54")
    rest = [other for other in top["victims"] if other != victim]
    if rest:
        _push(state, "goblin", seat=seat, victims=rest, received=top["received"], rule="X54")
    else:
        _push(state, "then", step="goblin_end", seat=seat, received=top["received"])
    hand = state["seats"][victim]["hand"]
    if any(category in CARDS[card].books for card in hand):
        _push(state, "goblin_give", seat=victim, to=seat, category=category, rule="X54")
    else:
        _event(
            state,
            "hand_shown",
            seat=victim,
            to=seat,
            rule="X54",
            secret_to=[victim, seat],
            secret=list(hand),
        )


def _goblin_give_choices(state: dict, seat: int, top: dict) -> list[dict]:
    hand = state["seats"][seat]["hand"]
    return [{"type": "give", "card": c} for c in hand if top["category"] in CARDS[c].books]


@decision("goblin_give", rule="X54", choices=_goblin_give_choices, shown=("to", "category"))
def _do_goblin_give(state: dict, seat: int, action: dict) -> None:
    """X54: the card given goes to the Goblin's owner, seen by the two of them (X77); it joins
    the cards received, kept by the Goblin's next step below."""
    top = state["pending"].pop()
    card, owner = action["card"], top["to"]
    _seat(state, seat)["hand"].remove(card)
    _seat(state, owner)["hand"].append(card)
    below = state["pending"][-1]
    state["pending"][-1] = {**below, "received": below["received"] + [card]}
    _event(state, "gave", seat=seat, to=owner, rule="X54", secret_to=[seat, owner], secret=card)
    _gained(state, owner, [card])


@then("goblin_end")
def _goblin_end(state: dict, entry: dict) -> None:
    """X54: every victim has been chosen: you may shelve any of the cards received."""
    _may_shelve(state, entry["seat"], entry["received"], len(entry["received"]), "X54")


def _wisp_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X65: discard one tile card (a face-down one picked blind, by its place) and take 1 home
    action, or, with 2 or more there, all of them and take 2; or pass: c + 2 at most."""
    cards = state["tiles"][top["tile"]]["cards"]
    actions = [
        {"type": "discard_one", "index": i, **({"card": e["card"]} if e["up"] else {})}
        for i, e in enumerate(cards)
    ]
    if len(cards) >= 2:
        actions.append({"type": "discard_all"})
    return actions + [{"type": "pass"}]


@decision("wisp", rule="X65", choices=_wisp_choices, shown=("tile",))
def _do_wisp(state: dict, seat: int, action: dict) -> None:
    """X65: the cards discarded are turned up (X30: the discard pile is face up); then the home
    actions."""
    top = state["pending"].pop()
    if action["type"] == "pass":
        return
    record = _tile(state, top["tile"])
    if action["type"] == "discard_all":
        gone, record["cards"], home_actions = record["cards"], [], 2
    else:
        gone, home_actions = [record["cards"].pop(action["index"])], 1
    cards = [entry["card"] for entry in gone]
    state["discard"] += cards
    _event(state, "discarded", seat=seat, cards=cards, source=top["tile"], rule="X65")
    for _ in range(home_actions):
        _push(state, "home", seat=seat, rule="X65")


@then("bookworm_offer")
def _bookworm_offer(state: dict, entry: dict) -> None:
    """X59: after both home actions, discard 1 hand card to take both once more (asked only
    with a hand card)."""
    if state["seats"][entry["seat"]]["hand"]:
        _push(state, "bookworm", seat=entry["seat"], rule="X59")


def _bookworm_choices(state: dict, seat: int, top: dict) -> list[dict]:
    hand = state["seats"][seat]["hand"]
    return [{"type": "discard", "card": card} for card in hand] + [{"type": "stop"}]


@decision("bookworm", rule="X59", choices=_bookworm_choices)
def _do_bookworm(state: dict, seat: int, action: dict) -> None:
    """X59: the card goes to the discard pile, face up (X30); both home actions once more."""
    state["pending"].pop()
    if action["type"] == "stop":
        return
    _seat(state, seat)["hand"].remove(action["card"])
    state["discard"].append(action["card"])
    _event(state, "discarded", seat=seat, card=action["card"], source="hand", rule="X59")
    _push(state, "home", seat=seat, rule="X59", parts=["draw", "shelve"])


def _witch_flush(state: dict) -> None:
    """X64, X88: the cards waiting for the Witch are settled before the effect goes on, one by
    one in the order received: each becomes a step pushed above what the effect pushed."""
    queue, state["witch_queue"] = state["witch_queue"], []
    for entry in reversed(queue):
        _push(state, "then", step="witch_reveal", seat=entry["seat"], card=entry["card"])


@then("witch_reveal")
def _witch_reveal(state: dict, entry: dict) -> None:
    """X64: reveal the deck's top card (X31: none may come; then the card stays as it is)."""
    seat, card = entry["seat"], entry["card"]
    if card not in state["seats"][seat]["hand"]:
        return  # pragma: no cover - a card is settled before anything can move it
    revealed = _draw_card(state)
    if revealed is None:
        _event(state, "witch_nothing", seat=seat, rule="X64")
        return
    _event(state, "revealed", seat=seat, cards=[revealed], rule="X64")
    _push(state, "witch", seat=seat, card=card, revealed=revealed, rule="X64")


def _witch_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "keep", "card": top["card"]}, {"type": "keep", "card": top["revealed"]}]


@decision("witch", rule="X64", choices=_witch_choices, shown=("revealed",))
def _do_witch(state: dict, seat: int, action: dict) -> None:
    """X64: keep one of the two, discard the other face up. The revealed card kept stands in for
    the one received wherever the effect still names it (A-27: it never triggers the power)."""
    top = state["pending"].pop()
    card, revealed = top["card"], top["revealed"]
    if action["card"] == revealed:
        hand = _seat(state, seat)["hand"]
        hand[hand.index(card)] = revealed
        state["discard"].append(card)
        state["pending"] = [_stand_in(entry, card, revealed) for entry in state["pending"]]
        _event(state, "witch_kept", seat=seat, discarded=card, rule="X64")
    else:
        state["discard"].append(revealed)
        _event(state, "witch_kept", seat=seat, discarded=revealed, rule="X64")


def _stand_in(entry: dict, old: str, new: str) -> dict:
    """A pending entry with card `old` replaced by `new` wherever it names it (X64)."""

    def swap(value):
        if isinstance(value, list):
            return [swap(item) for item in value]
        return new if value == old else value

    return {key: swap(value) for key, value in entry.items()}


def _golem_turn(state: dict, tile: str) -> bool:
    """X62: the Golem's owner may pick among `tile`'s leftovers when the Golem lies on a tile
    not yet resolved (this one or a later one) and cards are left here. Face-down leftovers
    are turned up first: X25 (b) discards them face up."""
    if "golem" not in POWERS or not state["tiles"][tile]["cards"]:
        return False
    owner = _golem_owner(state)
    if owner is None:
        return False
    if not all(entry["up"] for entry in state["tiles"][tile]["cards"]):
        record = _tile(state, tile)
        record["cards"] = [{**entry, "up": True} for entry in record["cards"]]
    _push(state, "golem", seat=owner, tile=tile, rule="X62")
    return True


def _golem_owner(state: dict) -> int | None:
    """The seat whose Golem lies on a face-up tile, if any."""
    for tile in state["locations"]["face_up"]:
        for entry in _holders(state["tiles"][tile]):  # there is one Golem at most
            if entry["assistant"] == "golem":
                return entry["seat"]
    return None


def _golem_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X62: take 1 leftover card into hand, or shelve it, or pass: 2c + 1."""
    cards = [entry["card"] for entry in state["tiles"][top["tile"]]["cards"]]
    return (
        [{"type": "take", "card": card} for card in cards]
        + [{"type": "shelve", "card": card} for card in cards]
        + [{"type": "pass"}]
    )


@decision("golem", rule="X62", choices=_golem_choices, shown=("tile",))
def _do_golem(state: dict, seat: int, action: dict) -> None:
    """X62: the card leaves the tile before its leftovers are discarded; a card shelved goes
    through the hand straight to its cell (the cell is asked next, X87)."""
    top = state["pending"].pop()
    if action["type"] == "pass":
        return
    card = action["card"]
    record = _tile(state, top["tile"])
    record["cards"] = [entry for entry in record["cards"] if entry["card"] != card]
    _seat(state, seat)["hand"].append(card)
    _event(state, "took", seat=seat, tile=top["tile"], card=card, rule="X62")
    if action["type"] == "shelve":
        _push(state, "shelve_cell", seat=seat, card=card, rule="X62", power=None)
