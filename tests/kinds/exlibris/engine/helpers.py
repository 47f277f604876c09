"""What the Ex Libris engine tests share: acting and choosing in a state, laying a position out
(always moving real cards, so every card stays unique, X3), and random playouts that check §0's
bounds and every seat's view along the way."""

import json
import random

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LOCATIONS

MULTI_VARIANTS = E.VARIANTS
SOLO_VARIANTS = ("standard", "friendly")  # X82: beginner and long are refused in solo


def act(state, seat, action):
    return E.apply_action(state, seat, action)


def only(state):
    """The single seat asked now."""
    (seat,) = E.to_act(state)
    return seat


def choose(state, kind_type, **match):
    """The first legal action of the asked seat with this type and these fields."""
    seat = only(state)
    for action in E.legal_actions(state, seat):
        if action["type"] == kind_type and all(action.get(k) == v for k, v in match.items()):
            return seat, action
    raise AssertionError(f"no {kind_type} {match} in {E.legal_actions(state, seat)}")


def finish_draft(state, rng=None):
    """Answer the draft (X8) or solo keep (X82) with the first (or a random) library."""
    rng = rng or random.Random(0)
    while state["phase"] == "draft":
        seat = only(state)
        state = act(state, seat, rng.choice(E.legal_actions(state, seat)))
    return state


def pending_kind(state):
    return state["pending"][-1]["kind"] if state["pending"] else None


def take_from_deck(state, count):
    """`count` real cards taken off the deck (kept unique, X3)."""
    cards = state["deck"][:count]
    state["deck"] = state["deck"][count:]
    return cards


def lay_tile(state, tile):
    """Put `tile` face up (as a Preparation would), set up with cards from the deck."""
    state = json.loads(json.dumps(state))
    if tile not in state["locations"]["face_up"]:
        for pile in ("deck", "discard"):
            if tile in state["locations"][pile]:
                state["locations"][pile].remove(tile)
        state["locations"]["face_up"].append(tile)
        state["locations"]["face_up"].sort(key=lambda t: LOCATIONS[t].number)
        state["tiles"][tile] = {
            "cards": [],
            "slots": [None] * len(LOCATIONS[tile].slot_gates),
        }
    location = LOCATIONS[tile]
    state["tiles"][tile]["cards"] = [
        {"card": card, "up": location.setup_face == "up"}
        for card in take_from_deck(state, location.setup_count)
    ]
    return state


def decline(state):
    """The asked seat's most passive answer: a placement on its library when there is room
    (else the first offered), and otherwise nothing, done, pass or stop when offered."""
    seat = only(state)
    actions = E.legal_actions(state, seat)
    for action in actions:
        if action["type"] == "place" and action["target"] == "library":
            return seat, action
    for action in actions:
        if action["type"] in ("nothing", "done", "pass", "stop", "stay"):
            return seat, action
    return seat, actions[0]


def placement_state(players=3, seed=1, variant="standard"):
    """A game just after the draft: round 1, the first placement asked."""
    state = finish_draft(E.new_game(players, seed=seed, variant=variant, options={}))
    assert pending_kind(state) == "place"
    return state


def play_round_doing_nothing(state):
    """Answer every decision of the current round with the library and 'nothing' (`decline`:
    a special assistant's power may ask more)."""
    start = state["round"]
    while state["round"] == start and state["phase"] not in ("flip", "over"):
        kind = pending_kind(state)
        if kind in ("place", "home", "bookworm"):
            state = act(state, *decline(state))
        elif kind == "solo_remove":
            seat = only(state)
            state = act(state, seat, E.legal_actions(state, seat)[0])
        else:  # pragma: no cover
            raise AssertionError(kind)
    return state


