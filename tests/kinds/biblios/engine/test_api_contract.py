"""The engine's public API contract (docstring of games/kinds/biblios/engine/), checked along
random games: purity, legal actions, error messages naming a rule, zones, and R22 secrecy."""

import json
import random
import re

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS

from .helpers import deal_game, pass_to_end, random_playout

GAMES = [
    (2, "contract-2", {}),
    (3, "contract-3", {"medieval_bluff": True}),
    (4, "contract-4", {"forbid_uncoverable_bids": True}),
]
RULE_OR_MALFORMED = re.compile(r"\bR\d+\b|malformed")


def played(n, seed, options, rng_seed=0):
    """Every (state, seat, action) of one random game, ending with (final, None, None)."""
    state = biblios.new_game(n, seed=seed, options=options)
    return list(random_playout(state, random.Random(rng_seed)))


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}p")
def game(request):
    return played(*request.param)


def zone_cards(state):
    zones = biblios.view(state, "all")["zones"]
    cards = []
    for name, zone in zones.items():
        if name == "hands":
            cards += [card for hand in zone for card in hand]
        else:
            cards += zone
    return cards


def test_api_apply_action_never_changes_its_input_even_later(game):
    """Purity: each state's JSON is the same after the action applied to it and after the
    rest of the game has been played from it (no list is shared and changed later)."""
    state = game[0][0]
    texts = [biblios.dumps(state)]
    states = [state]
    for current, seat, action in game[:-1]:
        before = biblios.dumps(current)
        following = biblios.apply_action(current, seat, action)
        assert biblios.dumps(current) == before
        texts.append(biblios.dumps(following))
        states.append(following)
    for state, text in zip(states, texts, strict=True):
        assert biblios.dumps(state) == text


def test_api_failed_action_changes_nothing(game):
    for current, seat, _ in game[:-1:7]:
        before = biblios.dumps(current)
        with pytest.raises(biblios.IllegalAction):
            biblios.apply_action(current, seat, {"type": "bid", "amount": -5})
        with pytest.raises(biblios.IllegalAction):
            biblios.apply_action(current, (seat + 1) % current.num_players, {"type": "pass"})
        assert biblios.dumps(current) == before


def test_api_every_listed_action_applies_and_only_the_seat_to_act_has_actions(game):
    for current, seat, _ in game[:-1:3]:
        assert biblios.to_act(current) == [seat]
        for other in range(current.num_players):
            if other != seat:
                assert biblios.legal_actions(current, other) == []
        listed = biblios.legal_actions(current, seat)
        assert listed
        for action in listed:
            biblios.apply_action(current, seat, action)  # raises if the listing lied


def test_api_game_over_nobody_to_act(game):
    final = game[-1][0]
    assert final.phase == "over" and final.step == "over"
    assert biblios.to_act(final) == []
    assert all(biblios.legal_actions(final, s) == [] for s in range(final.num_players))
    with pytest.raises(biblios.IllegalAction, match="R"):
        biblios.apply_action(final, 0, {"type": "pass"})
    assert biblios.view(final, None)["to_act"] == []
    assert biblios.result(final)["winners"]


def test_api_all_87_cards_in_exactly_one_zone_at_every_moment(game):
    for current, _, _ in game:
        cards = zone_cards(current)
        assert len(cards) == 87
        assert sorted(cards) == sorted(CARD_IDS)


def test_api_dumps_loads_and_replay_reproduce_the_game(game):
    log = [(seat, action) for _, seat, action in game[:-1]]
    final = game[-1][0]
    assert biblios.loads(biblios.dumps(final)) == final
    again = biblios.replay(biblios.setup_of(final), log)
    assert biblios.dumps(again) == biblios.dumps(final)


# -------------------------------------------------------------------------- error messages


