"""Every registered engine against the contract of `games/kinds/protocol.py`, along one random
game at every player count and variant (and table option): the game ends and is scored, state
survives its JSON form, the move log replays to the same state through the one fold (`steps`),
no view depends on a card its seat cannot know (non-interference), and no bot decides on one."""

import copy
import json
import random

import pytest

from games.kinds import protocol

from .conftest import BOT_LEVELS, ENGINES, FALLBACKS, engine_tables

EVERY_TABLE = pytest.mark.parametrize("played", engine_tables(), indirect=True)
SAMPLED = 12  # states per game checked for non-interference, besides the first and last
HONESTY_SAMPLED = 4  # decisions per game put to every bot level, the searching ones included


def sample(states, rng) -> list[int]:
    middle = rng.sample(range(1, len(states) - 1), min(SAMPLED, len(states) - 2))
    return [0, *sorted(middle), len(states) - 1]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_the_engine_meets_the_contract(engine):
    assert protocol.missing(engine) == []


@EVERY_TABLE
def test_a_random_game_ends_and_is_scored(played):
    """Every waiting seat had a legal move (checked while playing); at the end nobody is to act
    and nobody has an action; the result gives each seat a place among the seats, the winners
    holding the first, or nobody winning when the game itself beat the table (solo Ex Libris
    against the Public Library, X84); before the end there is no result."""
    engine, final = played.engine, played.states[-1]
    assert engine.to_act(final) == []
    assert all(engine.legal_actions(final, seat) == [] for seat in range(played.players))
    result = engine.result(final)
    json.dumps(result)
    places = {entry["seat"]: entry["place"] for entry in result["players"]}
    assert sorted(places) == list(range(played.players))
    assert all(1 <= place <= played.players for place in places.values())
    assert 1 in places.values()
    assert set(result["winners"]) in ({seat for seat, place in places.items() if place == 1}, set())
    with pytest.raises(ValueError):
        engine.result(played.states[-2])