BOUNDS = {  # §0's table, for the decisions this step asks (h, n, N as it defines them)
    "draft_take": lambda s, seat, n_: 2 * s["players"],
    "draft_remove": lambda s, seat, n_: 2 * s["players"] - 1,
    "solo_keep": lambda s, seat, n_: 2,
    "place": lambda s, seat, n_: 69,
    "home": lambda s, seat, n_: 3,
    "take_tile_card": lambda s, seat, n_: 4,  # c: 3, the Flea Market 4 (X48)
    "shelve_card": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + 1,
    # 2n + 2 empty cells; 6n + 2 when the Mummy (2n stackings) or the Wizard (4n pushes) drives
    "shelve_cell": lambda s, seat, n_: (6 if s["pending"][-1].get("power") else 2) * n_ + 2,
    "cube": lambda s, seat, n_: 2,  # X57
    "sasquatch": lambda s, seat, n_: 2,  # X58
    "goblin": lambda s, seat, n_: 6 * (s["players"] - 1) + 1,  # X54: 6(N - 1) + 1
    "goblin_give": lambda s, seat, n_: len(s["seats"][seat]["hand"]),  # h
    "wisp": lambda s, seat, n_: len(s["tiles"][s["pending"][-1]["tile"]]["cards"]) + 2,  # X65
    "bookworm": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + 1,  # X59: h + 1
    "witch": lambda s, seat, n_: 2,  # X64
    "golem": lambda s, seat, n_: 2 * len(s["tiles"][s["pending"][-1]["tile"]]["cards"]) + 1,
    "solo_remove": lambda s, seat, n_: 6,
    "flip": lambda s, seat, n_: n_ + 1,
    "swap_give": lambda s, seat, n_: len(s["seats"][seat]["hand"]),  # X36: h
    "community_give": lambda s, seat, n_: 2 * (s["players"] - 1),  # X39: 2(N − 1)
    "discard_card": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + n_ + 1,  # h + n + 1
    "cabin_name": lambda s, seat, n_: 6,  # X47
    "cabin_take": lambda s, seat, n_: 5,
    "run_start": lambda s, seat, n_: n_ + 1,  # X52
    "run_end": lambda s, seat, n_: shelf_width(s["seats"][seat]["bookshelf"]),
    "run_dest": lambda s, seat, n_: run_dest_bound(s, seat),
    "auction_pay": lambda s, seat, n_: len(s["seats"][seat]["hand"]),  # X37: h
    "den_name": lambda s, seat, n_: 6,  # X41
    "lodge_part": lambda s, seat, n_: 3,  # X42: (a), (b) or done
    "lodge_assistant": lambda s, seat, n_: 3,
    "lodge_shelf": lambda s, seat, n_: 3 * n_,
    "lodge_exchange": lambda s, seat, n_: len(s["seats"][seat]["hand"]),  # then h,
    "lodge_swap": lambda s, seat, n_: n_ - 1,  # n - 1
    "lodge_reshelve": lambda s, seat, n_: 6 * n_ + 2,  # or 6n + 2
    "dump_name": lambda s, seat, n_: 6,  # X45
    "dump_take": lambda s, seat, n_: len(s["discard"]) + 1,  # d + 1
    "tavern_pick": lambda s, seat, n_: 8,  # X46
    "guild_assistant": lambda s, seat, n_: 2,  # X49
    "guild_slot": lambda s, seat, n_: 35,
    "tax_pay": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + n_,  # X50: h + n
    "tax_discard": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + n_ + 1,
    "tax_take": lambda s, seat, n_: len(s["tiles"]["tax"]["cards"]),  # c
    "yard_reveal": lambda s, seat, n_: len(s["seats"][seat]["hand"]) + 1,  # X51: h + 1
    "yard_claim": lambda s, seat, n_: 2 * len(s["tiles"]["yard_sale"]["revealed"]) + 1,
}


def shelf_width(shelf):
    cols = [col for _, col in bs.occupied(shelf)]
    return max(cols) - min(cols) + 1


def run_dest_bound(state, seat):
    """§0, X52: 5(w + L + 1), w the bookshelf's width, L the run's length."""
    top = state["pending"][-1]
    length = top["end"][1] - top["start"][1] + 1
    return 5 * (shelf_width(state["seats"][seat]["bookshelf"]) + length + 1)


def hidden_from(state, seat):
    """What X77 hides from `seat` (None: a spectator) in a running game: the cards of other
    hands, the deck, face-down tile cards; other foci, categories out, solo secrets."""
    cards = set(state["deck"])
    for record in state["seats"]:
        if record["seat"] != seat:
            cards |= set(record["hand"])
    for tile in state["tiles"].values():  # X51: revealed hand cards are public
        cards -= set(tile.get("revealed", []))
    for tile in state["tiles"].values():
        if seat not in tile.get("looked", []):  # X47: a visitor has seen the Cabin's cards
            cards |= {e["card"] for e in tile["cards"] if not e["up"]}
    return cards


def check_view(state, seat):
    """X77: the view holds none of the hidden cards; the only categories named are Prominent,
    Banned, the seat's own focus and revealed hints; deck, location deck, categories out and
    unseen libraries are counts."""
    seen = E.view(state, seat)
    # Events name what the last step showed everyone (a card taken from a face-up tile goes to a
    # hand in plain sight); their secrets are checked on their own.
    text = json.dumps({k: v for k, v in seen.items() if k != "events"})
    for raw, shown in zip(state["events"], seen["events"], strict=True):
        if "secret" in raw and seat not in raw["secret_to"]:
            assert "secret" not in shown and "secret_to" not in shown
        if "secret" in raw and seat in raw["secret_to"]:
            assert shown["secret"] == raw["secret"]
    over = state["phase"] == "over"
    leaks = [card for card in hidden_from(state, seat) if f'"{card}"' in text]
    if over:  # X77: hands and foci are shown after the game; the deck order never
        leaks = [card for card in state["deck"] if f'"{card}"' in text]
    assert not leaks, (seat, leaks[:5])
    allowed = {state["prominent"], state["banned"]}
    if state["solo"]:
        allowed |= set(state["solo"]["revealed_hints"])
    if isinstance(seat, int):
        allowed.add(state["seats"][seat]["focus"])
    # Categories named aloud at a tile (X41, X45) are public.
    top = state["pending"][-1] if state["pending"] else {}
    allowed |= {name for _, name in top.get("names", [])} | {top.get("category")}
    # The Cabin, the Den and the Dump ask to name any category (X47, X41, X45): that list of
    # all six tells nothing.
    unnamed = {k: v for k, v in seen.items() if k not in ("events", "legal_actions")}
    named = {c for c in CATEGORIES if f'"{c}"' in json.dumps(unnamed)}
    if pending_kind(state) not in ("cabin_name", "den_name", "dump_name", "goblin"):
        named |= {c for c in CATEGORIES if f'"{c}"' in json.dumps(seen["legal_actions"])}
    if not over:
        assert named <= allowed, (seat, named - allowed)
    assert isinstance(seen["deck"], int) and isinstance(seen["locations"]["deck"], int)
    assert isinstance(seen["categories_out"], int)
    assert seen["version"] == state["version"] and seen["seat"] == seat
    assert seen["to_act"] == E.to_act(state)
    expected = E.legal_actions(state, seat) if seat in E.to_act(state) else []
    assert seen["legal_actions"] == expected


