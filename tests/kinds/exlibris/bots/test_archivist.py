"""The Archivist (`games.kinds.exlibris.bots.archivist`) and the worlds it searches
(`determinise`): a world is one the seat cannot tell from the real game (X77), whole enough to
play on to the end; the search is honest, legal in every mode and stops where it is told.

Searches here are capped by a number of worlds (`rounds`), never by time: a timed unit test
would pass or fail with the machine's load."""

import copy
import random

import pytest

from games.kinds.exlibris import bots
from games.kinds.exlibris import engine as E
from games.kinds.exlibris.bots import archivist, greedy
from games.kinds.exlibris.bots.determinise import SEARCHED_KINDS, determinise, searchable

from .test_bots import modes, positions

# The engine's own bookkeeping that a rebuilt world must hold as the real state does.
STRUCTURE = ("pending", "phase", "round", "draft_step", "resolution", "witch_queue", "players")


def searched_positions(players, seed, variant="standard", options=None, every=1):
    for state, memories in positions(players, seed, variant=variant, options=options, every=every):
        seat = E.to_act(state)[0]
        view = E.view(state, seat)
        if searchable(view):
            yield state, view, memories[seat]


def play_out_at_random(state, seed):
    rng = random.Random(seed)
    while E.to_act(state):
        seat = E.to_act(state)[0]
        state = E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
    return E.result(state)


@pytest.mark.parametrize("players, variant, options", modes())
def test_x77_a_sampled_world_shows_the_seat_exactly_its_view(players, variant, options):
    """Every searched decision of a game, in every mode: the world's view is the real one
    (hands, deck, face-down cards, foci, hints and tiles to come dealt anew), its engine
    bookkeeping is the real state's, its cards are the 152 (X3), and it plays on to a scored
    end (X86)."""
    probed = 0
    kinds = set()
    for state, view, memory in searched_positions(players, 40 + players, variant, options):
        world = determinise(view, memory, random.Random(probed))
        assert E.view(world, view["seat"]) == view
        assert {key: world[key] for key in STRUCTURE} == {key: state[key] for key in STRUCTURE}
        assert set(world) == set(state)
        assert E.dumps(E.loads(E.dumps(world))) == E.dumps(world)
        if probed % 5 == 0:
            play_out_at_random(world, probed)
        kinds.add(view["pending"]["kind"])
        probed += 1
    assert probed >= 10 and "place" in kinds and "flip" in kinds


def test_x77_worlds_differ_where_the_seat_cannot_see():
    """Two worlds of the same view deal the hidden cards differently (else the search would
    be looking at the real game)."""
    _, view, memory = next(searched_positions(3, 7, every=5))
    one, two = (determinise(view, memory, random.Random(seed)) for seed in (1, 2))
    seat = view["seat"]
    others = [record["hand"] for record in one["seats"] if record["seat"] != seat]
    assert others != [record["hand"] for record in two["seats"] if record["seat"] != seat]
    assert one["deck"] != two["deck"]


def test_only_decisions_with_nothing_below_them_are_rebuilt():
    for state, _ in positions(2, 9, every=1):
        view = E.view(state, E.to_act(state)[0])
        assert searchable(view) == (view["pending"]["kind"] in SEARCHED_KINDS)
        if not searchable(view):
            with pytest.raises(ValueError):
                determinise(view, None, random.Random(0))
            return
    raise AssertionError("no decision inside an effect in a whole game")


# ------------------------------------------------------------------------------ the search


def archivist_game(players, seed, variant="standard", options=None, rounds=1, every=3):
    """A whole game with an Archivist at seat 0 and Greedies elsewhere: every action is legal
    (apply_action refuses anything else). It searches `rounds` worlds at every decision but
    its placements, where it searches one in `every` (the Greedy's choice for the others) to
    keep the suite quick."""
    state = E.new_game(players, seed=seed, variant=variant, options=options)
    memories = [bots.new_memory(seat, players) for seat in range(players)]
    rng = random.Random(seed)
    searched = placements = 0
    while E.to_act(state):
        for seat, memory in enumerate(memories):
            bots.observe(memory, {"version": state.version, "events": E.events_for(state, seat)})
        seat = E.to_act(state)[0]
        view = E.view(state, seat)
        placing = view["pending"]["kind"] == "place"
        if seat == 0 and (not placing or placements % every == 0):
            action, worlds = archivist.search(view, memories[0], rng, rounds=rounds)
            searched += worlds
            placements += placing
        elif seat == 0:
            action = archivist.decide(view, memories[0], rng, rounds=0)
            placements += 1
        else:
            action = bots.choose("greedy", view, memories[seat], rng)
        state = E.apply_action(state, seat, action)
    return E.result(state), searched