def test_api_wrong_seat_wrong_phase_and_malformed_actions_name_a_rule():
    state = biblios.new_game(3, seed=1, first_player=0)
    cases = [
        (1, {"type": "place", "to": "self"}),  # not seat 1's turn
        (0, {"type": "bid", "amount": 1}),  # no bidding in the gift phase
        (0, {"type": "pick", "card": "monks-A"}),  # no pick while placing
        (0, {"type": "pay", "cards": []}),
        (0, {"type": "use_church", "dice": ["monks"], "delta": 1}),  # no church card pending
        (0, {"type": "place", "to": "hand"}),  # malformed destination
        (0, {"type": "place"}),  # missing field
        (0, {"type": "place", "to": "self", "extra": 1}),  # extra field
        (0, {"type": "shuffle"}),  # unknown type
        (0, {"to": "self"}),  # no type
        (0, "place"),  # not an object
        (0, None),
        (3, {"type": "place", "to": "self"}),  # no such seat
        (-1, {"type": "place", "to": "self"}),
        (True, {"type": "place", "to": "self"}),
        ("0", {"type": "place", "to": "self"}),
    ]
    for seat, action in cases:
        with pytest.raises(biblios.IllegalAction) as error:
            biblios.apply_action(state, seat, action)
        assert RULE_OR_MALFORMED.search(str(error.value)), (seat, action, str(error.value))


def test_api_auction_phase_refuses_gift_actions_citing_the_rule():
    state = deal_game(2, [], [])
    seat = biblios.to_act(state)[0]
    for action in ({"type": "place", "to": "self"}, {"type": "pick", "card": state.hands[0][0]}):
        with pytest.raises(biblios.IllegalAction, match=r"R\d+"):
            biblios.apply_action(state, seat, action)
    with pytest.raises(biblios.IllegalAction, match=r"R\d+"):
        biblios.apply_action(state, 1 - seat, {"type": "pass"})


def test_api_view_rejects_unknown_seats():
    state = biblios.new_game(2, seed=1)
    for seat in (2, -1, "0", True):
        with pytest.raises(ValueError):
            biblios.view(state, seat)


# -------------------------------------------------------------------------------- R22


def card_ids_in(data) -> set:
    text = json.dumps(data)
    return {card for card in CARD_IDS if f'"{card}"' in text}


def test_r22_views_never_show_hidden_cards(game):
    """R22 along a whole random game, for every seat and a spectator: removed cards and the
    draw pile are never shown; the card being placed only to the active player; auction-pile
    cards only to the player who placed them; face-down discards only to those who know them;
    after the game, every hand is shown."""
    for current, _, _ in game:
        n = current.num_players
        hidden_from_all = set(current.removed) | set(current.draw_pile)
        for seat in [*range(n), None]:
            seen = card_ids_in(biblios.view(current, seat))
            assert not seen & hidden_from_all
            if current.drawing and seat != current.active:
                assert current.drawing not in seen
            for card in current.auction_pile:
                if card in seen:
                    assert current.placed_by.get(card) == seat
            for card, knowers in current.hidden_discard:
                if card in seen:
                    assert seat in knowers
    final = game[-1][0]
    for seat in [*range(final.num_players), None]:
        assert biblios.view(final, seat)["hands"] == [
            sorted(hand, key=CARD_IDS.index) for hand in final.hands
        ]


def test_r22_hand_sizes_public_hands_private_until_the_end():
    """R22: a player sees their own hand and every hand size; another player's cards only
    where they were public (the last action's public events); all hands once the game ends."""
    live = deal_game(2, [], [])
    public_now = card_ids_in(biblios.events_for(live, None))
    for seat in (0, 1):
        seen = biblios.view(live, seat)
        assert seen["hand"] == sorted(live.hands[seat], key=CARD_IDS.index)
        assert seen["hand_sizes"] == [20, 20]
        assert "hands" not in seen
        assert not card_ids_in(seen) & (set(live.hands[1 - seat]) - public_now)
    assert biblios.view(live, None)["hand"] is None
    assert "hands" not in biblios.view(live, None)
    assert "hands" in biblios.view(pass_to_end(live), None)