def pick(rng, actions):
    """A random action: its type first, then one of that type. Every action stays possible,
    and a loop ("one more card, or done", X87) ends after a few steps instead of discarding a
    whole hand and bookshelf, which a uniform pick over h + n + 1 actions nearly always does."""
    kind = rng.choice(sorted({action["type"] for action in actions}))
    return rng.choice([action for action in actions if action["type"] == kind])


def playout(players, variant, seed, *, check_views=False):
    """A random game (`pick`); every X86 invariant is checked at every step."""
    options = {"difficulty": seed % 7 + 1} if players == 1 else {}
    state = E.new_game(players, seed=seed, variant=variant, options=options)
    rng = random.Random(seed)
    moves = []
    while True:
        acting = E.to_act(state)
        if not acting:
            break
        assert state["phase"] != "over"
        if state["phase"] != "flip":
            assert len(acting) == 1  # X86: one seat, except during the pre-flip
        offered = {}
        for seat in range(players):
            actions = offered[seat] = E.legal_actions(state, seat)
            if seat in acting:
                assert actions, (seat, state["pending"][-1])
                kind = state["pending"][-1]["kind"]
                n = len(bs.occupied(state["seats"][seat]["bookshelf"]))
                assert len(actions) <= BOUNDS[kind](state, seat, n), kind
            else:
                assert actions == []
        if check_views:
            for seat in [*range(players), None]:
                check_view(state, seat)
        seat = rng.choice(acting)
        action = pick(rng, offered[seat])
        after = E.apply_action(state, seat, action)
        assert after["version"] == state["version"] + 1
        moves.append((seat, action))
        state = after
    assert state["phase"] == "over"
    assert state["round"] <= (5 if players == 1 else 31)  # X83, X89
    for seat in range(players):
        assert bs.is_valid(state["seats"][seat]["bookshelf"])
        assert E.legal_actions(state, seat) == []
    return state, moves


def all_cards(state):
    found = list(state["deck"]) + list(state["discard"])
    for record in state["seats"]:
        found += record["hand"] + bs.cards(record["bookshelf"])
    for tile in state["tiles"].values():
        found += [e["card"] for e in tile["cards"]]
    return found


GAMES = [
    (players, variant, seed)
    for seed in range(24)
    for players in (2, 3, 4)
    for variant in MULTI_VARIANTS
    if (seed + len(variant)) % 3 == 0
] + [(1, variant, seed) for seed in range(30) for variant in SOLO_VARIANTS]


def views_hold(state):
    """X77 at this step, for every seat and a spectator (test_engine.check_view)."""
    for seat in [*range(state["players"]), None]:
        check_view(state, seat)


def occupy(state, tile, slot, seat):
    """Put one of `seat`'s standard assistants from its supply onto `slot` of `tile` (as an
    earlier placement would have, its effect already over)."""
    record = state["seats"][seat]
    assistant = next(a for a in record["supply"] if a.startswith("standard-"))
    record["supply"].remove(assistant)
    record["placed_this_round"].append(assistant)
    state["arrivals"] += 1  # X66: the order of arrival on a tile
    state["tiles"][tile]["slots"][slot - 1] = {
        "seat": seat,
        "assistant": assistant,
        "arrival": state["arrivals"],
    }


def finish_placement(state):
    """Place every assistant left on its library, doing nothing there, until Resolution stops
    for a decision or the round is over."""
    round_now = state["round"]
    while pending_kind(state) == "place" and state["round"] == round_now:
        state = act(state, *choose(state, "place", target="library"))
        state = act(state, *choose(state, "nothing"))
    return state


def empty_tiles(state, seat):
    """Move every tile's cards into `seat`'s hand, so that Resolution discards none."""
    for record in state["tiles"].values():
        state["seats"][seat]["hand"] += [entry["card"] for entry in record["cards"]]
        record["cards"] = []


def put_on_deck(state, cards):
    """Move `cards` (from the deck) to the top of the deck, in this order."""
    for card in cards:
        state["deck"].remove(card)
    state["deck"] = list(cards) + state["deck"]


def books(card, category):
    return CARDS[card].books.count(category)