@pytest.mark.parametrize("players, variant, options", modes())
def test_x86_the_archivist_plays_every_mode_to_a_scored_end(players, variant, options):
    result, searched = archivist_game(players, 60 + players, variant, options)
    assert sorted(row["seat"] for row in result["players"]) == list(range(players))
    assert searched > 5


def test_the_archivist_plays_through_choose_with_a_tiny_budget():
    """`choose` with a budget of nothing plays the Greedy's move, searching no world."""
    for _state, view, memory in searched_positions(2, 11, every=3):
        action = bots.choose("archivist", view, copy.deepcopy(memory), random.Random(3), 0.0)
        assert action in view["legal_actions"]
        expected = archivist.candidate_moves(view, memory, random.Random(3))[0]
        if view["pending"]["kind"] not in greedy.RANDOM_KINDS:
            assert action == expected


@pytest.mark.parametrize("rounds", [0, 1, 4])
def test_the_search_stops_after_its_rounds(rounds):
    """Given a number of worlds, the search samples no more than that, whatever its budget."""
    for _state, view, memory in searched_positions(2, 13, every=4):
        if len(archivist.candidate_moves(view, memory, random.Random(0))) < 2:
            continue
        action, searched = archivist.search(view, memory, random.Random(0), 10.0, rounds)
        assert action in view["legal_actions"] and searched <= rounds
        if view["pending"]["kind"] == "place":
            assert searched == rounds
            return


def test_a_budget_of_nothing_searches_no_world():
    for _state, view, memory in searched_positions(4, 14, every=4):
        action, searched = archivist.search(view, memory, random.Random(0), 0.0)
        assert searched == 0 and action in view["legal_actions"]


@pytest.mark.parametrize(
    "players, seed, options", [(1, 31, {"difficulty": 3}), (2, 32, None), (4, 34, None)]
)
def test_x77_what_the_seat_cannot_know_changes_no_search(players, seed, options):
    """As for every level (test_bots.py): on a `redraw_hidden` state the view is the same, and
    so is the Archivist's choice with the same memory and seed (a fixed number of worlds)."""
    probed = 0
    for state, view, memory in searched_positions(players, seed, options=options, every=6):
        seat = view["seat"]
        redrawn = E.redraw_hidden(state, seat, random.Random(probed))
        assert E.view(redrawn, seat) == view

        choices = [
            archivist.decide(seen, copy.deepcopy(memory), random.Random(5), rounds=2)
            for seen in (view, E.view(redrawn, seat))
        ]
        assert choices[0] == choices[1]
        probed += 1
        if probed == 4:
            break
    assert probed == 4


def test_confident_best_keeps_the_greedy_move_unless_another_is_clearly_better():
    # Candidate 1 gains 1 point every time: clearly better; candidate 2 is noise around 0.
    sums, squares = [0.0, 10.0, 0.5], [0.0, 10.0, 40.0]
    assert archivist.confident_best(sums, squares, 10, [1, 2]) == 1
    assert archivist.confident_best(sums, squares, 10, [2]) == 0
    assert archivist.confident_best(sums, squares, 1, [1, 2]) == 0


def test_a_view_its_memory_contradicts_gets_the_greedy_move():
    """A memory that claims a card the view shows elsewhere cannot be dealt from: no world, and
    the Greedy's move, not an error, at a live table."""
    for _state, view, memory in searched_positions(1, 15, options={"difficulty": 2}, every=3):
        if view["pending"]["kind"] != "place" or view["discard_size"] < 2:
            continue
        broken = copy.deepcopy(view)
        broken["discard_size"] = 200  # more cards than the game has
        action, searched = archivist.search(broken, memory, random.Random(0), rounds=3)
        assert searched == 0
        assert action == archivist.candidate_moves(broken, memory, random.Random(0))[0]
        return
    raise AssertionError("no solo placement with a Public Library")
