"""Sampled worlds: a full engine state that a seat cannot tell apart from the real one.

The Abbot searches such worlds. Each is built from the seat's view and memory only: the cards it
knows are put where it knows them, the unknown ones are dealt at random into the hidden places,
in the numbers the view shows. `biblios.view(world, seat)` then equals the real view (the tests
check it), so whatever a search does in the world, it learns nothing the seat did not know.
"""

import math
import random

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CATEGORIES, KIND

from .memory import Knowledge


def determinise(
    view: dict, memory: dict | None, rng: random.Random, want=None, choice: int = 1
) -> biblios.State:
    """One world consistent with what seat `view["seat"]` knows, drawn with `rng`.

    With `want(seat, card)` (how much a seat would want a card), each card another seat took
    unseen is the one it wants most among `choice` unknown cards drawn at random (players keep
    their best cards, R3: a uniform deal makes their hands too weak), and the cards it gave away
    unseen are the known ones it wants least.
    """
    me, n = view["seat"], view["num_players"]
    knowledge = Knowledge(view, memory)
    # Church cards never stay in a hand (R16) nor are discarded face down: they can only be in
    # the draw pile, the auction pile, the removed cards or the card being drawn.
    churches = [card for card in knowledge.unknown if KIND[card] == "church"]
    unknown = [card for card in knowledge.unknown if KIND[card] != "church"]
    rng.shuffle(unknown)
    hidden = knowledge.hidden

    def deal(count: int) -> list:
        cards = unknown[len(unknown) - count :] if count else []
        del unknown[len(unknown) - count :]
        return cards

    kept, fresh = {}, {}
    for seat in range(n):
        if seat == me:
            continue
        known, lost = knowledge.known[seat], knowledge.lost[seat]
        slots = [*known, *[None] * knowledge.unseen_in[seat]]  # None: a card taken unseen
        rng.shuffle(slots)
        if want is not None:  # a seat gives away face down what it wants least: known cards
            slots.sort(
                key=lambda card: math.inf if card is None else want(seat, card), reverse=True
            )
        survivors = slots[: len(slots) - lost]
        kept[seat] = [card for card in survivors if card is not None]
        fresh[seat] = len(survivors) - len(kept[seat])
        unknown.extend(card for card in slots[len(slots) - lost :] if card is not None)
    rng.shuffle(unknown)

    def take(seat: int, count: int) -> list:
        """Unseen cards for a hand: each the best of `choice` unknown cards for that seat."""
        if want is None or choice <= 1:
            return deal(count)
        taken = []
        for _ in range(count):
            offered = deal(min(choice, len(unknown)))
            best = max(offered, key=lambda card: want(seat, card))
            offered.remove(best)
            taken.append(best)
            unknown.extend(offered)
        return taken

    hands = [
        list(view["hand"]) if seat == me else kept[seat] + take(seat, fresh[seat])
        for seat in range(n)
    ]
    others = [seat for seat in range(n) if seat != me]
    gift, auction, church = view["gift"], view["auction"], view["church"]
    rng.shuffle(unknown)  # the cards passed over go anywhere, not only to the last places dealt
    self_card = (
        gift["self_card"]
        if view["active"] == me
        else (deal(1)[0] if hidden.get("self_card") else None)
    )
    hidden_discard = [[card, [me]] for card in view["my_hidden_discards"]]
    hidden_discard += [
        [card, [rng.choice(others)]] for card in deal(hidden.get("hidden_discard", 0))
    ]
    unknown += churches
    rng.shuffle(unknown)
    drawing = (
        gift["drawing"] if view["active"] == me else (deal(1)[0] if hidden["drawing"] else None)
    )
    pile = [*view["my_auction_cards"], *deal(hidden["auction_pile"])]
    rng.shuffle(pile)  # nobody knows the auction pile's order (R22)
    mine = set(view["my_auction_cards"])
    placed_by = {card: me if card in mine else rng.choice(others) for card in pile}
    removed = knowledge.fixed_removed + deal(hidden["removed"])
    draw_pile = deal(hidden["draw_pile"])
    assert not unknown, "the hidden places hold every unknown card"
    seed = rng.getrandbits(64)
    awaiting = view["awaiting"]
    step = awaiting["step"] if awaiting else "over"
    return biblios.State(
        setup={
            "num_players": n,
            "seed": seed,
            "edition": view["edition"],
            "options": dict(view["options"]),
            "first_player": view["first_player"],
            "deck": None,
        },
        num_players=n,
        edition=view["edition"],
        options=dict(view["options"]),
        first_player=view["first_player"],
        seed=seed,
        rng_draws=0,
        version=view["version"],
        phase=view["phase"],
        step=step,
        dice=[view["dice"][category] for category in CATEGORIES],
        draw_pile=draw_pile,
        removed=removed,
        hands=hands,
        discard=list(view["public_discard"]),
        hidden_discard=hidden_discard,
        active=view["active"],
        drawing=drawing,
        self_card=self_card,
        placed=gift["placed"],
        self_used=gift["self_placed"],
        auction_used=gift["auction_placed"],
        public_space=list(view["public_space"]),
        picks=gift["picks"],
        auction_pile=pile,
        placed_by=placed_by,
        church=[church["card"], church["seat"]] if church else None,
        auction_card=auction["card"] if auction else None,
        bidder=awaiting["seat"] if step == "bid" else None,
        high_bid=auction["high_bid"] if auction else 0,
        high_bidder=auction["high_bidder"] if auction else None,
        passed=list(auction["passed"]) if auction else [],
        excluded=list(auction["excluded"]) if auction else [],
        bids=[list(bid) for bid in auction["bids"]] if auction else [],
        given=auction["given"] if auction else 0,
        events=[dict(event) for event in view["events"]],  # already as this seat sees them
    )