@EVERY_TABLE
def test_only_the_seats_to_act_have_actions(played):
    engine = played.engine
    for state in played.states[:: max(1, len(played.states) // 40)]:
        waiting = engine.to_act(state)
        for seat in range(played.players):
            assert bool(engine.legal_actions(state, seat)) == (seat in waiting)


@EVERY_TABLE
def test_states_and_views_carry_what_the_platform_reads(played):
    """The platform reads a state's `version` (the move log's sequence number) and a view's
    "version", "seat", "to_act" and "legal_actions" (protocol.py's docstring)."""
    engine = played.engine
    for step in range(0, len(played.states), max(1, len(played.states) // 40)):
        state = played.states[step]
        assert state.version == step
        for seat in [*range(played.players), None]:
            view = engine.view(state, seat)
            assert (view["version"], view["seat"]) == (step, seat)
            assert view["to_act"] == engine.to_act(state)
            mine = engine.legal_actions(state, seat) if seat is not None else []
            assert view["legal_actions"] == mine


@EVERY_TABLE
def test_states_survive_their_json_form(played):
    engine = played.engine
    for state in played.states:
        text = engine.dumps(state)
        assert engine.loads(text) == state
        assert engine.dumps(engine.loads(text)) == text


@EVERY_TABLE
def test_the_move_log_replays_to_the_same_state(played):
    engine, states, moves = played.engine, played.states, played.moves
    setup = engine.setup_of(states[-1])
    assert engine.setup_of(states[0]) == setup
    json.dumps(setup)
    assert engine.replay(setup, moves) == states[-1]
    middle = len(moves) // 2
    assert engine.replay(setup, moves[:middle]) == states[middle]


@EVERY_TABLE
def test_steps_is_the_fold_of_apply_action(played):
    """`steps` yields the deal and the state after each move, exactly as `apply_action` made
    them; resumed from a state of the log it yields the rest; a refused move raises
    IllegalAction after the states before it."""
    engine, states, moves = played.engine, played.states, played.moves
    setup = engine.setup_of(states[0])
    assert list(engine.steps(setup, moves)) == states
    for cut in (0, len(moves) // 3, len(moves) - 1):
        assert list(engine.steps(setup, moves[cut:], resume=states[cut])) == states[cut + 1 :]
    broken = len(moves) // 2
    tampered = [*moves[:broken], (moves[broken][0], {"type": "not-an-action"})]
    reached = []
    with pytest.raises(engine.IllegalAction):
        for state in engine.steps(setup, tampered):
            reached.append(state)
    assert reached == states[: broken + 1]


@EVERY_TABLE
def test_apply_action_leaves_its_input_unchanged(played):
    """States are values: the platform caches them, bots search from them and replays share
    them, so `apply_action` must never change the state it is given, whether it applies the
    move or refuses one (a refusal changes nothing)."""
    engine, states, moves = played.engine, played.states, played.moves
    for step in range(0, len(moves), max(1, len(moves) // 60)):
        state, (seat, action) = states[step], moves[step]
        before = engine.dumps(state)
        assert engine.apply_action(state, seat, action) == states[step + 1]
        assert engine.dumps(state) == before
        with pytest.raises(engine.IllegalAction):
            engine.apply_action(state, seat, {"type": "not-an-action"})
        assert engine.dumps(state) == before


@EVERY_TABLE
def test_no_view_depends_on_what_its_seat_cannot_know(played):
    """Non-interference (R22 for Biblios): dealing anew every card a seat (or a spectator)
    cannot see now, hidden orders and the seed included (`redraw_hidden`), leaves its view and
    its events exactly as they were. Otherwise a view would reveal something of those cards (a
    count, a kind, a cap, an order…). The redraw must change the state now and then, or this
    would prove nothing."""
    engine, states = played.engine, played.states
    rng = random.Random(len(states))
    changed = 0
    for index in sample(states, rng):
        state = states[index]
        for seat in [*range(played.players), None]:
            other = engine.redraw_hidden(state, seat, rng)
            assert engine.view(other, seat) == engine.view(state, seat), (index, seat)
            assert engine.events_for(other, seat) == engine.events_for(state, seat), (index, seat)
            changed += engine.dumps(other) != engine.dumps(state)
    assert changed


@EVERY_TABLE
def test_a_public_setup_tells_no_more_than_the_deal_shows(played):
    """What anyone may read of a finished game's setup reveals nothing of its hidden deal: two
    deals a spectator cannot tell apart have the same public setup; where every deal shows
    something different from the start (Ex Libris' library draft), the public setup is the
    same for all of them."""
    engine = played.engine
    public_by_deal = {}
    for seed in range(12):
        state = engine.new_game(
            played.players, seed=seed, variant=played.variant, options=played.options
        )
        deal = json.dumps(engine.view(state, None), sort_keys=True)
        public = json.dumps(engine.public_setup(engine.setup_of(state)), sort_keys=True)
        public_by_deal.setdefault(deal, set()).add(public)
    assert all(len(public) == 1 for public in public_by_deal.values())
    if len(public_by_deal) == 12:  # nothing compared above: the seed must change nothing here
        assert len(set().union(*public_by_deal.values())) == 1


@EVERY_TABLE
def test_public_moves_and_open_hands(played):
    """A player reads its own moves as played; every public form is JSON; the open-hands view of
    a step is the spectator's view of it with more shown."""
    engine, states = played.engine, played.states
    for seat, action in played.moves:
        assert engine.public_action(seat, action, seat) == action
        for reader in [*range(played.players), None]:
            json.dumps(engine.public_action(seat, action, reader))
    for step in sample(states, random.Random(1)):
        opened = engine.open_hands_view(states, step)
        spectator = engine.view(states[step], None)
        json.dumps(opened)
        assert {key: opened[key] for key in spectator} == spectator


@EVERY_TABLE
def test_the_fallback_bot_always_has_a_legal_move(played):
    """The bot that plays timeouts and leavers decides from the seat's view and the events that
    seat saw, as the turn worker feeds it, and what it plays is legal, at sampled decisions."""
    decide = FALLBACKS[slug_of(played)][0]
    engine, rng = played.engine, random.Random(played.players)
    for index, seat, memory in decisions(played, rng, SAMPLED):
        state = played.states[index]
        action = decide(engine.view(state, seat), memory, rng)
        assert action in engine.legal_actions(state, seat), (index, seat, action)
        engine.apply_action(state, seat, action)


@EVERY_TABLE
def test_no_bot_decides_on_what_its_seat_cannot_know(played):
    """Honesty (Biblios' R22, Ex Libris' X77), for every level of every game: with everything
    its seat cannot know dealt anew (`redraw_hidden`), a bot given the same memory and seed
    makes the same choice, a legal one; and it decides the same from the plain JSON of its view
    and memory, so nothing else can ride along with them. A searching level is held to a few
    rounds of search, which makes it repeatable."""
    engine, rng = played.engine, random.Random(played.players + 1)
    levels = BOT_LEVELS[slug_of(played)]
    for index, seat, memory in decisions(played, rng, HONESTY_SAMPLED):
        state = played.states[index]
        redrawn = engine.redraw_hidden(state, seat, rng)
        view = engine.view(state, seat)
        plain_view = json.loads(json.dumps(view))
        for level, choose in levels:
            made = choose(view, copy.deepcopy(memory), random.Random(7))
            assert made in engine.legal_actions(state, seat), (level, index, made)
            again = choose(engine.view(redrawn, seat), copy.deepcopy(memory), random.Random(7))
            plain = choose(plain_view, json.loads(json.dumps(memory)), random.Random(7))
            assert again == plain == made, (level, index, seat)


def slug_of(played) -> str:
    return next(slug for slug, engine in ENGINES.items() if engine is played.engine)


def decisions(played, rng: random.Random, count: int) -> list[tuple[int, int, dict]]:
    """`count` decisions of the game at random: (state index, seat to act, that seat's bot
    memory of the events it saw up to then, as the turn worker builds it)."""
    engine = played.engine
    _, new_memory, observe = FALLBACKS[slug_of(played)]
    asked = [i for i, state in enumerate(played.states) if engine.to_act(state)]
    found = []
    for index in sorted(rng.sample(asked, min(count, len(asked)))):
        seat = engine.to_act(played.states[index])[0]
        memory = new_memory(seat, played.players)
        for version, earlier in enumerate(played.states[: index + 1]):
            observe(memory, {"version": version, "events": engine.events_for(earlier, seat)})
        found.append((index, seat, memory))
    return found
