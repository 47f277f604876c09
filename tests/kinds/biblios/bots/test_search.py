"""The Abbot's machinery: sampled worlds the seat cannot tell from the real one, fast playouts
that follow the public engine's rules exactly, forced moves at once, the CPU budget kept."""

import random
import time

import pytest

from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bench import hands
from games.kinds.biblios.bots import scholar
from games.kinds.biblios.bots.abbot import ABBOT_STYLES, KEEP_CHOICE
from games.kinds.biblios.bots.determinise import determinise
from games.kinds.biblios.bots.memory import Knowledge
from games.kinds.biblios.bots.playout import Playout
from games.kinds.biblios.bots.valuation import SCHOLAR, outlook_from_view
from games.kinds.biblios.engine.cards import CARD_IDS

from .helpers import positions

TABLES = [
    (2, "biblios", {"medieval_bluff": True}),
    (3, "scripts_and_scribes", {}),
    (4, "biblios", {"forbid_uncoverable_bids": True}),
]


def random_positions(num_players: int, seed: int, options: dict, edition: str, rate: float):
    """(state, memories) along a game of random legal play (bids beyond means, refusals…)."""
    state = biblios.new_game(num_players, seed=seed, options=options, variant=edition)
    memories = [bots.new_memory(seat, num_players) for seat in range(num_players)]
    rng = random.Random(seed)
    while biblios.to_act(state):
        for seat, memory in enumerate(memories):
            bots.observe(
                memory, {"version": state.version, "events": biblios.events_for(state, seat)}
            )
        if rng.random() < rate:
            yield state, memories
        seat = biblios.to_act(state)[0]
        state = biblios.apply_action(state, seat, rng.choice(biblios.legal_actions(state, seat)))


@pytest.mark.parametrize("num_players, edition, options", TABLES)
def test_sampled_worlds_look_the_same_to_the_seat(num_players, edition, options):
    rng = random.Random(num_players)
    checked = 0
    for state, memories in random_positions(num_players, 3, options, edition, rate=0.1):
        for seat in range(num_players):  # the seat to act and the others alike
            view = biblios.view(state, seat)
            outlook = outlook_from_view(view, Knowledge(view, memories[seat]))

            for world in (
                determinise(view, memories[seat], rng),
                determinise(view, None, rng),
                determinise(view, memories[seat], rng, outlook.want, 3),
            ):
                assert biblios.view(world, seat) == view
                zones = biblios.view(world, "all")["zones"]
                placed = [
                    card for zone, cards in zones.items() if zone != "hands" for card in cards
                ]
                placed += [card for hand in zones["hands"] for card in hand]
                assert sorted(placed) == sorted(CARD_IDS)
                checked += 1
    assert checked > 30


def test_sampled_worlds_keep_what_memory_knows():
    """Cards seen going into another hand (public picks) stay there while they fit."""
    state, memories = next(
        (state, memories) for state, memories in positions(2, 8, every=30) if state.version >= 60
    )
    seat = biblios.to_act(state)[0]
    other = 1 - seat
    view = biblios.view(state, seat)
    knowledge = Knowledge(view, memories[seat])
    assert knowledge.known[other] and knowledge.lost[other] == 0
    world = determinise(view, memories[seat], random.Random(1))
    assert set(knowledge.known[other]) <= set(world.hands[other])


def test_four_player_sampled_hands_are_nearer_the_true_ones_with_the_abbots_choice():
    """abbot.KEEP_CHOICE: each unseen card a favourite of 3 left other seats' sampled hands more
    than a card's worth of category value short of the true hands; the Abbot's four-player
    choice comes within half of that (`python -m games.kinds.biblios.bench.hands`, on 40 deals:
    1.6 and 0.6)."""
    chosen = KEEP_CHOICE[4]
    by_choice, counted = hands.bias(players=4, deals=10, choices=[3, chosen], samples=10, seed=1)
    assert counted > 200
    short_of_three = sum(by_choice[3]["ranks"])
    short_of_chosen = sum(by_choice[chosen]["ranks"])
    assert short_of_three > 1.0
    assert abs(short_of_chosen) < short_of_three / 2


@pytest.mark.parametrize("num_players, edition, options", TABLES)
def test_fast_playouts_replay_identically_through_the_engine(num_players, edition, options):
    """With every seat the Scholar's way, and with one seat on the Abbot's weights as it plays."""
    checked = 0
    for state, _ in random_positions(num_players, 4, options, edition, rate=0.05):
        abbot_seat = checked % num_players
        abbot = ABBOT_STYLES[num_players]
        styles = [abbot if seat == abbot_seat else SCHOLAR for seat in range(num_players)]
        playout = Playout(state, log=True, styles=styles if checked % 2 else None)
        outcome = playout.run()
        replayed = state
        for seat, action in playout.actions:
            assert biblios.to_act(replayed) == [seat]
            replayed = biblios.apply_action(replayed, seat, action)
        assert replayed.phase == "over"
        assert replayed.hands == playout.hands and replayed.dice == playout.dice
        assert biblios.result(replayed) == outcome
        checked += 1
    assert checked >= 5


def test_the_abbot_plays_a_forced_move_at_once():
    for state, memories in positions(2, 21, every=1):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        memory = memories[seat]
        if len(view["legal_actions"]) == 1 and state.phase == "auction":
            break
    start = time.process_time()
    action = bots.choose("abbot", view, memory, random.Random(1), budget_s=5.0)
    assert time.process_time() - start < 0.05
    assert action == view["legal_actions"][0]


def test_the_abbot_keeps_to_its_cpu_budget():
    budget = 0.1
    timed = 0
    for state, memories in positions(3, 22, every=9):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        if len(view["legal_actions"]) < 2:
            continue
        start = time.process_time()
        action = bots.choose("abbot", view, memories[seat], random.Random(2), budget_s=budget)
        # One round of playouts may run past the deadline before the search notices it.
        assert time.process_time() - start < budget + 0.1
        assert action in view["legal_actions"]
        timed += 1
        if timed == 4:
            break
    assert timed == 4


def test_the_abbot_places_cards_the_greedy_way_without_searching():
    """Searching placements lost games (abbot.SEARCHED_STEPS): they are its greedy choice."""
    placed = 0
    for state, memories in positions(2, 23, every=3):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        if view["awaiting"]["step"] != "place" or len(view["legal_actions"]) < 2:
            continue
        start = time.process_time()
        action = bots.choose("abbot", view, memories[seat], random.Random(placed), budget_s=5.0)
        assert time.process_time() - start < 0.05
        seed = random.Random(placed).getrandbits(64)
        assert action == scholar.decide(view, memories[seat], random.Random(seed), ABBOT_STYLES[2])
        placed += 1
    assert placed >= 5
