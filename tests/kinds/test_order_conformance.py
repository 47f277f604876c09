"""Every registered kind's standing orders (`registry.OrderKind`), along random games at every
player count: an order that fires plays a legal action of its seat, its seat being asked; it
decides the same when every card its seat cannot see is dealt anew (`redraw_hidden`): it reads
its player's view only; every reason it stops with has words, and so do the order itself."""

import random

import pytest

from games.kinds.registry import OrderRefused, Play, Stop

from .conftest import KINDS

ORDERING = {slug: kind for slug, kind in KINDS.items() if kind.orders}
GIVE_EVERY = 6  # about one state in so many gets a new order, for a random seat
REDRAWN_EVERY = 5  # about one decision in so many is checked on a redrawn state


@pytest.mark.parametrize("slug", ORDERING)
def test_standing_orders_fire_legal_moves_from_their_seats_view_only(slug):
    kind = ORDERING[slug]
    engine = kind.engine
    fired = stopped = 0
    for players in engine.PLAYER_COUNTS:
        rng = random.Random(f"{slug}/{players}")
        state = engine.new_game(players, seed=players)
        active = []  # (seat, order kind, params, anchor)
        while to_act := engine.to_act(state):
            if rng.randrange(GIVE_EVERY) == 0:
                seat, order = rng.randrange(players), rng.choice(kind.orders)
                params = {p.name: rng.randint(p.minimum, p.minimum + 6) for p in order.params}
                assert str(order.words(params)) and str(order.label)
                try:
                    active.append(
                        (seat, order, params, order.start(engine.view(state, seat), params))
                    )
                except OrderRefused as refusal:
                    assert str(refusal)
            for entry in list(active):
                seat, order, params, anchor = entry
                decision = order.decide(engine.view(state, seat), params, anchor)
                if rng.randrange(REDRAWN_EVERY) == 0:
                    redrawn = engine.redraw_hidden(state, seat, rng)
                    assert order.decide(engine.view(redrawn, seat), params, anchor) == decision
                if isinstance(decision, Play):
                    assert seat in to_act and decision.action in engine.legal_actions(state, seat)
                    fired += 1
                elif isinstance(decision, Stop):
                    assert str(order.reasons[decision.reason]) % params
                    active.remove(entry)
                    stopped += 1
                else:
                    assert decision is None
            seat = to_act[0]
            state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert fired and stopped, "the random games never set an order off: give more of them"
